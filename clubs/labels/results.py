"""The words for every game result, translated, in one table.

Two forms on purpose: `short` is what a director picks and reads (the results grid, the
event's list of games, the admin), `text` is what visitors read on the event and player
pages. Kept apart from clubs/results.py so that module stays free of Django for the
parsers' tests; this one imports only the lazy gettext, so models, forms and pages can all
use it without an import circle.
"""

from __future__ import annotations

from typing import NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.results import Result


class ResultLabel(NamedTuple):
    short: str | Promise
    text: str | Promise


# In the grid's order, most common first. The plain scores are the same in every language.
RESULT_LABELS: dict[Result, ResultLabel] = {
    Result.WHITE_WIN: ResultLabel("1–0", "1–0"),
    Result.DRAW: ResultLabel("½–½", "½–½"),
    Result.BLACK_WIN: ResultLabel("0–1", "0–1"),
    Result.WHITE_FORFEIT_WIN: ResultLabel(_("1–0 by forfeit"), _("+ – − (forfeit)")),
    Result.BLACK_FORFEIT_WIN: ResultLabel(_("0–1 by forfeit"), _("− – + (forfeit)")),
    Result.DOUBLE_FORFEIT: ResultLabel(_("Double forfeit"), _("− – − (double forfeit)")),
    Result.BYE_FULL: ResultLabel(_("Bye, 1 point"), _("full-point bye")),
    Result.BYE_HALF: ResultLabel(_("Bye, ½ point"), _("half-point bye")),
    Result.BYE_ZERO: ResultLabel(_("Bye, 0 points"), _("zero-point bye")),
    Result.BYE_PAIRING: ResultLabel(
        _("Bye from the pairing (odd number)"), _("bye (odd number of players)")
    ),
    Result.BYE_PAIRING_HALF: ResultLabel(
        _("Bye from the pairing (odd number), ½ point"), _("bye, ½ point (odd number of players)")
    ),
    Result.BYE_PAIRING_ZERO: ResultLabel(
        _("Bye from the pairing (odd number), 0 points"),
        _("bye, 0 points (odd number of players)"),
    ),
    Result.UNRATED_WHITE_WIN: ResultLabel(_("1–0, not rated"), _("1–0 (unrated)")),
    Result.UNRATED_DRAW: ResultLabel(_("½–½, not rated"), _("½–½ (unrated)")),
    Result.UNRATED_BLACK_WIN: ResultLabel(_("0–1, not rated"), _("0–1 (unrated)")),
    Result.NO_RESULT: ResultLabel(_("No result yet"), _("no result")),
}

# The grid's options and the model's choices: (stored code, short label).
RESULT_CHOICES: list[tuple[str, str | Promise]] = [
    (result.value, label.short) for result, label in RESULT_LABELS.items()
]
