"""The words and numbers every club page writes the same way: results, reasons, points."""

from __future__ import annotations

import math

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.results import Result
from ladder.policies.base import UnratedReason

# Why a game did not count, as one plain sentence, by the reason the replay stored (the
# values of ladder.policies.base.UnratedReason, which are plain strings). A new reason needs
# one line here; a reason without one reads UNKNOWN_REASON_TEXT. The protection rule is
# told from the side it concerns: only the established player's game is not counted.
PROTECTED_TEXT = _(
    "Not counted for you: your opponent was still provisional, so your rating was protected."
)
REASON_TEXT: dict[str, Promise] = {
    UnratedReason.BYE: _("Not counted: a bye is not a game."),
    UnratedReason.FORFEIT: _("Not counted: the game was not played (a forfeit, or no result)."),
    UnratedReason.UNRATED_RESULT: _("Not counted: this result was entered as not rated."),
    UnratedReason.UNRATED_EVENT: _("Not counted: this event was not rated."),
    UnratedReason.BUGHOUSE: _("Not counted: bughouse is a team game, and only chess is rated."),
    UnratedReason.PROTECTED_WHITE: PROTECTED_TEXT,
    UnratedReason.PROTECTED_BLACK: PROTECTED_TEXT,
    UnratedReason.VARIANT: _("Not counted: this game was not standard chess (a variant)."),
}
UNKNOWN_REASON_TEXT = _("Not counted for the rating.")

# Beside a variant game's result on the event page.
VARIANT_TEXT = _("%(result)s · %(variant)s, not standard chess: never rated")


def half_up(value: float) -> int:
    return math.floor(value + 0.5)


def points_text(points: float) -> str:
    """3.5 -> "3½", 0.5 -> "½": the chess way, the same in every language."""
    whole, half = divmod(round(points * 2), 2)
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


def score_symbol(result: Result, mine: float, theirs: float) -> str:
    if result.is_forfeit:
        if result == Result.NO_RESULT:
            return "*"
        return "+" if mine > theirs else "−"
    return points_text(mine)
