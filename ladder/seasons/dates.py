"""A club's seasons as dates and labels. Pure Python: no Django.

A season starts on the 1st of the club's start month and ends the day before the next one
starts. Its label is the years it spans: "2025-26" for 1 September 2025 to 31 August 2026.
A season that starts in January lies in one calendar year and is labelled by it alone:
"2026" for 1 January to 31 December 2026. A label is read back only in the form the pages
write for that club's start month ("2025-26" is no season of a club whose seasons start in
January, nor "2025-2026" or "2025-27" of any club).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

JANUARY = 1
# Years a season may start in: every date the ladder stores, and a bound on the labels a
# visitor can ask for (each is a distinct page).
FIRST_YEAR, LAST_YEAR = 1900, 2199
_SPLIT_LABEL = re.compile(r"([0-9]{4})-([0-9]{2})")
_YEAR_LABEL = re.compile(r"[0-9]{4}")


@dataclass(frozen=True, order=True)
class Season:
    start_year: int
    start_month: int

    @property
    def first_day(self) -> dt.date:
        return dt.date(self.start_year, self.start_month, 1)

    @property
    def last_day(self) -> dt.date:
        return dt.date(self.start_year + 1, self.start_month, 1) - dt.timedelta(days=1)

    @property
    def label(self) -> str:
        if self.start_month == JANUARY:
            return str(self.start_year)
        return f"{self.start_year}-{(self.start_year + 1) % 100:02d}"

    def holds(self, day: dt.date) -> bool:
        return self.first_day <= day <= self.last_day

    def __str__(self) -> str:
        return self.label


def season_of(day: dt.date, start_month: int) -> Season:
    """The season `day` falls in, for a club whose seasons start in `start_month`."""
    if not 1 <= start_month <= 12:
        raise ValueError(f"a season starts in a month from 1 to 12, not {start_month}")
    year = day.year if day.month >= start_month else day.year - 1
    return Season(year, start_month)


def parse_season(label: str, start_month: int) -> Season | None:
    """The season a label names for this start month, or None when the pages would never
    write that label (another form, years that do not follow, out of range)."""
    if start_month == JANUARY:
        if not _YEAR_LABEL.fullmatch(label):
            return None
        year = int(label)
    else:
        split = _SPLIT_LABEL.fullmatch(label)
        if split is None:
            return None
        year = int(split[1])
        if int(split[2]) != (year + 1) % 100:
            return None
    if not FIRST_YEAR <= year <= LAST_YEAR or not 1 <= start_month <= 12:
        return None
    return Season(year, start_month)
