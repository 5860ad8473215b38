"""What a change would do to a club's ladder, worked out in memory and written nowhere.

The directors' screens show it before a change is made: other rating settings
(clubs/rating_settings_views.py) or a correction to a published event (clubs/events/corrections.py).
Both replay the club's whole history in memory, as verify_ladder does (the fold of
ladder/history.py over store.event_inputs), and compare the final ratings with the ladder as
it stands (ladder/impact/compare.py). The work is one full replay without its writes: about a second
for 100,000 games (BENCHMARKS.md), acceptable for a director's deliberate action.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from django.db import transaction

from clubs.models import Club, Player
from ladder import store
from ladder.history import rate_events
from ladder.impact.compare import LadderImpact, compare_ladders
from ladder.policies import Policy, get_policy
from ladder.policies.base import PlayerState, PolicySettings
from ladder.replay import _cyclic_gc_paused

Ladder = dict[int, PlayerState | None]


def replayed_ladder(club_id: int, policy: Policy, settings: PolicySettings) -> Ladder:
    """Every player's final state after the club's published events, rated with `settings`."""
    current = store.starting_states(club_id, policy.start_rating(settings))
    events, _dates = store.event_inputs(club_id)
    with _cyclic_gc_paused():
        # Only the final states are wanted: each step is dropped as soon as it is rated.
        deque(rate_events(policy, settings, events, current), maxlen=0)
    return dict(current)


def current_ladder(club: Club) -> Ladder:
    """The ladder as the pages will show it once up to date: the stored ratings when the
    replay is current, else the club's own settings replayed in memory."""
    if club.ladder_is_current:
        return {
            pid: None if rating is None else PlayerState(rating, games)
            for pid, rating, games in Player.objects.filter(club_id=club.pk).values_list(
                "id", "rating", "rated_games"
            )
        }
    policy = get_policy(club.rating_policy)
    return replayed_ladder(club.pk, policy, policy.parse_settings(club.rating_settings))


def settings_impact(club: Club, policy: Policy, settings: PolicySettings) -> LadderImpact:
    """What rating the club's history with `policy` and `settings` would move."""
    return compare_ladders(current_ladder(club), replayed_ladder(club.pk, policy, settings))


class _DryRun(Exception):
    """Raised to roll a dry run's savepoint back."""


def write_impact(club_id: int, write: Callable[[], object]) -> LadderImpact:
    """What `write` (the very function a confirmation will call) would move, found by making
    it inside a savepoint, replaying in memory and rolling everything back.

    So the preview refuses what the write refuses and rates exactly what it would store;
    nothing it did stays (its rows, audit entries, triggers' marks and queued replays go with
    the savepoint). The write's own errors reach the caller.
    """
    club = Club.objects.get(pk=club_id)
    before = current_ladder(club)
    after: Ladder = {}
    try:
        with transaction.atomic():
            write()
            policy = get_policy(club.rating_policy)
            after = replayed_ladder(club_id, policy, policy.parse_settings(club.rating_settings))
            raise _DryRun
    except _DryRun:
        pass
    return compare_ladders(before, after)
