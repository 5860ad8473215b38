"""Background jobs. Each is a few lines around a plain function and takes ids only."""

from __future__ import annotations

import logging

from django.conf import settings
from rq import Queue

logger = logging.getLogger(__name__)


def enqueue_replay(club_id: int) -> None:
    """Queue a replay of one club's ladder; without Redis, replay right away in-process.

    A failure to reach Redis is logged, not raised: the change itself is already
    committed and the club stays marked out of date, so the sweep repairs it.
    """
    if settings.REDIS_URL is None:
        from ladder.replay import replay_ladder

        # Runs after the change committed: a failure here must not turn a saved
        # change into an error page. The club stays marked out of date and the
        # sweep (or the rebuild button) replays it again.
        try:
            replay_ladder(club_id)
        except Exception:
            logger.exception("In-process replay of club %s failed; the sweep will retry", club_id)
        return
    from redis.exceptions import RedisError

    try:
        replay_queue().enqueue(replay_job, club_id, job_timeout=900)
    except RedisError:
        logger.warning("Could not queue a replay of club %s; the sweep will retry", club_id)


def replay_queue() -> Queue:
    # Built from settings on each call (not cached) so a Redis restart or a
    # changed REDIS_URL is picked up without restarting the web process.
    from redis import Redis

    connection = Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=5)
    return Queue("default", connection=connection)


def replay_job(club_id: int) -> None:
    from ladder.replay import replay_ladder

    replay_ladder(club_id)


def sweep_job() -> None:
    from ladder.replay import sweep_ladders

    sweep_ladders(settings.LADDER_SWEEP_AFTER_SECONDS)
