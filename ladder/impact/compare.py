"""What a change would do to the ladder: two ladders compared, player by player.

Pure Python: no Django imports. The ladders come from ladder/impact/what_if.py (the stored one,
and one replayed in memory with other settings or corrected results).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ladder.policies.base import PlayerState

# Ratings are printed to one decimal at most: a move smaller than half of that shows nowhere,
# and float noise from a different summation order must not count as a move.
SHOWN_PRECISION = 0.05


@dataclass(frozen=True)
class RatingMove:
    player_id: int
    before: float | None  # None: not on the ladder (no rated games) before
    after: float | None  # None: not on the ladder after

    @property
    def change(self) -> float:
        """The move in points (from or to 0 for a player joining or leaving the ladder)."""
        return (self.after or 0.0) - (self.before or 0.0)


@dataclass(frozen=True)
class LadderImpact:
    moves: tuple[RatingMove, ...]  # largest move first

    @property
    def moved(self) -> int:
        return len(self.moves)

    @property
    def largest(self) -> float:
        """The largest move between two ratings on the ladder (0 when none moved so)."""
        both = [abs(m.change) for m in self.moves if m.before is not None and m.after is not None]
        return max(both, default=0.0)

    @property
    def joined(self) -> int:
        return sum(1 for m in self.moves if m.before is None)

    @property
    def left(self) -> int:
        return sum(1 for m in self.moves if m.after is None)


def on_ladder(state: PlayerState | None) -> float | None:
    """The rating a ladder shows for the state: none without a rated game."""
    if state is None or state.rated_games == 0:
        return None
    return state.rating


def compare_ladders(
    before: Mapping[int, PlayerState | None], after: Mapping[int, PlayerState | None]
) -> LadderImpact:
    """Every player whose shown rating differs between the two ladders, largest move first."""
    moves = []
    for player_id in before.keys() | after.keys():
        old, new = on_ladder(before.get(player_id)), on_ladder(after.get(player_id))
        if old is None and new is None:
            continue
        if old is not None and new is not None and abs(new - old) < SHOWN_PRECISION:
            continue
        moves.append(RatingMove(player_id, old, new))
    # Players on both ladders first by size; joining and leaving after them (their "move" is
    # the whole rating, which would drown the real moves).
    moves.sort(key=lambda m: (m.before is None or m.after is None, -abs(m.change), m.player_id))
    return LadderImpact(tuple(moves))
