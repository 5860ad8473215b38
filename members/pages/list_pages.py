"""The ladder's and the roster's search and sort: the rows a query string asks for, and the
column heads that link to the other orders. The rules live in members.pages.list_options."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from ladder.roster.rosters import LadderRow, RosterPlayer
from members.pages.list_options import (
    LADDER_COLUMNS,
    ROSTER_COLUMNS,
    ListOptions,
    folded,
    matches,
    read_options,
    sorted_rows,
)
from members.pages.tables import roster_status, sort_heads

_STATUS_ORDER = {"established": 0, "provisional": 1, "unrated": 2}

# kept(key, build): `build()`, or what it made before for `key` (ladder.roster.rosters.Roster
# .keeper, for rows that are a kept roster's own).
Keeper = Callable[[Hashable, Callable[[], Any]], Any]


def ladder_list(
    rows: list[LadderRow],
    params: Mapping[str, str],
    keep: dict[str, str],
    kept: Keeper | None = None,
) -> dict[str, Any]:
    """Context for the ladder table: ranks stay the ladder's whatever the order shown.
    With `kept` (the same `rows` every time it is given) each order of the whole list is
    sorted once; a search is sorted every time."""
    options = read_options(params, LADDER_COLUMNS)
    keys: dict[str, Any] = {
        "rank": lambda r: r.rank,
        "name": lambda r: (folded(r.player.name), r.player.id),
        "rating": lambda r: r.player.rating,
        "games": lambda r: r.player.rated_games,
        "played": lambda r: r.player.last_played,
        "change": lambda r: r.player.last_change,
    }
    found = [r for r in rows if matches(r.player.name, options.q)] if options.q else rows
    columns = [
        ("rank", _("Rank"), True),
        ("name", _("Name"), False),
        ("rating", _("Rating"), True),
        ("games", _("Rated games"), True),
        ("played", _("Last played"), False),
        ("change", _("Last change"), True),
    ]
    shown = _ordered(found, options, keys, kept)
    return _context(shown, len(rows), options, columns, keep)


def roster_list(
    players: list[RosterPlayer], params: Mapping[str, str], kept: Keeper | None = None
) -> dict[str, Any]:
    """Context for the roster table; `kept` as ladder_list's."""
    options = read_options(params, ROSTER_COLUMNS)
    keys: dict[str, Any] = {
        "name": lambda p: (folded(p.name), p.id),
        "rating": lambda p: p.rating if p.on_ladder else None,
        "status": lambda p: _STATUS_ORDER[roster_status(p)],
        "games": lambda p: p.rated_games,
        "played": lambda p: p.last_played,
    }
    found = [p for p in players if matches(p.name, options.q)] if options.q else players
    columns = [
        ("name", _("Name"), False),
        ("rating", _("Rating"), True),
        ("status", _("Status"), False),
        ("games", _("Rated games"), True),
        ("played", _("Last played"), False),
    ]
    return _context(_ordered(found, options, keys, kept), len(players), options, columns, {})


def _ordered(
    rows: list[Any], options: ListOptions, keys: dict[str, Any], kept: Keeper | None
) -> list[Any]:
    if options.q or kept is None:
        return sorted_rows(rows, options, keys)
    order = (options.sort, options.dir)
    return list(kept(order, lambda: sorted_rows(rows, options, keys)))  # a copy, as kept's


def _context(
    shown: list[Any],
    total: int,
    options: ListOptions,
    columns: list[tuple[str, str, bool]],
    keep: dict[str, str],
) -> dict[str, Any]:
    first_dir = LADDER_COLUMNS if columns[0][0] == "rank" else ROSTER_COLUMNS
    heads: SafeString = sort_heads(columns, options, dict(first_dir), keep)
    return {"shown": shown, "total": total, "options": options, "heads": heads}
