"""Replays and large files on queues of their own: a file being read never holds up another
club's correction, and every queue a job goes on is served by a worker as shipped."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import transaction
from redis import Redis

from clubs.models import Event, Game, Upload
from clubs.results import Result
from directors.events import flow
from ladder.changes import LadderInput, club_changed
from ladder.jobs import REPLAY_QUEUE, UPLOAD_QUEUE, WORKER_QUEUES, replay_queue, upload_queue
from tests.factories import make_club, make_event, make_players, make_user
from tests.live import kill, start_worker, wait_until
from tests.ops.test_deployment import ROOT, command


def test_the_shipped_workers_serve_every_queue_and_one_serves_replays_alone():
    assert set(settings.RQ_QUEUES) == {REPLAY_QUEUE, UPLOAD_QUEUE}
    # make worker: both queues, replays first (rq takes the first queue that has a job).
    make_worker = re.search(r"^worker:.*\n\t(.*)$", (ROOT / "Makefile").read_text(), re.M)
    assert make_worker is not None
    assert make_worker.group(1).split()[-2:] == list(WORKER_QUEUES) == ["default", "uploads"]
    # compose: one worker for replays alone, so a file being read never holds one up...
    assert command("worker")[-2:] == ["rqworker", REPLAY_QUEUE]
    # ...and one for the files (at a lower CPU priority), which helps with replays when idle.
    assert command("upload-worker")[:3] == ["nice", "-n", "10"]
    assert command("upload-worker")[-3:] == ["rqworker", UPLOAD_QUEUE, REPLAY_QUEUE]


@pytest.fixture
def redis_url() -> Iterator[str]:
    Redis.from_url(settings.REDIS_URL).flushdb()
    yield settings.REDIS_URL
    Redis.from_url(settings.REDIS_URL).flushdb()


def correct_first_result(club_id: int) -> None:
    with transaction.atomic():
        game = Game.objects.filter(event__club_id=club_id).order_by("pk").first()
        assert game is not None
        Game.objects.filter(pk=game.pk).update(result=Result.BLACK_WIN)
        club_changed(club_id, LadderInput())


@pytest.mark.redis
@pytest.mark.django_db
def test_a_large_file_is_queued_for_the_upload_worker_and_a_replay_for_the_replay_worker(
    redis_url, django_capture_on_commit_callbacks
):
    director = make_user("files@example.org")
    club = make_club(slug="files", owner=director)
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    draft = Event.objects.create(club=club, name="Big open", date=dt.date(2026, 1, 10))
    rows = "".join(f"1,P{2 * n},P{2 * n + 1},1-0\n" for n in range(2500))
    data = ("round,white,black,result\n" + rows).encode()
    received = flow.Received(data, "big.csv", "csv", None, draft.edit_version, None, "file")
    assert flow.is_large(data)
    upload = flow.begin(draft, director, received)
    assert [job.args for job in upload_queue().jobs] == [(upload.pk,)]
    assert replay_queue().count == 0
    with django_capture_on_commit_callbacks(execute=True):
        correct_first_result(club.pk)
    assert replay_queue().count == 1
    assert upload_queue().count == 1
    assert Upload.objects.get(pk=upload.pk).status == Upload.Status.WAITING


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_correction_is_replayed_while_the_upload_worker_is_busy(redis_url):
    """The workers as compose ships them: the upload worker busy with a long job (a minute's
    sleep stands for a file being read), another club's correction is replayed meanwhile."""
    club = make_club(slug="other")
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    file_reader = start_worker(redis_url, burst=False, queues=(UPLOAD_QUEUE, REPLAY_QUEUE))
    replayer = start_worker(redis_url, burst=False, queues=(REPLAY_QUEUE,))
    try:
        busy = upload_queue().enqueue("time.sleep", 60, job_timeout=120)
        wait_until(lambda: busy.get_status(refresh=True) == "started", timeout=60)
        started = time.monotonic()
        correct_first_result(club.pk)

        def current() -> bool:
            club.refresh_from_db()
            return club.ladder_is_current

        wait_until(current, timeout=60)
        assert time.monotonic() - started < 50  # well before the file's minute is up
        assert busy.get_status(refresh=True) == "started"
    finally:
        kill(file_reader)
        kill(replayer)
