"""Tags of the club pages: number formats in the page's language and the long tables' rows."""

from __future__ import annotations

from django import template

from ladder import tables

register = template.Library()


@register.filter
def signed(value: float | None, digits: int = 1) -> str:
    """+12.5, −3.0, 0.0 (with the language's decimal mark); a dash when there is no number."""
    return tables.Formats().signed(value, digits)


for _function in (
    tables.ladder_body,
    tables.roster_body,
    tables.events_body,
    tables.history_body,
    tables.player_events,
    tables.standings_body,
    tables.boards_body,
    tables.changes_body,
):
    register.simple_tag(_function)
