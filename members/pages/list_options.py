"""Search and sort on the ladder and the roster, read from a page's query string.

Pure Python, no Django. Every value is checked against a fixed list: an unknown column,
direction or kind falls back to the default, so a hand-edited link never fails, and a
cacheable query (members.web.page_cache) only ever holds values from these lists.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

from matching.normalize import expanded, fold, plain

MAX_QUERY = 60  # longer text is cut: no name on a roster is longer

# Columns each page sorts by, and the direction a first click on a column gives: numbers and
# dates read best highest/newest first, names A to Z.
LADDER_COLUMNS = {
    "rank": "asc",
    "name": "asc",
    "rating": "desc",
    "games": "desc",
    "played": "desc",
    "change": "desc",
}
ROSTER_COLUMNS = {
    "name": "asc",
    "rating": "desc",
    "status": "asc",
    "games": "desc",
    "played": "desc",
}
DIRECTIONS = ("asc", "desc")
# ?on=YYYY-MM-DD, the ladder on a date: exactly this form (fromisoformat alone also takes
# 20260301 and 2026-W09-1), and a year a club can have played in.
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
FIRST_YEAR, LAST_YEAR = 1900, 2200

T = TypeVar("T")


@dataclass(frozen=True)
class ListOptions:
    q: str  # the search as typed (trimmed); "" for none
    sort: str
    dir: str
    default_sort: str

    @property
    def is_default_order(self) -> bool:
        return self.sort == self.default_sort and self.dir == "asc"

    def query(self, keep: Mapping[str, str] | None = None, **changes: str) -> str:
        """The query string for these options with `changes` (and the page's other
        parameters to `keep`), defaults left out."""
        values = {**(keep or {}), "q": self.q, "sort": self.sort, "dir": self.dir, **changes}
        if values["sort"] == self.default_sort and values["dir"] == "asc":
            values.pop("sort")
            values.pop("dir")
        return urlencode({k: v for k, v in values.items() if v})


def read_options(params: Mapping[str, str], columns: Mapping[str, str]) -> ListOptions:
    default = next(iter(columns))
    q = " ".join(params.get("q", "").split())[:MAX_QUERY]
    sort = params.get("sort", default)
    if sort not in columns:
        sort = default
    direction = params.get("dir", columns[sort])
    if direction not in DIRECTIONS:
        direction = columns[sort]
    return ListOptions(q, sort, direction, default)


def _folded(text: str) -> str:
    """Case and accents ignored: "Müller" is found by "muller"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


# Remembered: the roster's default order folds every shown name on every request, and that
# was a third of a 2,284-player roster page's time (issue 34). A few hundred bytes a name;
# the bound is far above any club's roster.
folded = functools.lru_cache(maxsize=100_000)(_folded)


def spellings(text: str) -> set[str]:
    """The ways a reader may type `text`: without accents ("bruhl"), and with German
    umlauts spelt out ("bruehl"); an "ue" typed for a ü folds to the second form. The
    folding is the name matcher's (matching.normalize), so letters that decompose into
    no base letter ("Sørensen", "Łukasz") are found as typed on an English keyboard too."""
    written = fold(unicodedata.normalize("NFC", text))
    return {plain(written), expanded(written)}


def matches(shown_name: str, q: str) -> bool:
    """Every word of the search in the name as the page shows it, and nothing else: a
    junior shown as initials is not found by the full name. "Bruhl" and "Bruehl" find
    "Brühl", and "Brühl" finds either."""
    names = spellings(shown_name)
    return all(
        any(word in name for word in spellings(typed) for name in names) for typed in q.split()
    )


def sorted_rows(
    rows: Sequence[T], options: ListOptions, keys: Mapping[str, Callable[[T], Any]]
) -> list[T]:
    """Rows in the chosen order; a row without a value (no rating, never played) comes last
    in both directions. The sort is stable: ties keep the page's own order."""
    key = keys[options.sort]
    present = [r for r in rows if key(r) is not None]
    missing = [r for r in rows if key(r) is None]
    present.sort(key=key, reverse=options.dir == "desc")
    return present + missing


def games_to_go(rated_games: int, provisional_below: int | None) -> int | None:
    """Rated games a provisional player still needs to be established; None if the policy
    has no provisional period."""
    if provisional_below is None:
        return None
    return max(provisional_below - rated_games, 0)


def parse_day(text: str) -> dt.date:
    """A date written YYYY-MM-DD, in FIRST_YEAR..LAST_YEAR; ValueError for anything else."""
    try:
        if not _DAY.fullmatch(text):
            raise ValueError
        day = dt.date.fromisoformat(text)  # ValueError for 2026-02-30
    except ValueError:
        raise ValueError(f"{text!r} is not a date in the form YYYY-MM-DD") from None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        raise ValueError(f"{text!r} is not a year between {FIRST_YEAR} and {LAST_YEAR}")
    return day
