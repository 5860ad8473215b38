"""The replay under a real Redis and real `rqworker` processes, including their failures."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection, transaction
from redis import Redis

from clubs.models import Club, Game
from clubs.results import Result
from ladder.changes import LadderInput, club_changed, request_full_rebuild
from ladder.jobs import replay_queue, sweep_ladders
from ladder.models import LadderReplay
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import first_ladder, make_club, make_event, make_history, make_players
from tests.live import free_port, kill, run_burst_worker, start_worker, wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(240),
]


@pytest.fixture
def redis_url() -> Iterator[str]:
    Redis.from_url(settings.REDIS_URL).flushdb()
    yield settings.REDIS_URL
    Redis.from_url(settings.REDIS_URL).flushdb()


@pytest.fixture
def small_club():
    club = make_club(slug="small")
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN), (1, cid, dee, Result.DRAW)])
    return club


def correct_a_result(club: Club, result: Result) -> None:
    with transaction.atomic():
        game = Game.objects.filter(event__club=club).order_by("pk").first()
        Game.objects.filter(pk=game.pk).update(result=result)
        club_changed(club.pk, LadderInput())


def current(club: Club) -> bool:
    club.refresh_from_db()
    return club.ladder_is_current


def test_a_committed_change_triggers_exactly_one_replay(redis_url, small_club):
    correct_a_result(small_club, Result.BLACK_WIN)
    assert replay_queue().count == 1
    run_burst_worker(redis_url)
    assert LadderReplay.objects.filter(club=small_club).count() == 1
    assert current(small_club)
    assert verify_ladder(small_club) == []


def test_a_rolled_back_change_triggers_no_replay(redis_url, small_club):
    with pytest.raises(RuntimeError), transaction.atomic():
        club_changed(small_club.pk, LadderInput())
        raise RuntimeError("the save failed")
    assert replay_queue().count == 0
    run_burst_worker(redis_url)
    assert LadderReplay.objects.count() == 0
    small_club.refresh_from_db()
    assert first_ladder(small_club).data_version == 0


def test_twenty_quick_corrections_end_correct_after_far_fewer_replays(redis_url, small_club):
    for n in range(20):
        correct_a_result(small_club, [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN][n % 3])
    run_burst_worker(redis_url)
    assert current(small_club)
    assert verify_ladder(small_club) == []
    assert LadderReplay.objects.filter(club=small_club).count() <= 3


@pytest.fixture
def big_club():
    club = make_club(slug="big")
    make_history(club, events=150, players=120, per_event=30, rounds=5)
    replay_ladder(club.pk, full=True)
    return club


def replay_lock_held(club: Club) -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 7311 "
            "AND objid = %s AND granted",
            [club.pk],
        )
        return cursor.fetchone()[0] > 0


def test_a_worker_killed_mid_replay_is_repaired_by_a_new_worker_and_the_sweep(redis_url, big_club):
    with transaction.atomic():
        request_full_rebuild(big_club.pk)
    worker = start_worker(redis_url, burst=False, forking=False)
    try:
        wait_until(lambda: replay_lock_held(big_club), timeout=60)
    finally:
        kill(worker)
    wait_until(lambda: not replay_lock_held(big_club), timeout=30)
    assert not current(big_club)  # the killed replay's transaction rolled back
    assert sweep_ladders(older_than_seconds=0) == [big_club.pk]
    run_burst_worker(redis_url)
    assert current(big_club)
    assert verify_ladder(big_club) == []


def test_two_replays_of_one_club_never_interleave(redis_url, big_club):
    from rq import Worker

    workers = [start_worker(redis_url, burst=False) for _ in range(2)]
    try:
        connection_ = Redis.from_url(redis_url)
        wait_until(lambda: len(Worker.all(connection=connection_)) == 2, timeout=60)
        for _ in range(4):
            with transaction.atomic():
                request_full_rebuild(big_club.pk)
            time.sleep(0.2)
        wait_until(lambda: current(big_club) and replay_queue().count == 0, timeout=120)
        wait_until(lambda: not replay_lock_held(big_club), timeout=60)
    finally:
        for worker in workers:
            kill(worker)
    replays = list(LadderReplay.objects.filter(club=big_club).order_by("started_at"))
    assert len(replays) >= 3  # the setup's replay and at least two of the rebuilds
    for earlier, later in itertools.pairwise(replays):
        assert later.started_at >= earlier.finished_at
    assert verify_ladder(big_club) == []


class PrivateRedis:
    """A redis-server of the test's own, so stopping it disturbs nothing else."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="redis-test-")
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self.dir,
            ],
            stdout=subprocess.DEVNULL,
        )
        wait_until(lambda: self._ping(), timeout=20)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def _ping(self) -> bool:
        try:
            return bool(Redis.from_url(self.url, socket_connect_timeout=0.2).ping())
        except Exception:
            return False


@pytest.fixture
def private_redis(settings) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed")
    server = PrivateRedis()
    server.start()
    settings.REDIS_URL = server.url
    yield server
    server.stop()
    shutil.rmtree(server.dir, ignore_errors=True)


def test_with_redis_down_a_correction_is_saved_and_the_sweep_repairs_it_later(
    private_redis, small_club, client
):
    replay_ladder(small_club.pk, full=True)
    private_redis.stop()
    correct_a_result(small_club, Result.BLACK_WIN)  # must not raise
    small_club.refresh_from_db()
    assert first_ladder(small_club).data_version == 1 and not small_club.ladder_is_current
    page = client.get(f"/c/{small_club.slug}/s/{small_club.secret}/")
    assert "being recalculated" in page.content.decode()

    private_redis.start()
    assert sweep_ladders(older_than_seconds=0) == [small_club.pk]
    run_burst_worker(private_redis.url)
    assert current(small_club)
    assert verify_ladder(small_club) == []
