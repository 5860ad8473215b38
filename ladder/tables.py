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
from collections.abc import Iterable
from decimal import Decimal
from html import escape

from django.utils import dateformat
from django.utils.formats import get_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ladder.explain import ChangeSum, change_sum, elo_sum, hsb_sum
from ladder.list_options import ListOptions, games_to_go
from ladder.pages import (
    Board,
    ClubRules,
    EventLine,
    EventSummary,
    LadderRow,
    RatingLine,
    RosterPlayer,
    Standing,
    half_up,
)

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


def _numeric_date_template(django_format: str) -> str | None:
    """ "d.m.Y" -> "{0.day:02d}.{0.month:02d}.{0.year}"; None if the format has words in it."""
    parts = []
    for char in django_format:
        if char in _NUMERIC_DATE:
            parts.append(_NUMERIC_DATE[char])
        elif char.isalpha() or char == "\\":
            return None
        else:
            parts.append(char.replace("{", "{{").replace("}", "}}"))
    return "".join(parts)


class Formats:
    """Numbers and dates in the active language, cheap enough to call per cell."""

    def __init__(self) -> None:
        self.decimal = get_format("DECIMAL_SEPARATOR")
        self.short_date = get_format("SHORT_DATE_FORMAT")
        self._date_template = _numeric_date_template(self.short_date)
        # Dates written with a month name (config/formats) go through dateformat; a long
        # table repeats few distinct dates, so each is formatted once.
        self._dates: dict[dt.date, str] = {}

    def date(self, value: dt.date | None) -> str:
        if value is None:
            return DASH
        if self._date_template is not None:
            return self._date_template.format(value)
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
        return format(value, "f").replace(".", self.decimal)

    def exact_signed(self, value: Decimal) -> str:
        """+10.3, −2, 0.0: a change of a written sum, digits as chosen."""
        text = self.exact(abs(value))
        if value > 0:
            return f"+{text}"
        if value < 0:
            return f"{MINUS}{text}"
        return text


def _player_link(base: str, player_id: int | None, name: str, link: bool) -> str:
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


def ladder_body(
    rows: Iterable[LadderRow], base: str, provisional_below: int | None = None
) -> SafeString:
    f = Formats()
    provisional = escape(_("provisional"))
    tag = f' <span class="tag">{provisional}</span>'
    up, down = escape(_("up")), escape(_("down"))
    out = []
    for row in rows:
        p = row.player
        grey, marker = (' class="provisional"', tag) if p.provisional else ("", "")
        if p.provisional:
            marker += _to_go(games_to_go(p.rated_games, provisional_below))
        out.append(
            f'<tr{grey}><td class="num">{row.rank}</td>'
            f'<td><a href="{base}players/{p.id}/">{escape(p.name)}</a>{marker}</td>'
            f'<td class="num">{p.rating_whole}</td><td class="num">{p.rated_games}</td>'
            f"<td>{f.date(p.last_played)}</td>"
            f'<td class="num">{_marked_change(f, p.last_change, up, down)}</td></tr>\n'
        )
    return mark_safe("".join(out))


def roster_body(
    players: Iterable[RosterPlayer], base: str, provisional_below: int | None = None
) -> SafeString:
    f = Formats()
    status = {
        "unrated": escape(_("not rated yet")),
        "provisional": escape(_("provisional")),
        "established": escape(_("established")),
    }
    out = []
    for p in players:
        kind = roster_status(p)
        grey = ' class="provisional"' if kind != "established" else ""
        rating = p.rating_whole if p.on_ladder else DASH
        shown = status[kind]
        if kind == "provisional":
            shown += _to_go(games_to_go(p.rated_games, provisional_below))
        out.append(
            f'<tr{grey}><td><a href="{base}players/{p.id}/">{escape(p.name)}</a></td>'
            f'<td class="num">{rating}</td><td>{shown}</td>'
            f'<td class="num">{p.rated_games}</td><td>{f.date(p.last_played)}</td></tr>\n'
        )
    return mark_safe("".join(out))


def roster_status(p: RosterPlayer) -> str:
    return "unrated" if not p.on_ladder else "provisional" if p.provisional else "established"


def events_body(events: Iterable[EventSummary], base: str) -> SafeString:
    f = Formats()
    rated, not_rated = escape(_("rated")), escape(_("not rated"))
    out = [
        f'<tr><td>{f.date(e.date)}</td><td><a href="{base}events/{e.id}/">{escape(e.name)}</a></td>'
        f'<td>{escape(e.kind)}</td><td class="num">{e.players}</td>'
        f"<td>{rated if e.rated else not_rated}</td></tr>\n"
        for e in events
    ]
    return mark_safe("".join(out))


def history_body(events: Iterable[EventLine]) -> SafeString:
    """The chart's numbers as table rows, oldest first."""
    f = Formats()
    out = [
        f"<tr><td>{f.date(e.date)}</td><td>{escape(e.name)}</td>"
        f'<td class="num">{f.whole(e.post_rating)}</td></tr>\n'
        for e in events
    ]
    return mark_safe("".join(out))


def player_events(
    events: list[EventLine], base: str, link: bool, rules: ClubRules | None = None
) -> SafeString:
    """Every event of a player, newest first, each with the breakdown of its change."""
    f = Formats()
    rules = rules or ClubRules("ladder")
    how = escape(_("How ratings are calculated"))
    how_link = f' <a href="{base}{RULES_PAGE}">{how}</a>'
    labels = {
        "white": escape(_("white")),
        "black": escape(_("black")),
        "yes": escape(_("yes")),
        "results": escape(_("Event results")),
        "unrated": escape(_("This event was not rated: it did not change the rating.")),
        "none": escape(_("No game in this event counted for the rating.")),
    }
    number = ' class="num"'
    columns = [
        (number, _("Round")),
        ("", _("Colour")),
        ("", _("Opponent")),
        (number, _("Opponent’s rating before")),
        (number, _("Expected")),
        (number, _("Result")),
        ("", _("Counted")),
    ]
    head = "".join(f'<th scope="col"{css}>{escape(label)}</th>' for css, label in columns)
    head = f"<thead><tr>{head}</tr></thead>"
    out = []
    for index, e in enumerate(reversed(events)):
        change, why = _explanation(e, f, labels, rules)
        out.append(
            f'<details class="event-breakdown"{" open" if index == 0 else ""}>'
            f"<summary>{f.date(e.date)} · {escape(e.name)} · "
            f'<span class="change">{change}</span></summary>\n'
            f'<p><a href="{base}events/{e.event_id}/">{labels["results"]}</a></p>\n'
            f'<p class="why">{why}{how_link}</p>\n'
        )
        if e.games:
            out.append(f'<div class="scroll"><table class="games">{head}<tbody>\n')
            for g in e.games:
                if g.opponent_id:
                    opponent = _player_link(base, g.opponent_id, g.opponent, link)
                else:
                    opponent = escape(g.result_text)
                if g.counted:
                    counted = labels["yes"]
                elif g.counted is None:
                    counted = DASH
                else:
                    counted = escape(g.reason)  # a sentence that begins "Not counted"
                expected = DASH if g.expected is None else f.fixed(g.expected, 2)
                out.append(
                    f'<tr><td class="num">{g.round}</td><td>{labels.get(g.colour, DASH)}</td>'
                    f'<td>{opponent}</td><td class="num">{f.whole(g.opponent_rating)}</td>'
                    f'<td class="num">{expected}</td><td class="num">{g.score}</td>'
                    f"<td>{counted}</td></tr>\n"
                )
            out.append("</tbody></table></div>\n")
        out.append("</details>\n")
    return mark_safe("".join(out))


def _explanation(
    e: EventLine, f: Formats, labels: dict[str, str], rules: ClubRules
) -> tuple[str, str]:
    """The change as the event's summary line shows it and the sentence that answers "why
    did I gain so little", both escaped. The summary shows the change of the written sum,
    so the two never differ by a rounding."""
    if not e.rated:
        return f.signed(e.change), labels["unrated"]
    if not e.games_counted:
        return f.signed(e.change), labels["none"]
    if e.k is not None:
        return _elo_explanation(e, f)
    if rules.policy == "hsb":
        explained = _hsb_explanation(e, f, rules)
        if explained is not None:
            return explained
    # A policy without a formula here: the numbers, still adding up.
    s = change_sum(
        pre=e.pre_rating, post=e.post_rating, change=e.change, k=None, actual=0, expected=0
    )
    values = {
        "before": f.exact(s.before),
        "after": f.exact(s.after),
        "games": e.games_counted,
        "score": f.short(e.actual),
        "expected": f.fixed(e.expected, 2),
    }
    return f.exact_signed(s.change), escape(_counted_games(e.games_counted) % values)


def _counted_games(games: int) -> str:
    return ngettext(
        "Rating %(before)s before the event, %(after)s after it. In the one counted game: "
        "score %(score)s, expected %(expected)s.",
        "Rating %(before)s before the event, %(after)s after it. In the %(games)s counted "
        "games: score %(score)s, expected %(expected)s.",
        games,
    )


def _elo_explanation(e: EventLine, f: Formats) -> tuple[str, str]:
    assert e.k is not None
    s = elo_sum(pre=e.pre_rating, k=e.k, actual=e.actual, expected=e.expected, post=e.post_rating)
    values = {
        "before": f.exact(s.before),
        "after": f.exact(s.after),
        "games": e.games_counted,
        "score": f.exact(s.score),
        "expected": f.exact(s.expected),
    }
    # The English shape is a contract for scripts and translators (issue 13):
    # "= K × (score − expected) = {K} × ({score} − {expected}) = {change}".
    formula = _(
        "Change = K × (score − expected) = %(k)s × (%(score)s − %(expected)s) = %(change)s."
    ) % {**values, "k": f.exact(s.k), "change": f.exact_signed(s.change)}
    text = _counted_games(e.games_counted) % values + " " + formula
    return f.exact_signed(s.change), escape(text)


def _hsb_explanation(e: EventLine, f: Formats, rules: ClubRules) -> tuple[str, str] | None:
    s = hsb_sum(
        pre=e.pre_rating,
        actual=e.actual,
        games=e.games_counted,
        expected=e.expected,
        change=e.change,
        post=e.post_rating,
        opponent_ratings=e.opponent_ratings,
        bonus=rules.hsb_bonus if rules.hsb_bonus is not None else 0,
    )
    if s is None:
        return None
    values = {
        "before": f.exact(s.before),
        "after": f.exact(s.after),
        "games": s.games,
        "score": f.exact(s.score),
        "average": DASH if s.opponents_average is None else f.exact(s.opponents_average),
        "p": f.exact(s.p),
        "factor": s.factor,
        "bonus": s.bonus,
        "change": f.exact_signed(Decimal(s.change)),
        "exact": f.exact_signed(s.exact),
    }
    facts = ngettext(
        "Rating %(before)s before the event, %(after)s after it. In the one counted game: "
        "score %(score)s; your opponent’s rating %(average)s, so your expected share "
        "p = %(p)s.",
        "Rating %(before)s before the event, %(after)s after it. In the %(games)s counted "
        "games: score %(score)s; your opponents’ average rating %(average)s, so your "
        "expected share p = %(p)s.",
        s.games,
    )
    if s.was_rounded:
        formula = _(
            "Change = 20 × (score − games × p) + bonus = %(factor)s × (%(score)s − %(games)s × "
            "%(p)s) + %(bonus)s = %(change)s (%(exact)s, rounded to a whole number)."
        )
    else:
        formula = _(
            "Change = 20 × (score − games × p) + bonus = %(factor)s × (%(score)s − %(games)s × "
            "%(p)s) + %(bonus)s = %(change)s."
        )
    return f.exact_signed(Decimal(s.change)), escape(facts % values + " " + formula % values)


def standings_body(standings: Iterable[Standing], base: str, link: bool, rated: bool) -> SafeString:
    f = Formats()
    out = []
    for s in standings:
        change = ""
        if rated:
            shown = f.exact_signed(_printed(s.rating).change) if s.rating else DASH
            change = f'<td class="num">{shown}</td>'
        out.append(
            f'<tr><td class="num">{s.rank}</td>'
            f"<td>{_player_link(base, s.player_id, s.name, link)}</td>"
            f'<td class="num">{s.points_text}</td><td class="num">{s.played}</td>'
            f'<td class="num">{s.byes}</td><td class="num">{s.forfeits}</td>'
            f'<td class="num">{f.short(s.buchholz_cut1)}</td>'
            f'<td class="num">{f.short(s.buchholz)}</td>'
            # Sonneborn-Berger moves in quarter points (½ x ½): two decimals.
            f'<td class="num">{f.fixed(s.sonneborn_berger, 2)}</td>'
            f'<td class="num">{s.wins}</td>{change}</tr>\n'
        )
    return mark_safe("".join(out))


def boards_body(boards: Iterable[Board]) -> SafeString:
    out = [
        f'<tr><td class="num">{b.number}</td><td>{escape(b.white.name)}</td>'
        f"<td>{escape(b.result)}</td><td>{escape(b.black.name) if b.black else DASH}</td></tr>\n"
        for b in boards
    ]
    return mark_safe("".join(out))


def changes_body(standings: Iterable[Standing], base: str, link: bool) -> SafeString:
    f = Formats()
    out = []
    for s in standings:
        r = s.rating
        if r is None:
            continue
        p = _printed(r)
        out.append(
            f"<tr><td>{_player_link(base, s.player_id, s.name, link)}</td>"
            f'<td class="num">{f.exact(p.before)}</td><td class="num">{r.games_counted}</td>'
            f'<td class="num">{f.short(r.actual)}</td><td class="num">{f.fixed(r.expected, 2)}</td>'
            f'<td class="num">{f.exact_signed(p.change)}</td>'
            f'<td class="num">{f.exact(p.after)}</td></tr>\n'
        )
    return mark_safe("".join(out))


def _printed(r: RatingLine) -> ChangeSum:
    """Before, change and after as the player page prints them, so that they add up."""
    return change_sum(
        pre=r.pre_rating,
        post=r.post_rating,
        change=r.change,
        k=r.k,
        actual=r.actual,
        expected=r.expected,
    )
