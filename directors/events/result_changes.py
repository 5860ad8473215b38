"""What a save of an event's results changed, board by board: the same pair in the same round
with another result ("Round 3, board 2: 1–0 → ½–½"), and the boards added or taken away.

Plain values in and out (entrant ids and stored result codes), so the audit line of a
correction is worked out without a database and tested as a table of cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# An audit entry keeps this many changed boards; more are counted, not listed.
MAX_LISTED = 50


@dataclass(frozen=True)
class StoredGame:
    round: int
    white: int  # the entrant's id
    black: int | None  # None for a bye
    result: str  # the stored code (clubs.results.Result)


@dataclass(frozen=True)
class ResultChange:
    round: int
    board: int  # its place among the round's games after the save, from 1
    white: int
    black: int | None
    old: str
    new: str


@dataclass(frozen=True)
class ResultChanges:
    changed: tuple[ResultChange, ...]
    added: int  # games or byes the save made that no game before it had
    removed: int  # games or byes before it that the save took away


def result_changes(before: Sequence[StoredGame], after: Sequence[StoredGame]) -> ResultChanges:
    """The games of `after` (in the order they are stored) set against `before`: a game of the
    same round between the same entrants with the same colours (a bye: the same entrant) is the
    same board; its result either stayed or changed. A pair met twice in a round is matched in
    order."""
    waiting: dict[tuple[int, int, int | None], list[StoredGame]] = {}
    for game in before:
        waiting.setdefault((game.round, game.white, game.black), []).append(game)
    boards: dict[int, int] = {}
    changed: list[ResultChange] = []
    added = 0
    for game in after:
        boards[game.round] = boards.get(game.round, 0) + 1
        same = waiting.get((game.round, game.white, game.black))
        if not same:
            added += 1
            continue
        old = same.pop(0)
        if old.result != game.result:
            changed.append(
                ResultChange(
                    round=game.round,
                    board=boards[game.round],
                    white=game.white,
                    black=game.black,
                    old=old.result,
                    new=game.result,
                )
            )
    removed = sum(len(left) for left in waiting.values())
    return ResultChanges(tuple(changed), added, removed)
