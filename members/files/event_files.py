"""One event as the files directors' other tools read: FIDE TRF16 and the CSV we import.

Pure Python: no Django. members.files.event_export builds an `EventFile` from the database (names as
the viewer may see them, ratings as the ladder stood at the event's start) and calls these.

TRF16 (FIDE handbook C04 Annex 2; columns 1-based, inclusive): a 001 line per player with the
starting rank in 5-8, the name in 15-47, the rating in 49-52, the points in 81-84, the place in
86-89, and from column 92 one cell of ten columns per round: opponent (4), colour (w/b/-),
result code. A pairing is written in both players' lines:

================================  =====================================================
result                            white's code / black's code
================================  =====================================================
played 1-0, ½-½, 0-1              ``1``/``0``, ``=``/``=``, ``0``/``1``
forfeit for white / for black     ``+``/``-``, ``-``/``+``
double forfeit                    ``-``/``-``
unrated (less than one move)      ``W``/``L``, ``D``/``D``, ``L``/``W``
no result yet                     blank/blank (colours kept)
a chess variant                   ``W``/``L``, ``D``/``D``, ``L``/``W``: TRF has no variants,
                                  and these codes keep any program from rating it
bye                               ``0000 - F`` full, ``H`` half, ``Z`` zero, ``U`` allocated
not in the round                  ``0000 - -``
================================  =====================================================

The CSV has the columns directors.importers.csvfile reads (round, white, black, result), one row per
game or bye, written through members.files.spreadsheet so no spreadsheet runs a cell as a formula;
the importer takes the defusing `'` off again.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from clubs.results import RESULT_SCORES, Result
from members.files.spreadsheet import csv_table

TRF_NAME_WIDTH = 33  # columns 15-47
FIRST_CELL_COLUMN = 92
CELL_WIDTH = 10
CSV_FIELDS = ("round", "white", "black", "result", "variant")
ABSENT = "0000 - -"  # not paired in the round: no opponent, no colour, nothing scored


@dataclass(frozen=True)
class FilePlayer:
    rank: int  # starting rank, 1-9999, unique in the event
    name: str
    rating: int | None  # the ladder rating at the event's start; None if not on the ladder
    place: int | None = None  # the final rank the event page shows
    # The federation the file gave (TRF columns 54-56), for the directors' files only, so
    # that a re-import keeps it.
    federation: str = ""


@dataclass(frozen=True)
class FileGame:
    round: int
    white: int  # starting rank
    black: int | None  # None for a bye
    result: Result
    variant: str = ""  # not standard chess: never rated


@dataclass(frozen=True)
class EventFile:
    name: str
    date: dt.date
    players: tuple[FilePlayer, ...]
    games: tuple[FileGame, ...]
    # Whether its tie-breaks are a round robin's (record 092); None: not written. A re-import
    # reads it back (directors.importers.base.tournament_type), so the event ranks the same.
    round_robin: bool | None = None


# (white's code, black's code) in TRF round cells.
_GAME_CODES: dict[Result, tuple[str, str]] = {
    Result.WHITE_WIN: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WIN: ("0", "1"),
    Result.WHITE_FORFEIT_WIN: ("+", "-"),
    Result.BLACK_FORFEIT_WIN: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
    Result.NO_RESULT: (" ", " "),
    Result.UNRATED_WHITE_WIN: ("W", "L"),
    Result.UNRATED_DRAW: ("D", "D"),
    Result.UNRATED_BLACK_WIN: ("L", "W"),
}
# A variant game has no TRF code of its own; the unrated codes keep its score and no rating.
_UNRATED_CODES = {
    Result.WHITE_WIN: _GAME_CODES[Result.UNRATED_WHITE_WIN],
    Result.DRAW: _GAME_CODES[Result.UNRATED_DRAW],
    Result.BLACK_WIN: _GAME_CODES[Result.UNRATED_BLACK_WIN],
}
_BYE_CODES = {
    Result.BYE_FULL: "F",
    Result.BYE_HALF: "H",
    Result.BYE_ZERO: "Z",
    Result.BYE_PAIRING: "U",
    # TRF16 has one code for the pairing's bye; the points column carries what it scored.
    Result.BYE_PAIRING_HALF: "U",
    Result.BYE_PAIRING_ZERO: "U",
}
# Spellings the CSV importer reads back as the same result.
CSV_RESULTS: dict[Result, str] = {
    Result.WHITE_WIN: "1-0",
    Result.DRAW: "1/2-1/2",
    Result.BLACK_WIN: "0-1",
    Result.WHITE_FORFEIT_WIN: "+/-",
    Result.BLACK_FORFEIT_WIN: "-/+",
    Result.DOUBLE_FORFEIT: "-/-",
    Result.NO_RESULT: "*",
    Result.UNRATED_WHITE_WIN: "1-0u",
    Result.UNRATED_DRAW: "1/2-1/2u",
    Result.UNRATED_BLACK_WIN: "0-1u",
    Result.BYE_FULL: "bye1",
    Result.BYE_HALF: "bye½",
    Result.BYE_ZERO: "bye0",
    Result.BYE_PAIRING: "byeU",
    Result.BYE_PAIRING_HALF: "byeU½",
    Result.BYE_PAIRING_ZERO: "byeU0",
}


def trf_text(event: EventFile) -> str:
    """The event as a TRF16 file: header records, then one 001 line per player by rank."""
    cells = _round_cells(event)
    points = _points(event)
    places = _places(event.players, points)
    rated = sum(1 for player in event.players if _shown_rating(player.rating))
    day = event.date.strftime("%Y/%m/%d")
    lines = [
        f"012 {_one_line(event.name)}",
        f"042 {day}",
        f"052 {day}",
        f"062 {len(event.players)}",
        f"072 {rated}",
    ]
    if event.round_robin is not None:
        lines.append(f"092 Individual: {'Round-Robin' if event.round_robin else 'Swiss-System'}")
    rounds = max((game.round for game in event.games), default=0)
    for player in sorted(event.players, key=lambda p: p.rank):
        lines.append(
            player_line(
                player,
                points.get(player.rank, 0.0),
                places[player.rank],
                [cells.get((player.rank, r), ABSENT) for r in range(1, rounds + 1)],
            )
        )
    return "".join(f"{line}\r\n" for line in lines)


def player_line(player: FilePlayer, points: float, place: int, cells: Sequence[str]) -> str:
    """One 001 line, each field in its TRF16 columns (see the module's docstring)."""
    name = _one_line(player.name)[:TRF_NAME_WIDTH]
    rating = _shown_rating(player.rating)
    head = (
        f"001 {player.rank:>4}"  # 1-8
        f"{'':6}"  # 9-14: sex, title
        f"{name:<{TRF_NAME_WIDTH}} "  # 15-48
        f"{rating:>4} "  # 49-53
        f"{player.federation[:3]:<3} "  # 54-57: federation
        f"{'':11} "  # 58-69: FIDE ID
        f"{'':10} "  # 70-80: birth date (never stored)
        f"{_shown_points(points):>4} "  # 81-85
        f"{place:>4}"  # 86-89
    )
    assert len(head) == FIRST_CELL_COLUMN - 3
    body = "".join(f"  {cell:<{CELL_WIDTH - 2}}" for cell in cells)
    return (head + body).rstrip()


def _round_cells(event: EventFile) -> dict[tuple[int, int], str]:
    """(rank, round) -> the eight characters of that player's cell."""
    cells: dict[tuple[int, int], str] = {}
    for game in event.games:
        if game.black is None:
            cells[game.white, game.round] = f"0000 - {_BYE_CODES[game.result]}"
            continue
        codes = _GAME_CODES[game.result]
        if game.variant and game.result in _UNRATED_CODES:
            codes = _UNRATED_CODES[game.result]
        white_code, black_code = codes
        cells[game.white, game.round] = f"{game.black:>4} w {white_code}"
        cells[game.black, game.round] = f"{game.white:>4} b {black_code}"
    return cells


def _points(event: EventFile) -> dict[int, float]:
    points: dict[int, float] = {}
    for game in event.games:
        white, black = RESULT_SCORES[game.result]
        points[game.white] = points.get(game.white, 0.0) + white
        if game.black is not None:
            points[game.black] = points.get(game.black, 0.0) + black
    return points


def _places(players: Sequence[FilePlayer], points: dict[int, float]) -> dict[int, int]:
    """The final ranks the players were given (members.files.event_export gives the event
    page's); a file built without them ranks by points, ties by starting rank (a TRF file has
    a place for everyone)."""
    given = {player.rank: player.place for player in players}
    if all(place and place <= 9999 for place in given.values()):
        return {rank: place for rank, place in given.items() if place}
    ordered = sorted(players, key=lambda p: (-points.get(p.rank, 0.0), p.rank))
    return {player.rank: place for place, player in enumerate(ordered, start=1)}


def _shown_points(points: float) -> str:
    text = f"{points:.1f}"
    return text if len(text) <= 4 else f"{points:.0f}"  # 100 points and more: no decimal


def _shown_rating(rating: int | None) -> str:
    return str(rating) if rating is not None and 0 < rating <= 9999 else ""


def _one_line(text: str) -> str:
    # A line break in a name would start a new record.
    return " ".join(text.split())


def csv_text(event: EventFile) -> str:
    """One row per game or bye, in round order, as the CSV importer reads them, with the
    variant of a game that was not standard chess (so that it is never rated once read
    back); then a row with only the name for each entrant without a game."""
    names = {player.rank: player.name for player in event.players}
    rows: list[list[object]] = [
        [
            game.round,
            names[game.white],
            names[game.black] if game.black is not None else "",
            CSV_RESULTS[game.result],
            game.variant if game.black is not None else "",
        ]
        for game in sorted(event.games, key=lambda g: g.round)
    ]
    in_a_game = {side for game in event.games for side in (game.white, game.black)}
    rows += [["", p.name, "", "", ""] for p in event.players if p.rank not in in_a_game]
    return csv_table(CSV_FIELDS, rows)
