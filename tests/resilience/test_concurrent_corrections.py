"""Directors correcting results at once, through the views, while two real workers replay."""

from __future__ import annotations

import random
import re
import threading
import time

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from redis import Redis
from rq import Worker
from rq.registry import FailedJobRegistry

from clubs.models import AuditEntry, Club, Entry, Event
from clubs.results import Result
from ladder.jobs import replay_queue
from ladder.models import LadderReplay
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_club, make_event, make_players, make_user
from tests.live import kill, start_worker, wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(300),
]

RESULTS = ["1-0", "0-1", "1/2-1/2"]
THREADS, CORRECTIONS = 4, 25


def build_clubs(director) -> list[Club]:
    clubs = []
    for n in range(3):
        club = make_club(slug=f"busy-{n}", directors=[director])
        players = make_players(club, [f"Player {n}-{i}" for i in range(8)])
        for day in range(1, 5):
            games = [
                (r, players[(r + 2 * b) % 8], players[(r + 2 * b + 1 + r) % 8], Result.DRAW)
                for r in range(1, 4)
                for b in range(2)
            ]
            games = [g for g in games if g[1] != g[2]]
            make_event(club, games, date=f"2026-0{day}-01")
        replay_ladder(club.pk, full=True)
        clubs.append(club)
    return clubs


def correction_csv(event: Event, rng: random.Random) -> str:
    names = list(Entry.objects.filter(event=event).values_list("typed_name", flat=True))
    rng.shuffle(names)
    rows = ["round,white,black,result"]
    for round_no in (1, 2):
        for white, black in zip(names[::2], names[1::2], strict=False):
            rows.append(f"{round_no},{white},{black},{rng.choice(RESULTS)}")
    return "\n".join(rows)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_concurrent_corrections_end_with_every_ladder_equal_to_a_fresh_replay(seed):
    run_corrections(seed, corrections=CORRECTIONS)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize("seed", range(10, 20))
def test_long_concurrent_corrections(seed):
    """`make test-long`: ten seeds of four threads with 100 corrections each."""
    run_corrections(seed, corrections=100)


def run_corrections(seed: int, corrections: int) -> None:
    redis_url = settings.REDIS_URL
    Redis.from_url(redis_url).flushdb()
    director = make_user("busy@example.org")
    clubs = build_clubs(director)
    events = list(Event.objects.filter(club__in=clubs).select_related("club"))
    workers = [start_worker(redis_url, burst=False) for _ in range(2)]
    statuses: list[int] = []
    errors: list[BaseException] = []

    def correct(thread_seed: int) -> None:
        rng = random.Random(thread_seed)
        client = Client()
        client.force_login(director)
        try:
            for _ in range(corrections):
                event = rng.choice(events)
                version = Event.objects.get(pk=event.pk).edit_version
                url = reverse("event_paste", args=[event.club.slug, event.pk])
                data = {"text": correction_csv(event, rng), "version": version}
                response = client.post(url, data)
                # One account (and club) reads one paste at a time: as a director would, wait
                # for the other tab's to finish and send it again.
                for _retry in range(50):
                    if response.status_code != 409:
                        break
                    time.sleep(0.02)
                    response = client.post(url, data)
                statuses.append(response.status_code)
                # A correction to a published event waits on its confirm page: confirm it.
                token = re.search(rb'name="token" value="([^"]+)"', response.content)
                if token:
                    confirm = reverse("event_correction", args=[event.club.slug, event.pk])
                    response = client.post(confirm, {"token": token[1].decode(), "confirm": "1"})
                    statuses.append(response.status_code)
        except BaseException as error:  # reported by the main thread
            errors.append(error)
        finally:
            connection.close()

    try:
        connection_ = Redis.from_url(redis_url)
        wait_until(lambda: len(Worker.all(connection=connection_)) == 2, timeout=60)
        threads = [threading.Thread(target=correct, args=(seed * 100 + n,)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=300)
        assert errors == []
        assert len(statuses) >= THREADS * corrections
        assert all(status < 500 for status in statuses), statuses
        accepted = AuditEntry.objects.filter(action="results.saved").count()
        assert accepted >= THREADS * corrections // 2  # most were accepted, some refused as stale

        def at_rest() -> bool:
            return replay_queue().count == 0 and all(
                c.ladder_is_current for c in Club.objects.filter(pk__in=[c.pk for c in clubs])
            )

        wait_until(at_rest, timeout=180)
    finally:
        for worker in workers:
            kill(worker)
    assert FailedJobRegistry(queue=replay_queue()).count == 0  # no deadlock, no lock timeout
    for club in Club.objects.filter(pk__in=[c.pk for c in clubs]):
        assert verify_ladder(club) == []
    assert LadderReplay.objects.filter(club__in=clubs).count() > len(clubs)  # workers did replay
