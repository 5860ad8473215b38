"""Background jobs. Each is a few lines around a plain function and takes ids only."""

from __future__ import annotations

import logging

from django.conf import settings

logger = logging.getLogger(__name__)


def enqueue_replay(club_id: int) -> None:
    """Queue a replay of one club's ladder; without Redis, replay right away in-process.

    A failure to reach Redis is logged, not raised: the change itself is already
    committed and the club stays marked out of date, so the sweep repairs it.
    """
    if settings.REDIS_URL is None:
        from ladder.replay import replay_ladder

        replay_ladder(club_id)
        return
    import django_rq
    from redis.exceptions import RedisError

    try:
        django_rq.get_queue("default").enqueue(replay_job, club_id)
    except RedisError:
        logger.warning("Could not queue a replay of club %s; the sweep will retry", club_id)


def replay_job(club_id: int) -> None:
    from ladder.replay import replay_ladder

    replay_ladder(club_id)


def sweep_job() -> None:
    from ladder.replay import sweep_ladders

    sweep_ladders(settings.LADDER_SWEEP_AFTER_SECONDS)
