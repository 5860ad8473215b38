"""What moving event kinds between a club's ladders would do to each ladder it touches.

A move changes two ladders at once (the one giving a kind up is re-rated without its events,
the one taking it with them), so the directors' ladders screen shows both. As write_impact in
what_if.py, the very write a confirmation makes is made inside a savepoint, each ladder whose
kinds it changed is replayed in memory there, and everything is rolled back: the preview refuses
what the write refuses and rates exactly what the replay will store.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from clubs.models import Ladder
from ladder.impact.compare import LadderImpact, compare_ladders
from ladder.impact.what_if import Ladder as States
from ladder.impact.what_if import current_ladder, replayed_ladder, rolled_back
from ladder.policies import get_policy


@dataclass(frozen=True)
class LadderMove:
    """One ladder's side of a move: its ratings now and after the move, compared."""

    slug: str
    name: str
    new: bool  # a ladder the write creates
    impact: LadderImpact


def moves_impact(club_id: int, write: Callable[[], object]) -> list[LadderMove]:
    """Each ladder whose kinds `write` changes (or that it creates), in ladder order, with
    what its ratings would do. The write's own errors reach the caller."""
    ladders = list(Ladder.objects.for_club(club_id))
    kinds_before = {ladder.pk: list(ladder.kinds) for ladder in ladders}
    before = {ladder.pk: current_ladder(ladder) for ladder in ladders}

    def write_and_replay() -> list[tuple[Ladder, States]]:
        write()
        replayed: list[tuple[Ladder, States]] = []
        for ladder in Ladder.objects.for_club(club_id):
            if kinds_before.get(ladder.pk) == list(ladder.kinds):
                continue
            policy = get_policy(ladder.rating_policy)
            settings = policy.parse_settings(ladder.rating_settings)
            replayed.append((ladder, replayed_ladder(ladder, policy, settings)))
        return replayed

    after = rolled_back(write_and_replay)
    return [
        LadderMove(
            slug=ladder.slug,
            name=ladder.name,
            new=ladder.pk not in before,
            impact=compare_ladders(before.get(ladder.pk, {}), states),
        )
        for ladder, states in after
    ]
