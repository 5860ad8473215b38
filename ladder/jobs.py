"""Background jobs. Each is a few lines around a plain function and takes ids only."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from django.conf import settings
from django.utils import timezone
from rq import Queue

from clubs.models import Ladder
from config import redis_client
from ladder import replay
from ladder.store.standings import Which

logger = logging.getLogger(__name__)

# Two queues, so that no account's file holds up another club's correction: a worker
# reading a large upload (seconds of CPU) is busy, and a replay queued behind it on the
# same queue waited until it was done. Replays, kept standings and the cron's jobs go on
# REPLAY_QUEUE; files on UPLOAD_QUEUE. A worker serving both lists REPLAY_QUEUE first
# (rq takes the first non-empty queue in the order given); a deployment runs one worker
# for REPLAY_QUEUE alone beside it (docs/operations.md, "Workers").
REPLAY_QUEUE = "default"
UPLOAD_QUEUE = "uploads"
WORKER_QUEUES = (REPLAY_QUEUE, UPLOAD_QUEUE)


def enqueue_replay(club_id: int) -> None:
    """Queue a replay of one club's ladder; without Redis, replay right away in-process.

    A failure to reach Redis is logged, not raised: the change itself is already
    committed and the club stays marked out of date, so the sweep repairs it.
    """
    _enqueue(replay_job, club_id, "a replay", "the sweep will retry")


def enqueue_standings(club_id: int) -> None:
    """Queue the keeping of every event's final standings of one club (its tie-break order
    changed); without Redis, right away in-process. Until it runs, or if it cannot be
    queued, the event pages rank their entrants live: the kept rows no longer match."""
    _enqueue(standings_job, club_id, "the event standings", "the pages rank them live")


def enqueue_event_standings(club_id: int, event_id: int) -> None:
    """Queue the keeping of one event's final standings (its page found its kept row missing
    or out of date: a replay keeps only the events a write touched first, and a later
    event's rating lines moved since); without Redis, right away in-process. Until it runs,
    or if it cannot be queued, the event's pages rank it live."""
    _enqueue(
        event_standings_job, club_id, "an event's standings", "its page ranks it live", event_id
    )


def _enqueue(job: Callable[..., None], club_id: int, what: str, meanwhile: str, *more: int) -> None:
    if settings.REDIS_URL is None:
        # Runs after the change committed (or after a page was built): a failure here must
        # not turn a saved change or a page into an error page. What is left undone is said
        # in `meanwhile`: a replay leaves the ladder marked out of date for the sweep;
        # standings not kept leave the event pages ranking live.
        try:
            job(club_id, *more)
        except Exception:
            logger.exception("In-process run of %s of club %s failed; %s", what, club_id, meanwhile)
        return
    from redis.exceptions import RedisError

    if not redis_client.breaker.allows(settings.REDIS_URL):
        logger.warning(
            "Redis failed moments ago: not queueing %s of club %s; %s", what, club_id, meanwhile
        )
        return
    try:
        replay_queue().enqueue(job, club_id, *more, job_timeout=900)
    except RedisError:
        redis_client.breaker.failed(settings.REDIS_URL, settings.REDIS_RETRY_AFTER_SECONDS)
        logger.warning("Could not queue %s of club %s; %s", what, club_id, meanwhile)


def replay_queue() -> Queue:
    return _queue(REPLAY_QUEUE)


def upload_queue() -> Queue:
    return _queue(UPLOAD_QUEUE)


def _queue(name: str) -> Queue:
    # Built from settings on each call (not cached) so a Redis restart or a
    # changed REDIS_URL is picked up without restarting the web process.
    url = settings.REDIS_URL
    assert url is not None  # only asked for with a queue configured (enqueue_replay, the worker)
    return Queue(name, connection=redis_client.connection(url))


def replay_job(club_id: int) -> None:
    replay.bring_up_to_date(club_id)


def standings_job(club_id: int) -> None:
    replay.keep_standings(club_id)


def event_standings_job(club_id: int, event_id: int) -> None:
    replay.keep_standings(club_id, Which(event_id=event_id))


def sweep_ladders(older_than_seconds: int) -> list[int]:
    """Queue a replay for every club with a ladder that has been out of date for too long."""
    if settings.REDIS_URL is not None:
        # The sweep is the repair: it asks Redis afresh, whatever failed before.
        redis_client.breaker.reset(settings.REDIS_URL)
    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    club_ids = list(
        Ladder.objects.out_of_date()
        .filter(out_of_date_since__lte=cutoff)
        .order_by("club_id")
        .values_list("club_id", flat=True)
        .distinct()
    )
    for club_id in club_ids:
        enqueue_replay(club_id)
    return club_ids


def sweep_job() -> None:
    sweep_ladders(settings.LADDER_SWEEP_AFTER_SECONDS)
