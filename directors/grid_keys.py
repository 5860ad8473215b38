"""The results grid's keys: which keys, typed on a board's result, pick which result.

One table, read by the page's key legend and (as JSON) by static/directors/events/grid.js, so
the legend can never list a key the script does not know. Plain Python: tested without Django.

The common results are one key, as a director reads them off a paper sheet. Everything
that takes points away without a game (forfeits, byes, unrated games) needs two keys
starting with a key no score is written with (`+`, `-`, `b`, `u`), so no ordinary key,
and no key pressed twice, reaches it by accident; the browser's own type-ahead on the
<select> (`d` picked "Double forfeit", `1 1` picked "1–0 by forfeit") is switched off.
"""

from __future__ import annotations

import json

from clubs.results import Result

# (keys typed one after another, result). `+` and `-` read as the TRF's forfeit signs from
# white's side: `+ -` is white's forfeit win; `+ 1` and `+ 0` say the same as the score.
GRID_KEYS: tuple[tuple[str, Result], ...] = (
    ("1", Result.WHITE_WIN),
    ("=", Result.DRAW),
    ("5", Result.DRAW),
    ("h", Result.DRAW),
    ("0", Result.BLACK_WIN),
    ("+1", Result.WHITE_FORFEIT_WIN),
    ("+-", Result.WHITE_FORFEIT_WIN),
    ("+0", Result.BLACK_FORFEIT_WIN),
    ("-+", Result.BLACK_FORFEIT_WIN),
    ("--", Result.DOUBLE_FORFEIT),
    ("b1", Result.BYE_FULL),
    ("b=", Result.BYE_HALF),
    ("bh", Result.BYE_HALF),
    ("b0", Result.BYE_ZERO),
    ("bu", Result.BYE_PAIRING),
    # The pairing's bye where a club night scores it ½ ("p" for pairing) or 0 ("x").
    ("bp", Result.BYE_PAIRING_HALF),
    ("bx", Result.BYE_PAIRING_ZERO),
    ("u1", Result.UNRATED_WHITE_WIN),
    ("u=", Result.UNRATED_DRAW),
    ("u0", Result.UNRATED_BLACK_WIN),
    ("*", Result.NO_RESULT),
)


def keys_json() -> str:
    """The table for the script: {"1": "1-0", "+1": "+-", ...}."""
    return json.dumps({keys: result.value for keys, result in GRID_KEYS})


def keys_by_result() -> dict[Result, list[str]]:
    """For the legend: each result's key sequences, in the table's order."""
    found: dict[Result, list[str]] = {}
    for keys, result in GRID_KEYS:
        found.setdefault(result, []).append(keys)
    return found
