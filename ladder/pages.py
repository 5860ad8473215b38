"""What the club pages show, each read with a fixed number of queries however large the club.

Every page starts from the club's roster (one query): it gives the shown names,
which are decided over the whole roster so look-alikes stay apart, and the
ladder numbers. The rest is one query per kind of row, assembled in Python.

The data lives by page: ``ladder.rosters`` (the roster and the ladder, which every page starts
from), ``ladder.player_page``, ``ladder.event_pages`` (one event and the list of events) and
``ladder.page_texts`` (result and reason texts, points). This module is the one name the views
and tables import them by.
"""

from __future__ import annotations

from ladder.event_pages import (
    Board,
    EventPage,
    EventSummary,
    Standing,
    Winner,
    event_page,
    event_summaries,
    read_after,
)
from ladder.event_ratings import RatingLine
from ladder.page_texts import (
    PROTECTED_TEXT,
    REASON_TEXT,
    UNKNOWN_REASON_TEXT,
    VARIANT_TEXT,
    half_up,
    points_text,
)
from ladder.player_page import (
    RECENT_LIMIT,
    ClubRules,
    EventLine,
    GameLine,
    PlayerPage,
    Record,
    Shown,
    club_rules,
    player_page,
)
from ladder.rosters import (
    ACTIVE_DAYS,
    LadderRow,
    Roster,
    RosterPlayer,
    active_since,
    forget_rosters,
    load_roster,
    provisional_below,
)

__all__ = [
    "ACTIVE_DAYS",
    "PROTECTED_TEXT",
    "REASON_TEXT",
    "RECENT_LIMIT",
    "UNKNOWN_REASON_TEXT",
    "VARIANT_TEXT",
    "Board",
    "ClubRules",
    "EventLine",
    "EventPage",
    "EventSummary",
    "GameLine",
    "LadderRow",
    "PlayerPage",
    "RatingLine",
    "Record",
    "Roster",
    "RosterPlayer",
    "Shown",
    "Standing",
    "Winner",
    "active_since",
    "club_rules",
    "event_page",
    "event_summaries",
    "forget_rosters",
    "half_up",
    "load_roster",
    "player_page",
    "points_text",
    "provisional_below",
    "read_after",
]
