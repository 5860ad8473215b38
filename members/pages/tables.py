"""The rows of the club pages' long tables, built in Python.

Django's template engine spends about 10 µs on every variable it prints; a
500-player ladder or a player with 300 events would spend most of a request
there. These functions build the same markup with plain string formatting:
every text is escaped here, labels come from gettext in the active language,
and numbers and dates use the active language's formats. Templates keep the
page structure and call them through the tags in ladder_pages.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Hashable, Iterable
from decimal import Decimal
from html import escape
from typing import TypeVar

from django.utils import dateformat
from django.utils.dates import MONTHS, MONTHS_3, MONTHS_AP
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ladder.page_texts import half_up
from ladder.roster.rosters import LadderRow, RosterPlayer
from members.pages.list_options import ListOptions, games_to_go

_K = TypeVar("_K", bound=Hashable)

MINUS = "\u2212"
DASH = "—"
RULES_PAGE = "how-ratings-work/"  # the club's "How ratings are calculated", under its base


# Django date format characters that are plain numbers, as str.format fields.
_NUMERIC_DATE = {
    "d": "{0.day:02d}",
    "j": "{0.day}",
    "m": "{0.month:02d}",
    "n": "{0.month}",
    "Y": "{0.year}",
}


# And those that name the month, as django.utils.dateformat writes them: {1} in the template.
_MONTH_NAMES: dict[str, Callable[[int], str]] = {
    "b": lambda month: str(MONTHS_3[month]),
    "F": lambda month: str(MONTHS[month]),
    "M": lambda month: MONTHS_3[month].title(),
    "N": lambda month: str(MONTHS_AP[month]),
}


def _date_template(django_format: str) -> tuple[str | None, str | None]:
    """ "d.m.Y" -> ("{0.day:02d}.{0.month:02d}.{0.year}", None), "j M Y" -> ("{0.day} {1}
    {0.year}", "M"): the template and the month name's format
    character (None when the month is written in numbers); (None, None) for any other
    format, left to dateformat."""
    parts, month = [], None
    for char in django_format:
        if char in _NUMERIC_DATE:
            parts.append(_NUMERIC_DATE[char])
        elif char in _MONTH_NAMES and month in (None, char):
            parts.append("{1}")
            month = char
        elif char.isalpha() or char == "\\":
            return None, None
        else:
            parts.append(char.replace("{", "{{").replace("}", "}}"))
    return "".join(parts), month


class Formats:
    """Numbers and dates in the active language, cheap enough to call per cell."""

    def __init__(self) -> None:
        self.decimal = get_format("DECIMAL_SEPARATOR")
        self.short_date = get_format("SHORT_DATE_FORMAT")
        self._date_template, month = _date_template(self.short_date)
        # A month's name as dateformat writes it, looked up once per month (dateformat
        # itself took ~50 µs a date, and a player page writes some sixty).
        self._month_name = _MONTH_NAMES[month] if month is not None else None
        self._months: dict[int, str] = {}
        # Dates in any other format go through dateformat; a long table repeats few
        # distinct dates, so each is formatted once.
        self._dates: dict[dt.date, str] = {}

    def date(self, value: dt.date | None) -> str:
        if value is None:
            return DASH
        if self._date_template is not None:
            if self._month_name is None:
                return self._date_template.format(value)
            name = self._months.get(value.month)
            if name is None:
                name = self._months[value.month] = self._month_name(value.month)
            return self._date_template.format(value, name)
        shown = self._dates.get(value)
        if shown is None:
            shown = self._dates[value] = dateformat.format(value, self.short_date)
        return shown

    def fixed(self, value: float, digits: int) -> str:
        return f"{value:.{digits}f}".replace(".", self.decimal)

    def short(self, value: float) -> str:
        """2.0 -> "2", 2.5 -> "2.5" (with the language's decimal mark)."""
        rounded = round(value, 1)
        return str(int(rounded)) if rounded == int(rounded) else self.fixed(rounded, 1)

    def whole(self, value: float | None) -> str:
        return DASH if value is None else str(half_up(value))

    def signed(self, value: float | None, digits: int = 1) -> str:
        if value is None:
            return DASH
        rounded = round(value, digits)
        text = self.fixed(abs(rounded), digits)
        if rounded > 0:
            return f"+{text}"
        if rounded < 0:
            return f"{MINUS}{text}"
        return text

    def exact(self, value: Decimal) -> str:
        """A number of a written sum exactly as ladder.explain chose it: 4.2425, 1400.0."""
        # str() is format(value, "f") but where it would write an exponent (0E-8, 1E+1), and
        # a third of its time: an open's event page writes some 2,500 of these.
        text = str(value)
        if "E" in text:
            text = format(value, "f")
        return text if self.decimal == "." else text.replace(".", self.decimal)

    def exact_signed(self, value: Decimal) -> str:
        """+10.3, −2, 0.0: a change of a written sum, digits as chosen."""
        text = self.exact(abs(value))
        if value > 0:
            return f"+{text}"
        if value < 0:
            return f"{MINUS}{text}"
        return text


def player_link(base: str, player_id: int | None, name: str, link: bool) -> str:
    if link and player_id:
        return f'<a href="{base}players/{player_id}/">{escape(name)}</a>'
    return escape(name)


def _to_go(count: int | None) -> str:
    if not count:
        return ""
    text = ngettext(
        "%(count)s more rated game to be established",
        "%(count)s more rated games to be established",
        count,
    ) % {"count": count}
    return f' <span class="to-go">{escape(text)}</span>'


def _marked_change(f: Formats, value: float | None, up: str, down: str) -> str:
    """The last event's change with an arrow and, for screen readers, the word: the
    direction is never told by colour alone."""
    shown = f.signed(value)
    if value is None or round(value, 1) == 0:
        return shown
    arrow, word, css = ("▲", up, "up") if value > 0 else ("▼", down, "down")
    return (
        f'<span class="mark {css}"><span aria-hidden="true">{arrow}</span>'
        f'<span class="visually-hidden">{word}</span> {shown}</span>'
    )


def sort_heads(
    columns: Iterable[tuple[str, str, bool]],
    options: ListOptions,
    first_dir: dict[str, str],
    keep: dict[str, str] | None = None,
) -> SafeString:
    """Column heads as plain links that sort the table (no script needed); the sorted
    column says so with aria-sort and an arrow."""
    out = []
    for key, label, numeric in columns:
        css = ' class="num"' if numeric else ""
        if key not in first_dir:
            out.append(f'<th scope="col"{css}>{escape(label)}</th>')
            continue
        current = options.sort == key
        flipped = "desc" if options.dir == "asc" else "asc"
        direction = flipped if current else first_dir[key]
        query = options.query(keep, sort=key, dir=direction)
        aria, arrow = "", ""
        if current:
            word = "ascending" if options.dir == "asc" else "descending"
            aria = f' aria-sort="{word}"'
            arrow = ' <span aria-hidden="true">{}</span>'.format(
                "▲" if options.dir == "asc" else "▼"
            )
        out.append(
            f'<th scope="col"{css}{aria}><a href="?{escape(query)}">{escape(label)}</a>{arrow}</th>'
        )
    return mark_safe("".join(out))


def _memo(write: Callable[[_K], str]) -> Callable[[_K], str]:
    """`write` remembered for one table: a long table repeats few dates, changes and
    counts of games to go, and formatting each again was most of a 2,284-row ladder's time
    (issue 34). Only for one call of a body: the language and the words are the table's."""
    written: dict[_K, str] = {}

    def cached(value: _K) -> str:
        text = written.get(value)
        if text is None:
            text = written[value] = write(value)
        return text

    return cached


def ladder_body(
    rows: Iterable[LadderRow], base: str, provisional_below: int | None = None
) -> SafeString:
    return mark_safe("".join(map(_ladder_row_writer(base, provisional_below), rows)))


def ladder_body_kept(
    rows: Iterable[LadderRow],
    base: str,
    provisional_below: int | None,
    kept: dict[tuple[int, int], bytes],
) -> bytes:
    """ladder_body's text, UTF-8, each row's taken from `kept` (by rank and player) or
    written and put there. `kept` is one roster's (ladder.roster.rosters.Roster.kept) for one
    language, `base` and `provisional_below`: a row's text is then a function of its rank
    and its player, and a page of a ladder of 2,284 players writes none (issue 34)."""
    out, write = [], None
    for row in rows:
        key = (row.rank, row.player.id)
        text = kept.get(key)
        if text is None:
            write = write or _ladder_row_writer(base, provisional_below)
            text = kept[key] = write(row).encode()
        out.append(text)
    return b"".join(out)


def _ladder_row_writer(base: str, provisional_below: int | None) -> Callable[[LadderRow], str]:
    f = Formats()
    provisional = escape(_("provisional"))
    tag = f' <span class="tag">{provisional}</span>'
    up, down = escape(_("up")), escape(_("down"))

    def marked(value: float | None) -> str:
        return _marked_change(f, value, up, down)

    def provisional_marker(games: int) -> str:
        return tag + _to_go(games_to_go(games, provisional_below))

    date, change, to_go = _memo(f.date), _memo(marked), _memo(provisional_marker)

    def write(row: LadderRow) -> str:
        p = row.player
        if p.provisional:
            grey, marker = ' class="provisional"', to_go(p.rated_games)
        else:
            grey, marker = "", ""
        rating = p.rating
        return (
            f'<tr{grey}><td class="num">{row.rank}</td>'
            f'<td><a href="{base}players/{p.id}/">{escape(p.name)}</a>{marker}</td>'
            f'<td class="num">{None if rating is None else half_up(rating)}</td>'
            f'<td class="num">{p.rated_games}</td>'
            f"<td>{date(p.last_played)}</td>"
            f'<td class="num">{change(p.last_change)}</td></tr>\n'
        )

    return write


def roster_body(
    players: Iterable[RosterPlayer], base: str, provisional_below: int | None = None
) -> SafeString:
    return mark_safe("".join(map(_roster_row_writer(base, provisional_below), players)))


def roster_body_kept(
    players: Iterable[RosterPlayer],
    base: str,
    provisional_below: int | None,
    kept: dict[int, bytes],
) -> bytes:
    """roster_body's text, UTF-8, each row's taken from `kept` (by player) or written and
    put there: as ladder_body_kept, for one roster, language, `base` and `provisional_below`."""
    out, write = [], None
    for p in players:
        text = kept.get(p.id)
        if text is None:
            write = write or _roster_row_writer(base, provisional_below)
            text = kept[p.id] = write(p).encode()
        out.append(text)
    return b"".join(out)


def _roster_row_writer(base: str, provisional_below: int | None) -> Callable[[RosterPlayer], str]:
    f = Formats()
    status = {
        "unrated": escape(_("not rated yet")),
        "provisional": escape(_("provisional")),
        "established": escape(_("established")),
    }

    def provisional_status(games: int) -> str:
        return status["provisional"] + _to_go(games_to_go(games, provisional_below))

    date, to_go = _memo(f.date), _memo(provisional_status)

    def write(p: RosterPlayer) -> str:
        kind = roster_status(p)
        grey = ' class="provisional"' if kind != "established" else ""
        rating = p.rating_whole if p.on_ladder else DASH
        shown = to_go(p.rated_games) if kind == "provisional" else status[kind]
        return (
            f'<tr{grey}><td><a href="{base}players/{p.id}/">{escape(p.name)}</a></td>'
            f'<td class="num">{rating}</td><td>{shown}</td>'
            f'<td class="num">{p.rated_games}</td><td>{date(p.last_played)}</td></tr>\n'
        )

    return write


def roster_status(p: RosterPlayer) -> str:
    return "unrated" if not p.on_ladder else "provisional" if p.provisional else "established"
