"""How an event's standings are ranked: the club's tie-breaks, whether the event is a round
robin, and which round's standings a visitor asked for. Pure Python but for the club's
stored order; the event page (members.pages.events.event_pages) and a club night's tools use
them."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from clubs.models import ROUND_ROBINS, Club
from clubs.results import Result
from ladder import tiebreaks

# (round, white entry, black entry or None, result code, variant)
GameRow = tuple[int, int, int | None, str, str]

# The rounds' own page (members.pages.events.event_rounds) shows every round up to this many games:
# a
# club night (a few dozen games) or a weekend open of 60 players stays one page; an open of
# 284 players (1,278 games) is a round a page, about 140 boards.
BOARDS_ON_ONE_PAGE = 500

# The standings, the rating changes and the wall chart show this many rows a page (?page=N):
# a 284-player open is one page, a 2,000-player one four of about 320 KB each instead of one
# of 1.3 MB.
ROWS_PER_PAGE = 500

# An event of up to this many rated entrants shows its rating changes, each worked out, on its
# page under the standings; a larger one on a page of their own (ratings/), linked from there:
# a weekend open of 60 stays one page, while an open of 284 players was 187 KB, 80 of them
# the worked sums, and built at less than a fifth of a bare page's rate (issue 27).
CHANGES_ON_EVENT_PAGE = 100

# ?after= (and ?round=, ?page=) as the pages accept it: a plain number, at most four digits (int()
# would also read "٣" or " 3", which no link of ours ever writes).
_ROUND_PARAM = re.compile(r"[1-9][0-9]{0,3}")


def read_after(value: str | None) -> int | None:
    """The round of ?after= (the final standings for None) or ?round= (every round)."""
    if value is None or not _ROUND_PARAM.fullmatch(value):
        return None
    return int(value)


def club_order(club: Club) -> Sequence[tiebreaks.Tiebreak]:
    """The tie-breaks the club's standings use, in its order (FIDE's default when it chose
    none; a stored order this version cannot read, too, rather than a broken page)."""
    try:
        return tiebreaks.parse_order(club.tiebreak_order or [])
    except ValueError:
        return tiebreaks.DEFAULT_ORDER


def is_round_robin(system: str, declared: bool) -> bool:
    """Whether the event's tie-breaks are a round robin's (C.07 art. 16 does not apply): a
    club night knows (its table is fixed before a game is played, so also half-way and with
    a withdrawal); results that arrived whole are one when their file said so
    (Event.round_robin), never because their games happen to form an all-play-all: a Swiss
    of 9 players and 9 rounds does, and its pairing-allocated byes would lose their dummy
    opponent (issue 33)."""
    return system in ROUND_ROBINS if system else declared


def round_robin(games: Iterable[GameRow]) -> bool:
    """Whether the games form an all-play-all: at least three players, every pair of them
    met, and each pair the same number of times (once in a single round robin, twice in a
    double one). Byes do not count; a forfeit is a meeting (its pairing was made). Only what
    the page shows (a crosstable rather than a wall chart) follows it, never a tie-break."""
    meetings = [(w, b) for _r, w, b, _c, _v in games if b is not None and b != w]
    players = {player for pair in meetings for player in pair}
    pairs = len(players) * (len(players) - 1) // 2
    if len(meetings) < pairs:
        return False  # some pair never met: an open of 284 players is told in one pass
    met: dict[frozenset[int], int] = defaultdict(int)
    for white, black in meetings:
        met[frozenset((white, black))] += 1
    return len(players) >= 3 and len(met) == pairs and len(set(met.values())) == 1


@dataclass(frozen=True)
class Tiebreaks:
    """How an event's ties are broken: the club's order, and whether the event is a round
    robin (its pairings fixed in advance, so a forfeit counts as a game: C.07 art. 16)."""

    order: Sequence[tiebreaks.Tiebreak]
    round_robin: bool = False
    rules: tiebreaks.Rules = tiebreaks.Rules.FIDE_2026  # tiebreaks.rules_on(the event's date)

    def compute(
        self, entrants: Sequence[int], games: Iterable[GameRow], *, leaders_only: bool = False
    ) -> list[tiebreaks.Values]:
        return tiebreaks.compute(
            entrants,
            (
                tiebreaks.Game(round_no, white, black, Result(code))
                for round_no, white, black, code, _variant in games
            ),
            self.order,
            round_robin=self.round_robin,
            rules=self.rules,
            leaders_only=leaders_only,
        )
