"""Pairings for a club night (pure, no Django): swiss.py pairs a FIDE Dutch Swiss round with
py4swiss, the only module that speaks to it; fixed.py holds what the rules fix without an
engine (the Berger tables, a Dutch round 1 in one score group, the Baku figures).
"""

from directors.night.pairing.fixed import PairingImpossible as PairingImpossible
from directors.night.pairing.fixed import RoundPairing as RoundPairing
from directors.night.pairing.fixed import baku_group_size as baku_group_size
from directors.night.pairing.fixed import baku_virtual_points as baku_virtual_points
from directors.night.pairing.fixed import round_robin as round_robin
from directors.night.pairing.swiss import NO_DIRECTOR_RULES as NO_DIRECTOR_RULES
from directors.night.pairing.swiss import SLOW_PAIRING_FIELD as SLOW_PAIRING_FIELD
from directors.night.pairing.swiss import DirectorRules as DirectorRules
from directors.night.pairing.swiss import Entrant as Entrant
from directors.night.pairing.swiss import PastGame as PastGame
from directors.night.pairing.swiss import max_swiss_rounds as max_swiss_rounds
from directors.night.pairing.swiss import pair_swiss as pair_swiss
