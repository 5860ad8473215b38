"""The wall chart of a Swiss event, as chess-results and every tournament program print it.

One row per entrant in the final order: rank, name, rating at the start, then a cell per
round naming the opponent by their rank, the colour and the result ("12w1", "5b½", "3w+"),
then the points and the club's tie-breaks. A director pins it up; a parent checks it: every
cell is one game of the games list, and a row's cells add up to its points.

Pure Python over the event page's rows; no Django, no database.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from clubs.results import Result
from ladder.page_texts import score_symbol

# (round, white entry, black entry or None for a bye, result code, variant):
# members.pages.events.event_pages
GameRow = tuple[int, int, int | None, str, str]

WHITE, BLACK = "w", "b"


class WallGame(NamedTuple):
    """One game (or bye) of one entrant in one round. A named tuple, not a frozen dataclass:
    a 2,000-player open has 18,000 of them, and a tuple is several times cheaper to make."""

    opponent_rank: int | None  # None: a bye, or an opponent not on the chart
    colour: str  # WHITE or BLACK; "" for a bye
    symbol: str  # "1", "½", "0", "+", "−", "*" (no result yet)
    points: float  # what the game scores in the standings
    bye: bool = False


@dataclass(frozen=True)
class WallRow:
    rank: int
    entry_id: int
    cells: tuple[tuple[WallGame, ...], ...]  # per round, in round order; () if not paired

    @property
    def points(self) -> float:
        return sum(game.points for cell in self.cells for game in cell)


def wall_chart(order: Sequence[int], games: Sequence[GameRow]) -> tuple[list[int], list[WallRow]]:
    """The rounds and the rows of the chart, for `order` (entry ids, final standings order).

    Ranks are the rows' positions: a cell must name one row, so entrants the tie-breaks
    could not separate still get a number each, in the standings' order.
    """
    rank = {entry: position for position, entry in enumerate(order, start=1)}
    rounds = sorted({g[0] for g in games})
    per_round: dict[tuple[int, int], list[WallGame]] = defaultdict(list)
    for round_no, white, black, code, _variant in games:
        result = Result(code)
        white_score, black_score = result.scores
        if black is None or result.is_bye:
            symbol = score_symbol(result, white_score, black_score)
            per_round[white, round_no].append(WallGame(None, "", symbol, white_score, bye=True))
            continue
        per_round[white, round_no].append(
            WallGame(
                rank.get(black),
                WHITE,
                score_symbol(result, white_score, black_score),
                white_score,
            )
        )
        per_round[black, round_no].append(
            WallGame(
                rank.get(white),
                BLACK,
                score_symbol(result, black_score, white_score),
                black_score,
            )
        )
    rows = [
        WallRow(rank[entry], entry, tuple(tuple(per_round[entry, r]) for r in rounds))
        for entry in order
    ]
    return rounds, rows


def cell_text(game: WallGame, bye: str) -> str:
    """ "12w1", "5b½", "3w+"; a bye as `bye` (the page's word) and its points."""
    if game.bye:
        return f"{bye} {game.symbol}"
    opponent = "" if game.opponent_rank is None else str(game.opponent_rank)
    return f"{opponent}{game.colour}{game.symbol}"
