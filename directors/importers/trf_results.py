"""TRF round cells to games: the two halves of each pairing joined into one result.

A pairing is written twice, once in each player's line; it is stored once and both halves must
agree. Round cells map to results as follows (letter codes are case-insensitive):

==========================  ====================================================
both halves                 result (by colour)
==========================  ====================================================
``1``/``0``, ``=``/``=``    WHITE_WIN, DRAW, BLACK_WIN
``+``/``-``                 WHITE_FORFEIT_WIN or BLACK_FORFEIT_WIN
``-``/``-``                 DOUBLE_FORFEIT
``W``/``L``, ``D``/``D``    UNRATED_WHITE_WIN, UNRATED_DRAW, UNRATED_BLACK_WIN
blank/blank                 NO_RESULT (paired, result not entered yet)
==========================  ====================================================

Without an opponent (``0000`` or blank): ``H`` half-point bye, ``F`` or ``+`` full-point bye,
``U`` pairing-allocated bye, ``Z`` zero-point bye; ``1``/``W``, ``=``/``D`` and ``0``/``L``
are read as full, half and zero-point byes (Vega writes ``0000 - =`` for a half-point bye);
blank or ``-`` means absent and stores nothing.
"""

from __future__ import annotations

from clubs.results import Result

from .base import ImportedGame, ImportFileError
from .trf_players import Cell, PlayerLine

# Result codes of the two halves of one pairing, seen from the first half: (white wins,
# draw, black wins) is decided later from the colours.
_OUTCOMES: dict[tuple[str, str], str] = {
    ("1", "0"): "first",
    ("0", "1"): "second",
    ("=", "="): "draw",
    ("+", "-"): "first_forfeit",
    ("-", "+"): "second_forfeit",
    ("-", "-"): "double_forfeit",
    ("W", "L"): "first_unrated",
    ("L", "W"): "second_unrated",
    ("D", "D"): "draw_unrated",
    ("", ""): "no_result",
}

_BYES_WITHOUT_OPPONENT: dict[str, Result] = {
    "H": Result.BYE_HALF,
    "F": Result.BYE_FULL,
    "U": Result.BYE_PAIRING,
    "Z": Result.BYE_ZERO,
    "+": Result.BYE_FULL,
    "1": Result.BYE_FULL,
    "W": Result.BYE_FULL,
    "=": Result.BYE_HALF,
    "D": Result.BYE_HALF,
    "0": Result.BYE_ZERO,
    "L": Result.BYE_ZERO,
}

# What each cell is worth under the default scoring, to check the points column against.
CELL_POINTS: dict[str, float] = {
    **dict.fromkeys("1+WFU", 1.0),
    **dict.fromkeys("=DH", 0.5),
}


# What a pairing-allocated bye (U) scored, read from the points column: TRF16 has one code
# for it whatever a tournament's rules make it worth (a club night may score it ½ or 0).
_PAIRING_BYES: dict[float, Result] = {
    1.0: Result.BYE_PAIRING,
    0.5: Result.BYE_PAIRING_HALF,
    0.0: Result.BYE_PAIRING_ZERO,
}


def pairing_bye_worth(players: dict[int, PlayerLine]) -> float:
    """The points of a U in this file: the one value that makes the points column of every
    player with a U add up, or the usual 1 when the columns do not all agree on one."""
    candidates: set[float] = set()
    for player in players.values():
        worth = _column_worth(player)
        if worth is None:
            continue
        if worth not in _PAIRING_BYES:
            return 1.0
        candidates.add(worth)
    return candidates.pop() if len(candidates) == 1 else 1.0


def _column_worth(player: PlayerLine) -> float | None:
    """What each U of the line is worth by its points column (None without a U or a column):
    the column less every other cell's points, shared among the U cells."""
    byes = sum(cell.code == "U" for cell in player.cells.values())
    if not byes or player.points is None:
        return None
    others = sum(
        CELL_POINTS.get(cell.code, 0.0) for cell in player.cells.values() if cell.code != "U"
    )
    return round((player.points - others) / byes, 2)


def pairing_byes_worth(players: dict[int, PlayerLine]) -> dict[int, float]:
    """Each player's U, in points: the file's one value (`pairing_bye_worth`), except for a
    player whose points column that value over-counts and whose own column gives every U of
    the line one usual value (1, ½ or 0). An event may score its pairing byes differently
    (a director's correction of one bye, a rule changed mid-season), and our own export
    writes each as U: the column is then the one record of its worth. A column that counts
    *less* than the file's value cannot be explained by a bye the cells leave out (that only
    adds points), so reading the player's own value there is the only reading."""
    usual = pairing_bye_worth(players)
    worths: dict[int, float] = {}
    for player in players.values():
        own = _column_worth(player)
        worths[player.key] = (
            own if own is not None and own < usual and own in _PAIRING_BYES else usual
        )
    return worths


def pair_rounds(players: dict[int, PlayerLine], warnings: list[str]) -> list[ImportedGame]:
    worths = pairing_byes_worth(players)
    games: list[ImportedGame] = []
    byes: list[ImportedGame] = []
    paired_rounds: set[int] = set()
    done: set[tuple[int, int, int]] = set()
    ordered = sorted(players.values(), key=lambda player: player.line)
    for player in ordered:
        for cell in player.cells.values():
            if cell.opponent is None:
                result = _BYES_WITHOUT_OPPONENT.get(cell.code)
                if cell.code == "U":
                    result = _PAIRING_BYES[worths[player.key]]
                if result is not None:
                    byes.append(ImportedGame(cell.round, player.key, None, result, player.line))
                continue
            paired_rounds.add(cell.round)
            low, high = sorted((player.key, cell.opponent))
            pair = (cell.round, low, high)
            if pair in done:
                continue
            done.add(pair)
            games.append(_join_halves(player, cell, players, warnings))

    unplayed_rounds: dict[int, list[int]] = {}
    for bye in byes:
        if bye.round in paired_rounds:
            games.append(bye)
        else:
            unplayed_rounds.setdefault(bye.round, []).append(bye.line)
    for round_number, numbers in sorted(unplayed_rounds.items()):
        warnings.append(
            f"Line {numbers[0]}: round {round_number} has no game between two players, only "
            f"byes or absences ({len(numbers)} of them); it looks announced but not played, "
            "so nothing was stored for it."
        )
    games.sort(key=lambda game: (game.round, game.line, game.black is None))
    return games


def _join_halves(
    first: PlayerLine, cell: Cell, players: dict[int, PlayerLine], warnings: list[str]
) -> ImportedGame:
    round_number = cell.round
    assert cell.opponent is not None
    if cell.opponent == first.key:
        raise ImportFileError.at(
            first.line, f"in round {round_number} player {first.key} is paired with themselves."
        )
    second = players.get(cell.opponent)
    if second is None:
        raise ImportFileError.at(
            first.line,
            f"round {round_number} names opponent {cell.opponent}, but no player line (001) "
            f"has starting rank {cell.opponent}.",
        )
    other = second.cells.get(round_number)
    if other is None or other.opponent != first.key:
        found = (
            "no opponent"
            if other is None or other.opponent is None
            else f"player {other.opponent} as the opponent"
        )
        raise ImportFileError.at(
            first.line,
            f"round {round_number} says player {first.key} played player {second.key}, but "
            f"line {second.line} (player {second.key}) gives {found} in round {round_number}.",
        )

    outcome = _OUTCOMES.get((cell.code, other.code))
    if outcome is None:
        raise ImportFileError.at(
            first.line,
            f"round {round_number} gives player {first.key} the result "
            f"'{_show_code(cell.code)}' against player {second.key}, but line {second.line} "
            f"gives player {second.key} '{_show_code(other.code)}'; the two halves must match "
            "(1 with 0, = with =, + with -, - with -, W with L, D with D).",
        )
    if cell.colour is not None and cell.colour == other.colour:
        side = "White" if cell.colour == "w" else "Black"
        raise ImportFileError.at(
            first.line,
            f"round {round_number} gives player {first.key} {side} against player {second.key}, "
            f"but line {second.line} gives player {second.key} {side} too.",
        )
    first_is_white = cell.colour == "w" or other.colour == "b"
    if cell.colour is None and other.colour is None:
        first_is_white = True
        if outcome not in ("first_forfeit", "second_forfeit", "double_forfeit"):
            warnings.append(
                f"Line {first.line}: neither this line nor line {second.line} gives the colours "
                f"of player {first.key} and player {second.key} in round {round_number}; "
                f"player {first.key} (the earlier line) was taken as White."
            )
    result = _result_for(outcome, first_is_white)
    white, black = (first, second) if first_is_white else (second, first)
    return ImportedGame(round_number, white.key, black.key, result, first.line)


def _result_for(outcome: str, first_is_white: bool) -> Result:
    if outcome == "draw":
        return Result.DRAW
    if outcome == "draw_unrated":
        return Result.UNRATED_DRAW
    if outcome == "double_forfeit":
        return Result.DOUBLE_FORFEIT
    if outcome == "no_result":
        return Result.NO_RESULT
    white_won = outcome.startswith("first") == first_is_white
    if outcome.endswith("forfeit"):
        return Result.WHITE_FORFEIT_WIN if white_won else Result.BLACK_FORFEIT_WIN
    if outcome.endswith("unrated"):
        return Result.UNRATED_WHITE_WIN if white_won else Result.UNRATED_BLACK_WIN
    return Result.WHITE_WIN if white_won else Result.BLACK_WIN


def _show_code(code: str) -> str:
    return code or "blank"
