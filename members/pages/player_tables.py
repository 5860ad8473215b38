"""The player page's tables and chart, built in Python as members.pages.tables builds the others.

Every text is escaped here, labels come from gettext in the active language, numbers
and dates use members.pages.tables.Formats. Names are the roster's shown names (the privacy
rules of ladder.roster.display), links to players only where the page may link (``link``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Event
from ladder.explain import (
    EXPECTED_DIGITS,
    EloSum,
    HsbSum,
    change_sum,
    column_for_total,
    elo_sum,
    hsb_sum,
    rounded,
    shown_rating,
    to_decimal,
)
from ladder.lifetime import MonthPoint
from ladder.page_texts import half_up, points_text
from ladder.player_stats import BestWin, HeadToHead, KindSummary
from members.pages.chart import RATED, START, UNRATED, ChartPoint, ChartText, rating_chart
from members.pages.player_page import ClubRules, EventLine, PlayerPage
from members.pages.tables import DASH, RULES_PAGE, Formats, player_link

KIND_LABELS = dict(Event.Kind.choices)


def player_chart(page: PlayerPage, title_id: str = "chart-title") -> SafeString:
    """The rating history: the starting rating, then the rating after each event (on one
    ladder: the page of that ladder's part, members.pages.player_ladders).

    The line runs through the whole history; the events this page writes out have their
    markers (each with its tooltip), and the other events are drawn as the line's point
    at the end of each month they fall in, so the chart stays small however long the
    history (3,000 events draw as ~100 months)."""
    timeline = page.timeline
    if timeline.first is None:
        return mark_safe("")
    f = Formats()
    _first_id, first_date, first_rating = timeline.first
    start = f.whole(first_rating)
    points = [
        ChartPoint(
            first_rating,
            _("Starting rating: %(rating)s") % {"rating": start},
            first_date,
            START,
            start,
        )
    ]
    not_rated = _("not rated")
    written = rating_rows(page, f)
    # Each month's last event, unless written out, then the events written out, in the
    # order of the history.
    line: list[MonthPoint | EventLine] = [m for m in timeline.months if m.event_id not in written]
    line += page.events
    line.sort(key=lambda point: point.position)
    for e in line:
        if isinstance(e, MonthPoint):
            points.append(ChartPoint(e.rating, "", e.date, shown=f.whole(e.rating), marked=False))
            continue
        row = written[e.event_id]
        label = f"{row.day} {row.name}: {row.shown}"
        points.append(
            ChartPoint(
                row.rating,
                label if row.rated else f"{label} ({not_rated})",
                e.date,
                RATED if row.rated else UNRATED,
                row.shown,
            )
        )
    text = ChartText(
        title=_("Rating history of %(name)s") % {"name": page.player.name},
        x_axis=_("Date of the event"),
        y_axis=_("Rating"),
        legend={
            START: _("starting rating"),
            RATED: _("rated event"),
            UNRATED: _("event not rated"),
        },
    )
    # Safe: rating_chart escapes every text it puts into the markup.
    return mark_safe(rating_chart(points, text, f.date, title_id))


def history_body(page: PlayerPage) -> SafeString:
    """The chart's numbers for this page's events as table rows, oldest first, the rating
    before them first (the starting rating, when they begin the history)."""
    f = Formats()
    if not page.events:
        return mark_safe("")
    first = page.events[0]
    not_rated = escape(_("not rated"))
    # Outside the f-string, where xgettext sees them.
    before = _("Starting rating") if page.starts_history else _("Rating before these events")
    out = [
        f"<tr><td>{f.date(first.date)}</td><td>{escape(before)}</td>"
        f'<td class="num">{f.whole(first.pre_rating)}</td></tr>\n'
    ]
    out += [
        f"<tr><td>{row.day}</td>"
        f"<td>{escape(row.name)}{'' if row.rated else f' ({not_rated})'}</td>"
        f'<td class="num">{row.shown}</td></tr>\n'
        for row in rating_rows(page, f).values()
    ]
    return mark_safe("".join(out))


@dataclass(frozen=True)
class RatingRow:
    """An event this page writes out, as the chart's marker and the history table's row both
    show it."""

    day: str  # the date as the page writes it
    name: str
    rated: bool
    rating: float  # after the event
    shown: str  # the rating as the page writes it


def rating_rows(page: PlayerPage, f: Formats) -> dict[int, RatingRow]:
    """The rows of the events this page writes out, oldest first, by event id."""
    return {
        e.event_id: RatingRow(
            f.date(e.date), e.name, e.rated, e.post_rating, f.whole(e.post_rating)
        )
        for e in page.events
    }


def years_body(page: PlayerPage, base: str) -> SafeString:
    """One row per year of the player's history, newest first, each a link to its page
    (the year this page shows is written, not linked)."""
    f = Formats()
    link = f"{base}players/{page.player.id}/?year="
    out = []
    for y in page.years:
        year = str(y.year)
        if y.year != page.shown.year:
            year = f'<a href="{link}{y.year}">{year}</a>'
        out.append(
            f'<tr><th scope="row">{year}</th><td class="num">{y.events}</td>'
            f'<td class="num">{f.whole(y.rating_after)}</td></tr>\n'
        )
    return mark_safe("".join(out))


def head_to_head_body(rows: Iterable[HeadToHead], base: str, link: bool) -> SafeString:
    out = [
        f"<tr><td>{player_link(base, h.opponent_id, h.opponent, link)}</td>"
        f'<td class="num">{h.tally.games}</td><td class="num">{points_text(h.tally.score)}</td>'
        f'<td class="num">{h.tally.won}</td><td class="num">{h.tally.drawn}</td>'
        f'<td class="num">{h.tally.lost}</td></tr>\n'
        for h in rows
    ]
    return mark_safe("".join(out))


def kinds_body(rows: Iterable[KindSummary]) -> SafeString:
    out = []
    for k in rows:
        label = escape(str(KIND_LABELS.get(k.kind, k.kind)))
        out.append(
            f'<tr><th scope="row">{label}</th><td class="num">{k.event_count}</td>'
            f'<td class="num">{k.tally.games}</td>'
            f'<td class="num">{points_text(k.tally.score)}</td></tr>\n'
        )
    return mark_safe("".join(out))


def best_win(best: BestWin | None, base: str, link: bool) -> SafeString:
    """One sentence: whom, rated how much before the game, in which event."""
    if best is None:
        return mark_safe(escape(_("No win in a rated game yet.")))
    f = Formats()
    opponent = player_link(base, best.opponent_id, best.opponent, link)
    event = f'<a href="{base}events/{best.event_id}/">{escape(best.event)}</a>'
    # The placeholders take markup, so the sentence is escaped before they go in.
    sentence = escape(
        _("Against %(opponent)s, rated %(rating)s before the game, in %(event)s on %(date)s.")
    )
    values = {
        "opponent": opponent,
        "rating": str(half_up(best.opponent_rating)),
        "event": event,
        "date": f.date(best.date),
    }
    return mark_safe(sentence % values)


def player_events(
    events: list[EventLine], base: str, link: bool, rules: ClubRules | None = None
) -> SafeString:
    """Every event of a player, newest first, each with the breakdown of its change.

    On screen each breakdown is a <details>, the newest open. A closed <details> does not
    print its content, and printing should need no script: so the same breakdowns are
    written once more, open, in a block only the print stylesheet shows.
    """
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
    # Each cell says its column, for the phone layout that stacks a row's cells.
    cells = [f'<td{css} data-label="{escape(label)}">' for css, label in columns]
    out, printed = [], []
    for index, e in enumerate(reversed(events)):
        # The written sum of a K-factor event, once: its sentence and its expected column.
        elo = _elo_sum(e) if e.rated and e.games_counted and e.k is not None else None
        change, why, written = _explanation(e, f, labels, rules, elo)
        # The rating after the event as the sentence below writes it, so the two agree.
        after = escape(_("rating %(rating)s") % {"rating": written})
        title = f"{f.date(e.date)} · {escape(e.name)} · "
        body = [
            f'<p><a href="{base}events/{e.event_id}/">{labels["results"]}</a></p>\n'
            f'<p class="why">{why}{how_link}</p>\n'
        ]
        if e.games:
            expected = _expected_column(e, rules, elo)
            rows = _game_rows(e, base, link, f, labels, cells, expected)
            body.append(f"<tbody>\n{rows}</tbody></table>")
        shown = body[0]
        if e.games:
            shown += f'<div class="scroll"><table class="games">{head}{body[1]}</div>\n'
        out.append(
            f'<details class="event-breakdown"{" open" if index == 0 else ""}>'
            f'<summary>{title}<span class="change">{change}</span> · {after}</summary>\n'
            f"{shown}</details>\n"
        )
        kept = body[0]
        if e.games:
            kept += f'<table class="print-games">{head}{body[1]}\n'
        printed.append(
            f'<section class="event-print"><h3>{title}{change} · {after}</h3>\n{kept}</section>\n'
        )
    out.append(f'<div class="print-only">{"".join(printed)}</div>\n')
    return mark_safe("".join(out))


def _elo_sum(e: EventLine) -> EloSum:
    assert e.k is not None
    return elo_sum(
        pre=e.pre_rating, k=e.k, actual=e.actual, expected=e.expected, post=e.post_rating
    )


def _expected_column(e: EventLine, rules: ClubRules, elo: EloSum | None) -> list[Decimal | None]:
    """Each game's expected score as its row prints it: the counted games' column sums to
    the expected total the sentence above it uses (K × (score − expected)), and under HSB
    each counted game shows the p of the sentence, so the column sums to games × p."""
    counted = [g.expected for g in e.games if g.expected is not None]
    total: Decimal | None = None
    if elo is not None:
        total = elo.expected
    elif e.rated and e.games_counted and rules.policy == "hsb":
        s = _hsb_sum(e, rules)
        if s is not None:
            return [None if g.expected is None else s.p for g in e.games]
    if total is None:
        total = rounded(to_decimal(e.expected), EXPECTED_DIGITS)
    shown = iter(column_for_total(counted, total))
    return [None if g.expected is None else next(shown) for g in e.games]


def _game_rows(
    e: EventLine,
    base: str,
    link: bool,
    f: Formats,
    labels: dict[str, str],
    cells: list[str],
    expected_column: list[Decimal | None],
) -> str:
    out = []
    for g, shown_expected in zip(e.games, expected_column, strict=True):
        if g.opponent_id:
            opponent = player_link(base, g.opponent_id, g.opponent, link)
        else:
            opponent = escape(g.result_text)
        if g.counted:
            counted = labels["yes"]
        elif g.counted is None:
            counted = DASH
        else:
            counted = escape(g.reason)  # a sentence that begins "Not counted"
        expected = DASH if shown_expected is None else f.exact(shown_expected)
        values = [
            str(g.round),
            labels.get(g.colour, DASH),
            opponent,
            f.whole(g.opponent_rating),
            expected,
            g.score,
            counted,
        ]
        row = "".join(f"{cell}{value}</td>" for cell, value in zip(cells, values, strict=True))
        out.append(f"<tr>{row}</tr>\n")
    return "".join(out)


def _explanation(
    e: EventLine, f: Formats, labels: dict[str, str], rules: ClubRules, elo: EloSum | None
) -> tuple[str, str, str]:
    """The change as the event's summary line shows it, the sentence that answers "why
    did I gain so little" (both escaped) and the rating after the event as that sentence
    writes it. The summary shows the change and the rating of the written sum, so the
    two never differ by a rounding."""
    if not e.rated:
        return f.signed(e.change), labels["unrated"], f.exact(shown_rating(e.post_rating))
    if not e.games_counted:
        return f.signed(e.change), labels["none"], f.exact(shown_rating(e.post_rating))
    if elo is not None:
        return _elo_explanation(e, f, elo)
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
        "expected": f.exact(rounded(to_decimal(e.expected), EXPECTED_DIGITS)),
    }
    text = _counted_games(e.games_counted) % values
    return f.exact_signed(s.change), escape(text), str(values["after"])


def _counted_games(games: int) -> str:
    return ngettext(
        "Rating %(before)s before the event, %(after)s after it. In the one counted game: "
        "score %(score)s, expected %(expected)s.",
        "Rating %(before)s before the event, %(after)s after it. In the %(games)s counted "
        "games: score %(score)s, expected %(expected)s.",
        games,
    )


def _elo_explanation(e: EventLine, f: Formats, s: EloSum) -> tuple[str, str, str]:
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
    return f.exact_signed(s.change), escape(text), str(values["after"])


def _hsb_sum(e: EventLine, rules: ClubRules) -> HsbSum | None:
    return hsb_sum(
        pre=e.pre_rating,
        actual=e.actual,
        games=e.games_counted,
        expected=e.expected,
        change=e.change,
        post=e.post_rating,
        opponent_ratings=e.opponent_ratings,
        bonus=rules.hsb_bonus if rules.hsb_bonus is not None else 0,
    )


def _hsb_explanation(e: EventLine, f: Formats, rules: ClubRules) -> tuple[str, str, str] | None:
    s = _hsb_sum(e, rules)
    if s is None:
        return None
    values = {
        "before": f.exact(s.before),
        "after": f.exact(s.after),
        "games": s.games,
        "score": f.exact(s.score),
        "average": DASH if s.opponents_average is None else f.exact(s.opponents_average),
        "p": f.exact(s.p) + ("…" if s.p_cut else ""),  # cut off, not rounded: explain.hsb_sum
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
    text = facts % values + " " + formula % values
    return f.exact_signed(Decimal(s.change)), escape(text), str(values["after"])
