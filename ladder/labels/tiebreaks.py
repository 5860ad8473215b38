"""The words for every tie-break, translated: a short label for a table's column and the
long name for its title and the club's settings. Apart from ladder/tiebreaks.py so that
module stays free of Django; this one imports only the lazy gettext."""

from __future__ import annotations

from typing import NamedTuple

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ladder.tiebreaks import Tiebreak


class TiebreakLabel(NamedTuple):
    short: str | Promise
    name: str | Promise


TIEBREAK_LABELS: dict[Tiebreak, TiebreakLabel] = {
    Tiebreak.BUCHHOLZ_CUT1: TiebreakLabel(_("BH-C1"), _("Buchholz Cut-1")),
    Tiebreak.BUCHHOLZ_CUT2: TiebreakLabel(_("BH-C2"), _("Buchholz Cut-2")),
    Tiebreak.BUCHHOLZ: TiebreakLabel(_("BH"), _("Buchholz")),
    Tiebreak.SONNEBORN_BERGER: TiebreakLabel(_("SB"), _("Sonneborn-Berger")),
    Tiebreak.DIRECT_ENCOUNTER: TiebreakLabel(_("DE"), _("Direct encounter")),
    Tiebreak.WINS: TiebreakLabel(_("Wins"), _("Games won over the board")),
    Tiebreak.ROUNDS_WON: TiebreakLabel(_("WIN"), _("Rounds won, forfeits and byes included")),
}
