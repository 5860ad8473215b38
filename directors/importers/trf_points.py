"""A TRF's points column against its round cells: the byes only the points column records.

Some programs leave a requested bye out of the round cells (a blank cell, ``0000 - -``, or
``0000 - Z``) and count it only in the points column (columns 81-84). Such a bye is read
back by this rule, for each player whose points column is not what the cells add up to:

1. The *difference* is the points column minus what the player's own cells score (every
   other round is as its cells say: a game, a forfeit, a written bye).
2. The *open rounds* are the rounds the event played (some game between two players is
   stored in them) in which this line has no game and no points: a blank or missing cell,
   ``0000 - -`` (not paired) or ``0000 - Z`` (a zero-point bye). A round nobody played is
   no open round: nothing is stored for it.
3. Each open round could hold a bye of 0, ½ or 1 point. The byes are restored when exactly
   one way of giving the open rounds 0, ½ or 1 adds up to the difference. That is so in
   three cases only: one open round and a difference of ½ (a half-point bye) or 1 (a
   full-point bye), or a difference of 1 in each of several open rounds (a full-point bye in
   every one). Two open rounds and 1 point, say, could be ½ and ½ or 1 in either round.
4. Otherwise nothing is invented: the round results are used and a note names the player
   and, when the difference fits the open rounds in several ways, each of those rounds.

A team file (it has ``013`` team records) is left as its cells say: Swiss-Manager's team
points put a team's match points into its players' columns, so its points column is not a
record of the players' own rounds (the Heraklion cup of the shared corpus is one).

Pure Python: no Django.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from clubs.results import Result

from .base import ImportedGame
from .trf_players import Cell, PlayerLine
from .trf_results import CELL_POINTS, pairing_byes_worth

_BYES = {1: Result.BYE_HALF, 2: Result.BYE_FULL}  # by half points
_BYE_NAMES = {1: "half-point bye", 2: "full-point bye"}


class Fit(enum.Enum):
    ONE = "one"  # exactly one way
    SEVERAL = "several"
    NONE = "none"


@dataclass(frozen=True)
class Reading:
    fit: Fit
    halves: tuple[int, ...] = ()  # for ONE: each open round's bye, in half points (1 or 2)


def bye_reading(difference: float, open_rounds: int) -> Reading:
    """How a `difference` of points can be given to `open_rounds` rounds at 0, ½ or 1 each.

    With k rounds and t half points, a way exists when 0 ≤ t ≤ 2k. It is the only one when
    t = 0 (nothing), t = 2k (a full point everywhere), or k = 1: any other way has a round
    above 0 and another below 1, and moving ½ from the one to the other is a second way.
    """
    halves = round(difference * 2)
    if abs(difference * 2 - halves) > 0.02 or not 0 <= halves <= 2 * open_rounds:
        return Reading(Fit.NONE)
    if halves == 0 or halves == 2 * open_rounds or open_rounds == 1:
        return Reading(Fit.ONE, (halves // open_rounds if open_rounds else 0,) * open_rounds)
    return Reading(Fit.SEVERAL)


def check_points(
    players: dict[int, PlayerLine],
    games: list[ImportedGame],
    warnings: list[str],
    *,
    team_file: bool = False,
) -> list[ImportedGame]:
    """The games with the byes that only the points column records (the module's rule), and a
    note for each player whose points column the round cells do not add up to."""
    byes_worth = pairing_byes_worth(players)
    played = sorted({game.round for game in games if game.black is not None})
    restored: list[ImportedGame] = []
    replaced: set[tuple[int, int]] = set()  # (round, player) of a Z the points column outvotes
    for player in players.values():
        if player.points is None:
            continue
        worth = {**CELL_POINTS, "U": byes_worth[player.key]}
        counted = sum(worth.get(cell.code, 0.0) for cell in player.cells.values())
        difference = player.points - counted
        if abs(difference) <= 0.01:
            continue
        says = (
            f"Line {player.line}: the points column says {player.points:g} for player "
            f"{player.key} ({player.name}), but the round results add up to {counted:g}"
        )
        if team_file:
            warnings.append(
                f"{says}; the round results were used (a team file's points column counts "
                "its team's points too, so no bye is read from it)."
            )
            continue
        open_rounds = [number for number in played if _open(player.cells.get(number))]
        reading = bye_reading(difference, len(open_rounds))
        less = f"{_points(difference)} less"
        if reading.fit is Fit.NONE or not open_rounds:
            warnings.append(f"{says}; the round results were used.")
        elif reading.fit is Fit.SEVERAL:
            warnings.append(
                f"{says}: {less}, as byes the round cells do not write would give, but they "
                f"could be placed in more than one way in rounds {_and(open_rounds)}; the "
                "round results were used."
            )
        else:
            for number, halves in zip(open_rounds, reading.halves, strict=True):
                restored.append(ImportedGame(number, player.key, None, _BYES[halves], player.line))
                replaced.add((number, player.key))
            warnings.append(f"{says}: {less}. {_restored(open_rounds, reading.halves)}")
    if not restored:
        return games
    kept = [
        game for game in games if not (game.black is None and (game.round, game.white) in replaced)
    ]
    return sorted([*kept, *restored], key=lambda game: (game.round, game.line, game.black is None))


def _open(cell: Cell | None) -> bool:
    """A round the line gives no game and no points: blank, ``0000 - -`` or ``0000 - Z``."""
    return cell is None or (cell.opponent is None and cell.code in ("", "-", "Z"))


def _restored(rounds: list[int], halves: tuple[int, ...]) -> str:
    if len(rounds) == 1:
        return (
            f"Round {rounds[0]}, the one round played without a game or points on this line, "
            f"was read as a {_BYE_NAMES[halves[0]]}."
        )
    return (
        f"Rounds {_and(rounds)}, the only rounds played without a game or points on this "
        f"line, were read as {_BYE_NAMES[halves[0]]}s."
    )


def _and(numbers: list[int]) -> str:
    shown = [str(number) for number in numbers]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def _points(value: float) -> str:
    whole, half = divmod(round(abs(value) * 2), 2)
    return (f"{whole}" if whole else "") + ("½" if half else "") or "0"
