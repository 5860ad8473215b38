"""Tags of the club pages: number formats in the page's language and the long tables' rows."""

from __future__ import annotations

from decimal import Decimal

from django import template

from clubs.models import Ladder
from members.pages import player_tables, tables
from members.pages.events import event_tables
from members.web.ladder_parts import shown_name

register = template.Library()


@register.filter
def signed(value: float | None, digits: int = 1) -> str:
    """+12.5, −3.0, 0.0 (with the language's decimal mark); a dash when there is no number."""
    return tables.Formats().signed(value, digits)


@register.filter
def exact(value: Decimal) -> str:
    """A number as ladder.explain chose its digits (1400.0, 1400.04), in the language."""
    return tables.Formats().exact(value)


@register.filter
def exact_signed(value: Decimal) -> str:
    """+10.3, −2.05, 0.0: a change as ladder.explain chose its digits."""
    return tables.Formats().exact_signed(value)


@register.filter
def ladder_name(ladder: Ladder) -> str:
    """A ladder's name as the pages show it (members.web.ladder_parts.shown_name)."""
    return shown_name(ladder)


for _function in (
    tables.ladder_body,
    tables.roster_body,
    player_tables.history_body,
    player_tables.years_body,
    player_tables.player_events,
    player_tables.head_to_head_body,
    player_tables.kinds_body,
    player_tables.best_win,
    event_tables.events_body,
    event_tables.standings_body,
    event_tables.tiebreak_heads,
    event_tables.live_boards_body,
    event_tables.live_standings_body,
    event_tables.boards_body,
    event_tables.crosstable_head,
    event_tables.crosstable_body,
    event_tables.changes_body,
    event_tables.wallchart_head,
    event_tables.wallchart_body,
):
    register.simple_tag(_function)
