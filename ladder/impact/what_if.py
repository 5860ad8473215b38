"""What a change would do to a club's ladders, worked out in memory and written nowhere.

The directors' screens show it before a change is made: other rating settings
(directors/rating_settings_views.py) or a correction to a published event
(directors/events/corrections.py).
Both replay the club's whole history in memory, as verify_ladder does (the fold of
ladder/history.py over store.event_inputs), and compare the final ratings with the ladder as
it stands (ladder/impact/compare.py). The work is one full replay without its writes: about a second
for 100,000 games (BENCHMARKS.md), acceptable for a director's deliberate action.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import TypeVar

from django.db import transaction

from clubs import models
from clubs.models import Club, Player
from ladder import store
from ladder.history import rate_events
from ladder.impact.compare import LadderImpact, compare_ladders
from ladder.policies import Policy, get_policy
from ladder.policies.base import PlayerState, PolicySettings
from ladder.replay import cyclic_gc_paused

Ladder = dict[int, PlayerState | None]


def replayed_ladder(ladder: models.Ladder, policy: Policy, settings: PolicySettings) -> Ladder:
    """Every player's final state after the ladder's published events, rated with `settings`."""
    current = store.starting_states(ladder.club_id, ladder.pk, policy.start_rating(settings))
    events, _dates = store.event_inputs(ladder.club_id, ladder.event_kinds())
    with cyclic_gc_paused():
        # Only the final states are wanted: each step is dropped as soon as it is rated.
        deque(rate_events(policy, settings, events, current), maxlen=0)
    return dict(current)


def current_ladder(ladder: models.Ladder) -> Ladder:
    """The ladder as the pages will show it once up to date: the stored ratings when the
    replay is current, else the ladder's own settings replayed in memory."""
    if ladder.is_current:
        return {
            pid: None if rating is None else PlayerState(rating, games)
            for pid, rating, games in Player.objects.filter(club_id=ladder.club_id)
            .rated_on(ladder)
            .values_list("id", "rating", "rated_games")
        }
    policy = get_policy(ladder.rating_policy)
    return replayed_ladder(ladder, policy, policy.parse_settings(ladder.rating_settings))


def settings_impact(
    club: Club, policy: Policy, settings: PolicySettings, ladder: models.Ladder | None = None
) -> LadderImpact:
    """What rating the ladder's history (the club's first ladder's by default) with `policy`
    and `settings` would move."""
    ladder = ladder or club.first_ladder()
    return compare_ladders(current_ladder(ladder), replayed_ladder(ladder, policy, settings))


T = TypeVar("T")


class _RolledBack(Exception):
    """Raised to roll a dry run's savepoint back."""


def rolled_back(work: Callable[[], T]) -> T:
    """What `work` returns, made inside a savepoint that is then rolled back: a dry run of a
    write sees everything the write does, and nothing it did stays (its rows, audit entries,
    triggers' marks and queued replays go with the savepoint). Its own errors reach the
    caller."""
    done: list[T] = []
    try:
        with transaction.atomic():
            done.append(work())
            raise _RolledBack
    except _RolledBack:
        pass
    return done[0]


def write_impact(club_id: int, write: Callable[[], object]) -> LadderImpact:
    """What `write` (the very function a confirmation will call) would move, found by making
    it inside a savepoint, replaying in memory and rolling everything back.

    So the preview refuses what the write refuses and rates exactly what it would store;
    nothing it did stays (its rows, audit entries, triggers' marks and queued replays go with
    the savepoint). The write's own errors reach the caller.

    Only the ladders the write marked out of date (through ladder.changes, as every write
    of a ladder input does) are replayed; their moves are listed together, largest first.
    """
    ladders = list(models.Ladder.objects.for_club(club_id))
    before = {ladder.pk: current_ladder(ladder) for ladder in ladders}
    versions = {ladder.pk: ladder.data_version for ladder in ladders}

    def write_and_replay() -> dict[int, Ladder]:
        write()
        replayed: dict[int, Ladder] = {}
        for ladder in models.Ladder.objects.for_club(club_id):
            if ladder.pk in versions and ladder.data_version != versions[ladder.pk]:
                policy = get_policy(ladder.rating_policy)
                settings = policy.parse_settings(ladder.rating_settings)
                replayed[ladder.pk] = replayed_ladder(ladder, policy, settings)
        return replayed

    after = rolled_back(write_and_replay)
    impacts = [compare_ladders(before[pk], moved) for pk, moved in after.items()]
    if len(impacts) == 1:
        return impacts[0]
    moves = [move for impact in impacts for move in impact.moves]
    moves.sort(key=lambda m: (m.before is None or m.after is None, -abs(m.change), m.player_id))
    return LadderImpact(tuple(moves))
