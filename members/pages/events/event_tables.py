"""The rows of the event page's tables and of the list of events, built in Python.

As in members.pages.tables (which says why): every text is escaped here, labels come from gettext
in the active language, numbers use the active language's formats. Every name is the shown
name of the roster (ladder.roster.display), and a link to the player's page only where the page
may link (not on an event's own link, not for an unconfirmed entrant).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from html import escape

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ladder.event_ratings import RatingLine
from ladder.explain import (
    EXPECTED_DIGITS,
    ChangeSum,
    hsb_sum,
    rounded,
    to_decimal,
)
from ladder.labels.tiebreaks import TIEBREAK_LABELS
from ladder.tiebreaks import Tiebreak
from members.pages.events.event_list import EventSummary, Winner
from members.pages.events.event_pages import EventPage, Standing
from members.pages.events.event_rounds import Board
from members.pages.events.wallchart import cell_text
from members.pages.live_page import LivePage
from members.pages.player_page import ClubRules
from members.pages.tables import DASH, Formats, player_link

# Winners shown by name; more than this share first place and the list says how many.
NAMED_WINNERS = 3


def events_body(
    events: Iterable[EventSummary],
    base: str,
    ladders: Mapping[str, str] | None = None,
    several: bool = False,
) -> SafeString:
    """`ladders`: the name of the ladder that rates each kind (by its label), where the club
    has one; an event of a kind no ladder rates is not rated. With `several` ladders the
    column names the event's."""
    f = Formats()
    rated, not_rated = escape(_("rated")), escape(_("not rated"))

    def ladder(e: EventSummary) -> str:
        if not e.rated or (ladders is not None and e.kind not in ladders):
            return not_rated
        return escape(ladders[e.kind]) if ladders is not None and several else rated

    out = [
        f'<tr><td>{f.date(e.date)}</td><td><a href="{base}events/{e.id}/">{escape(e.name)}</a></td>'
        f"<td>{escape(e.kind)}</td><td>{_winners(e.winners, base)}</td>"
        f'<td class="num">{e.players}</td>'
        f"<td>{ladder(e)}</td></tr>\n"
        for e in events
    ]
    return mark_safe("".join(out))


def _winners(winners: Sequence[Winner], base: str) -> str:
    if not winners:
        return DASH
    if len(winners) > NAMED_WINNERS:
        count = len(winners)
        return escape(
            ngettext(
                "%(count)s player shares first place",
                "%(count)s players share first place",
                count,
            )
            % {"count": count}
        )
    names = ", ".join(player_link(base, w.player_id, w.name, True) for w in winners)
    if len(winners) == 1:
        return names
    shared = escape(_("shared first place"))  # outside the f-string, where xgettext sees it
    return f'{names} <span class="muted">({shared})</span>'


def tiebreak_heads(page: EventPage) -> SafeString:
    """The standings' tie-break column heads, in the club's order."""
    return tiebreak_head_cells(page.order)


def tiebreak_head_cells(order: Sequence[Tiebreak], *, coded: bool = False) -> SafeString:
    """Tie-break column heads in `order`; `coded` marks each with its code (data-tiebreak),
    as the director's standings of a club night are."""

    def code(t: Tiebreak) -> str:
        return f' data-tiebreak="{escape(t.value)}"' if coded else ""

    return mark_safe(
        "".join(
            f'<th scope="col" class="num"{code(t)}>'
            f'<abbr title="{escape(str(TIEBREAK_LABELS[t].name))}">'
            f"{escape(str(TIEBREAK_LABELS[t].short))}</abbr></th>"
            for t in order
        )
    )


def tiebreak_text(f: Formats, tiebreak: Tiebreak, value: float) -> str:
    if tiebreak in (Tiebreak.WINS, Tiebreak.ROUNDS_WON):
        return str(int(value))
    if tiebreak is Tiebreak.SONNEBORN_BERGER:
        # Sonneborn-Berger moves in quarter points (½ x ½): two decimals.
        return f.fixed(value, 2)
    return f.short(value)


def standings_body(page: EventPage, base: str, link: bool) -> SafeString:
    """The standings as the page shows them: the rating change only in the final ones."""
    f = Formats()
    # A draft (a club night being played) has no rating changes yet.
    rated = page.rated and page.after is None and page.event.is_published
    absent = _did_not_play_marker() if _final(page) else ""
    # A column's cells repeat a few values (Buchholz sums in halves): each written once.
    cells: dict[tuple[Tiebreak, float], str] = {}
    out = []
    for s in page.standings:
        extra = ""
        if page.shows_performance:
            extra += f'<td class="num">{f.whole(s.performance)}</td>'
        if rated:
            shown = f.exact_signed(s.rating.printed_change) if s.rating else DASH
            extra += f'<td class="num">{shown}</td>'
        tiebreak_cells = []
        for key in zip(page.order, s.tiebreak_values, strict=True):
            cell = cells.get(key)
            if cell is None:
                cell = cells[key] = f'<td class="num">{tiebreak_text(f, *key)}</td>'
            tiebreak_cells.append(cell)
        out.append(
            f'<tr><td class="num">{s.rank}</td>'
            f"<td>{player_link(base, s.player_id, s.name, link)}{'' if s.played else absent}</td>"
            f'<td class="num">{s.points_text}</td><td class="num">{s.played}</td>'
            f'<td class="num">{s.byes}</td><td class="num">{s.forfeits}</td>'
            f"{''.join(tiebreak_cells)}{extra}</tr>\n"
        )
    return mark_safe("".join(out))


def _did_not_play_marker() -> str:
    # Outside the f-strings, where xgettext sees it.
    return f' <span class="muted did-not-play">({escape(_("did not play"))})</span>'


def _final(page: EventPage) -> bool:
    """Whether the page's standings mark an entrant who played no game (only forfeits, byes
    or nothing): the final standings of a published event; a club night still being played
    is not over."""
    return page.after is None and page.event.is_published


def boards_body(boards: Iterable[Board], base: str, link: bool) -> SafeString:
    out = []
    for b in boards:
        white = player_link(base, b.white.player_id, b.white.name, link)
        black = player_link(base, b.black.player_id, b.black.name, link) if b.black else DASH
        out.append(
            f'<tr><td class="num">{b.number}</td><td>{white}</td>'
            f"<td>{escape(b.result)}</td><td>{black}</td></tr>\n"
        )
    return mark_safe("".join(out))


def crosstable_head(page: EventPage) -> SafeString:
    """One column per player, headed by their row's number; a screen reader hears the name."""
    rows = page.crosstable or []
    return mark_safe(
        "".join(
            f'<th scope="col" class="num"><span aria-hidden="true">{number}</span>'
            f'<span class="visually-hidden">{escape(s.name)}</span></th>'
            for number, (s, _cells) in enumerate(rows, start=1)
        )
    )


def crosstable_body(page: EventPage, base: str, link: bool) -> SafeString:
    """Each row: the player's results against each column's player, in round order; the
    symbols are shown, and said in words to a screen reader."""
    words = {
        "1": escape(_("won")),
        "½": escape(_("drew")),
        "0": escape(_("lost")),
        "+": escape(_("won by forfeit")),
        "−": escape(_("lost by forfeit")),
        "*": escape(_("no result")),
    }
    out = []
    for number, (s, cells) in enumerate(page.crosstable or [], start=1):
        shown = []
        for cell in cells:
            if cell is None:
                shown.append('<td class="num self"></td>')
                continue
            said = " ".join(
                f'<span aria-hidden="true">{escape(symbol)}</span>'
                f'<span class="visually-hidden">{words.get(symbol, escape(symbol))}</span>'
                for symbol in cell
            )
            shown.append(f'<td class="num">{said}</td>')
        out.append(
            f'<tr><td class="num">{number}</td>'
            f'<th scope="row">{player_link(base, s.player_id, s.name, link)}</th>'
            f'{"".join(shown)}<td class="num">{s.points_text}</td></tr>\n'
        )
    return mark_safe("".join(out))


def wallchart_head(page: EventPage) -> SafeString:
    """A column per round, then the points and the club's tie-breaks."""
    # Outside the f-string, where xgettext sees it.
    heading = _("Rd %(round)s")
    rounds = "".join(
        f'<th scope="col" class="num">{escape(heading % {"round": r})}</th>'
        for r in page.wallchart_rounds
    )
    rank, name, rating, points = (
        escape(_("Rank")),
        escape(_("Name")),
        escape(_("Rating")),
        escape(_("Points")),
    )
    return mark_safe(
        f'<th scope="col" class="num">{rank}</th><th scope="col">{name}</th>'
        f'<th scope="col" class="num">{rating}</th>{rounds}'
        f'<th scope="col" class="num">{points}</th>{tiebreak_heads(page)}'
    )


def wallchart_body(page: EventPage, base: str, link: bool) -> SafeString:
    """Each entrant's row: per round the opponent's rank, colour and result ("12w1"), a
    bye as such, "—" where the entrant was not paired; then points and tie-breaks."""
    f = Formats()
    bye, unpaired = escape(_("bye")), escape(_("not paired"))
    absent = _did_not_play_marker() if _final(page) else ""
    out = []
    for s, row in page.wallchart or []:
        cells = []
        for games in row.cells:
            if not games:
                cells.append(
                    f'<td class="num"><span aria-hidden="true">{DASH}</span>'
                    f'<span class="visually-hidden">{unpaired}</span></td>'
                )
                continue
            cells.append(
                f'<td class="num">{" ".join(escape(cell_text(g, bye)) for g in games)}</td>'
            )
        rating = f.whole(s.rating.pre_rating) if s.rating else DASH
        tiebreak_cells = "".join(
            f'<td class="num">{tiebreak_text(f, t, v)}</td>'
            for t, v in zip(page.order, s.tiebreak_values, strict=True)
        )
        out.append(
            f'<tr><td class="num">{row.rank}</td>'
            f'<th scope="row">{player_link(base, s.player_id, s.name, link)}'
            f'{"" if s.played else absent}</th><td class="num">{rating}</td>{"".join(cells)}'
            f'<td class="num">{s.points_text}</td>{tiebreak_cells}</tr>\n'
        )
    return mark_safe("".join(out))


def changes_body(
    standings: Iterable[Standing], base: str, link: bool, rules: ClubRules | None = None
) -> SafeString:
    """Per rated entrant: before, games, score, expected, change, after, and the change
    worked out from the printed numbers (the player pages' shapes), so that a parent can
    check every row with a calculator: K × (score − expected) = change, or HSB's
    20 × (score − games × p) + bonus = change; and before + change = after."""
    f = Formats()
    rules = rules or ClubRules("ladder")
    out = []
    for s in standings:
        r = s.rating
        if r is None:
            continue
        p = _printed(r)
        expected, worked = _worked_sum(r, rules, f)
        out.append(
            f"<tr><td>{player_link(base, s.player_id, s.name, link)}</td>"
            f'<td class="num">{f.exact(p.before)}</td><td class="num">{r.games_counted}</td>'
            f'<td class="num">{f.short(r.actual)}</td><td class="num">{expected}</td>'
            f'<td class="num">{f.exact_signed(p.change)}</td>'
            f'<td class="num">{f.exact(p.after)}</td>'
            f'<td class="num worked">{worked}</td></tr>\n'
        )
    return mark_safe("".join(out))


def _worked_sum(r: RatingLine, rules: ClubRules, f: Formats) -> tuple[str, str]:
    """The expected score as the row prints it, and the row's sum written out (a dash for a
    row without counted games or without a formula)."""
    if not r.games_counted:
        return _plain_expected(r, f), DASH
    e = r.elo
    if e is not None:
        worked = (
            f"{f.exact(e.k)} × ({f.exact(e.score)} − {f.exact(e.expected)}) "
            f"= {f.exact_signed(e.change)}"
        )
        return f.exact(e.expected), escape(worked)
    if rules.policy != "hsb":
        return _plain_expected(r, f), DASH
    h = hsb_sum(
        pre=r.pre_rating,
        actual=r.actual,
        games=r.games_counted,
        expected=r.expected,
        change=r.change,
        post=r.post_rating,
        opponent_ratings=list(r.opponent_ratings),
        bonus=rules.hsb_bonus if rules.hsb_bonus is not None else 0,
    )
    if h is None:
        return _plain_expected(r, f), DASH
    cut = "…" if h.p_cut else ""  # p cut off, not rounded (ladder.explain.hsb_sum)
    worked = (
        f"{h.factor} × ({f.exact(h.score)} − {h.games} × {f.exact(h.p)}{cut}) + {h.bonus} "
        f"= {f.exact_signed(Decimal(h.change))}"
    )
    if h.was_rounded:
        rounding = _("(%(exact)s, rounded to a whole number)") % {"exact": f.exact_signed(h.exact)}
        worked += f" {rounding}"
    return f.exact(h.games * h.p), escape(worked)


def _plain_expected(r: RatingLine, f: Formats) -> str:
    """The expected score of a row without a written sum, to four decimals."""
    return f.exact(rounded(to_decimal(r.expected), EXPECTED_DIGITS))


def _printed(r: RatingLine) -> ChangeSum:
    """Before, change and after as the player page prints them, so that they add up."""
    return r.printed


def live_boards_body(live: LivePage, base: str, link: bool) -> SafeString:
    """The round on the boards: a result where one is in, "playing" where not."""
    playing = escape(_("playing"))
    bye = escape(_("bye"))
    out = []
    for b in live.boards:
        white = player_link(base, b.white.player_id, b.white.name, link)
        if b.black is None:
            black, result = DASH, escape(b.result or "") or bye
        else:
            black = player_link(base, b.black.player_id, b.black.name, link)
            result = escape(b.result) if b.result else f'<span class="muted">{playing}</span>'
        out.append(
            f'<tr><td class="num">{b.number}</td><td>{white}</td><td>{result}</td>'
            f"<td>{black}</td></tr>\n"
        )
    return mark_safe("".join(out))


def live_standings_body(live: LivePage, base: str, link: bool) -> SafeString:
    """The standings so far, a withdrawn player marked beside the name. A club night being
    played is a draft, so there is no rating-change column (see standings_body)."""
    f = Formats()
    page = live.results
    tag = f' <span class="tag">{escape(_("withdrawn"))}</span>'
    out = []
    for s in page.standings:
        name = player_link(base, s.player_id, s.name, link)
        performance = f'<td class="num">{f.whole(s.performance)}</td>'
        out.append(
            f'<tr><td class="num">{s.rank}</td>'
            f"<td>{name}{tag if s.entry_id in live.withdrawn else ''}</td>"
            f'<td class="num">{s.points_text}</td><td class="num">{s.played}</td>'
            f'<td class="num">{s.byes}</td><td class="num">{s.forfeits}</td>'
            + "".join(
                f'<td class="num">{tiebreak_text(f, t, v)}</td>'
                for t, v in zip(page.order, s.tiebreak_values, strict=True)
            )
            + (performance if page.shows_performance else "")
            + "</tr>\n"
        )
    return mark_safe("".join(out))
