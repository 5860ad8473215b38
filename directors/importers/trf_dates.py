"""TRF event dates: the ``042`` start, ``052`` end and ``132`` round dates, read together.

A start date such as ``10.09.13`` or ``03/09/2024`` has more than one reading; the end and
round dates decide between them (``read_event_dates``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from .base import DateSource

_MONTH_NAMES = (  # English, German, French, Spanish, Italian, Dutch, Portuguese
    "january jan januar jänner janvier enero gennaio januari janeiro",
    "february feb februar fevrier février febrero febbraio februari fevereiro",
    "march mar märz maerz marz mars marzo maart março",
    "april apr avril abril aprile",
    "may mai mayo maggio mei maio",
    "june jun juni juin junio giugno junho",
    "july jul juli juillet julio luglio julho",
    "august aug aout août agosto augustus",
    "september sep sept septembre septiembre settembre setembro",
    "october oct oktober okt octobre octubre ottobre outubro",
    "november nov novembre noviembre novembro",
    "december dec dezember dez décembre decembre diciembre dicembre dezembro",
)
_MONTHS = {name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names.split()}

_NUMERIC_DATE = re.compile(r"^(\d{1,4})\s*([./-])\s*(\d{1,2})\s*[./-]\s*(\d{1,4})$")
_ISO_PREFIX = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]|$)")


# A start and end date further apart than this are no one event (a league season runs
# September to May); a reading that needs a longer span is not plausible.
MAX_EVENT_SPAN = timedelta(days=400)


@dataclass(frozen=True)
class DateReading:
    day: date
    pattern: str  # how the digits were read, e.g. "DD.MM.YY"; "" for a worded date


def date_readings(value: str) -> list[DateReading]:
    """Every valid reading of a date as written in a 042 or 052 line, the usual one first.

    Real files write ``DD.MM.YY``, ``YY.MM.DD``, ``DD.MM.YYYY``, ``YYYY/MM/DD``,
    ``YYYY.MM.DD`` and American ``MM/DD/YYYY``, so ``10.09.13`` and ``03/09/2024`` have two
    readings; the other dates of the file decide between them (``read_event_dates``).
    """
    value = value.strip()
    match = _NUMERIC_DATE.match(value)
    if match:
        first, separator, middle, last = match.groups()
        a, b, c = int(first), int(middle), int(last)
        if len(first) == 4:
            options = [(a, b, c, "YYYY.MM.DD")]
        elif len(first) == 3 or len(last) == 3:
            options = []
        elif len(last) == 4:
            options = [(c, b, a, "DD.MM.YYYY"), (c, a, b, "MM.DD.YYYY")]
        else:
            day_first = (_full_year(c), b, a, "DD.MM.YY")
            year_first = (_full_year(a), b, c, "YY.MM.DD")  # as TRF writes round dates
            # Dots are the European day-first habit; slashes and dashes the TRF year-first one.
            options = [day_first, year_first] if separator == "." else [year_first, day_first]
        readings: list[DateReading] = []
        for year, month, day, pattern in options:
            parsed = _make_date(year, month, day)
            if parsed is not None and all(parsed != r.day for r in readings):
                readings.append(DateReading(parsed, pattern.replace(".", separator)))
        return readings
    match = _ISO_PREFIX.match(value)
    if match:
        year, month, day = (int(part) for part in match.groups())
        parsed = _make_date(year, month, day)
        return [DateReading(parsed, "YYYY-MM-DD")] if parsed is not None else []
    worded = _parse_worded_date(value)
    return [DateReading(worded, "")] if worded is not None else []


def read_event_dates(
    start: tuple[str, int] | None,
    end: tuple[str, int] | None,
    round_dates: list[date],
    round_line: int | None,
) -> tuple[date | None, DateSource | None, list[str]]:
    """The event's start date, where it came from, and warnings about it.

    ``start`` and ``end`` are the 042 and 052 texts with their line numbers; ``round_dates``
    the 132 dates (read year first, as TRF defines them). A reading of the start date fits
    when start <= end, every round date lies between them, and the span is plausible. The
    one reading that fits is taken; when two still fit, the usual one is taken and both are
    named; when none fits, the usual one is taken and the disagreement is named. Without a
    readable 042 the first round date is the start.
    """
    first_round = min(round_dates, default=None)
    from_rounds = (
        DateSource("132", round_line or 0, first_round.strftime("%y/%m/%d"), "YY/MM/DD")
        if first_round is not None
        else None
    )
    if start is None:
        return first_round, from_rounds, []
    value, number = start
    starts = date_readings(value)
    if not starts:
        return (
            first_round,
            from_rounds,
            [f"Line {number}: the start date '{value}' was not understood."],
        )
    ends = date_readings(end[0]) if end is not None else []
    same_shape = end is not None and _shape(end[0]) == _shape(value)

    def end_fits(s: DateReading, e: DateReading) -> bool:
        return (
            not same_shape or e.pattern == s.pattern
        ) and s.day <= e.day <= s.day + MAX_EVENT_SPAN

    def rounds_fit(s: DateReading, last: date) -> bool:
        return all(s.day <= day <= last for day in round_dates)

    def fits(s: DateReading) -> bool:
        if ends:
            return any(end_fits(s, e) and rounds_fit(s, e.day) for e in ends)
        return rounds_fit(s, s.day + MAX_EVENT_SPAN)

    evidence = tuple(
        record for record, present in (("052", bool(ends)), ("132", bool(round_dates))) if present
    )
    fitting = [s for s in starts if fits(s)]
    warnings: list[str] = []
    if len(fitting) == 1:
        chosen = fitting[0]
        decided_by = evidence if len(starts) > 1 else ()
        return chosen.day, DateSource("042", number, value, chosen.pattern, decided_by), warnings
    if len(fitting) > 1:
        chosen, others = fitting[0], fitting[1:]
        readings = " or ".join(f"{r.day:%d %B %Y}" for r in fitting)
        warnings.append(
            f"Line {number}: the start date '{value}' could be {readings}; it was read "
            f"{_read_first(chosen.pattern)}, as {chosen.day:%d %B %Y}."
        )
        alternatives = tuple((r.day, r.pattern) for r in others)
        return (
            chosen.day,
            DateSource("042", number, value, chosen.pattern, (), alternatives),
            warnings,
        )
    chosen = starts[0]
    against = []
    if ends and not any(end_fits(chosen, e) for e in ends):
        assert end is not None
        against.append(("052", f"the end date '{end[0]}' on line {end[1]}"))
    if round_dates and (not against or not ends):
        last = max(round_dates)
        against.append(
            (
                "132",
                f"the round dates on line {round_line} ({first_round:%d %B %Y} to {last:%d %B %Y})",
            )
        )
    if not against:  # the rounds fit the start but not any reading of the end: both disagree
        against.append(("132", f"the round dates on line {round_line}"))
    warnings.append(
        f"Line {number}: the start date '{value}', read as {chosen.day:%d %B %Y}, does not agree "
        f"with {' or '.join(text for _record, text in against)}; check the event's date."
    )
    contradicted = tuple(record for record, _text in against)
    return (
        chosen.day,
        DateSource("042", number, value, chosen.pattern, contradicted_by=contradicted),
        warnings,
    )


def _shape(value: str) -> str:
    """How a date is written, digits aside: 10.09.13 and 11.03.13 share one shape."""
    no_space = re.sub(r"\s", "", value)
    return re.sub(r"\d{1,2}", "9", re.sub(r"\d{3,}", "Y", no_space))


def _read_first(pattern: str) -> str:
    return {"D": "day first", "M": "month first"}.get(pattern[:1], "year first")


def read_round_dates(text: str) -> list[date]:
    found = []
    for token in text[3:].split():
        match = re.fullmatch(r"(\d{2,4})[/.-](\d{1,2})[/.-](\d{1,2})", token)
        if match:  # TRF round dates are YY/MM/DD
            year, month, day = (int(part) for part in match.groups())
            parsed = _make_date(_full_year(year), month, day)
            if parsed is not None:
                found.append(parsed)
    return found


def _parse_worded_date(value: str) -> date | None:
    """Dates such as 'Jun 26, 2020', '26. Juni 2020' or '29 de mayo de 2020'."""
    month = year = day = None
    for token in re.findall(r"[^\W\d_]+|\d+", value.casefold()):
        # isdecimal, not isdigit: "²" is a digit to str.isdigit, but no number to int().
        if token.isdecimal():
            if len(token) == 4 and year is None:
                year = int(token)
            elif len(token) <= 2 and day is None:
                day = int(token)
        elif month is None:
            month = _MONTHS.get(token) or _MONTHS.get(token[:3])
    if month is None or year is None or day is None:
        return None
    return _make_date(year, month, day)


def _full_year(year: int) -> int:
    if year >= 100:
        return year
    return 2000 + year if year < 70 else 1900 + year


def _make_date(year: int, month: int, day: int) -> date | None:
    if not 1900 <= year <= 2100:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None
