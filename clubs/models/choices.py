"""The choices a club night is started with: its pairing system, what the pairing-allocated
bye scores, seed 1's first colour, the byes a player may ask for and what a late entrant's
missed rounds score. Re-exported from clubs.models."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import models
from django.utils.translation import gettext_lazy as _

from clubs.results import Result


class PairingSystem(models.TextChoices):
    SWISS = "swiss", _("Swiss (FIDE Dutch)")
    ROUND_ROBIN = "roundrobin", _("Round robin")
    DOUBLE_ROUND_ROBIN = "roundrobin2", _("Double round robin")


ROUND_ROBINS = frozenset({PairingSystem.ROUND_ROBIN, PairingSystem.DOUBLE_ROUND_ROBIN})


class PairingBye(models.TextChoices):
    """What the pairing-allocated bye of a club night scores, stored as its result code."""

    FULL = Result.BYE_PAIRING.value, _("1 point")
    HALF = Result.BYE_PAIRING_HALF.value, _("½ point")
    ZERO = Result.BYE_PAIRING_ZERO.value, _("0 points")


class FirstColour(models.TextChoices):
    WHITE = "white", _("White")
    BLACK = "black", _("Black")


class RequestedBye(models.TextChoices):
    """A bye a player asks for, by its TRF16 code. A club (Club.requestable_byes) and each
    evening (Event.requestable_byes) keep the ones the director allows as a string of these
    letters, in this order ("H": only the half-point bye, as before issue 36)."""

    ZERO = "Z", _("0 points")
    HALF = "H", _("½ point")
    FULL = "F", _("1 point")


# What each requested bye is stored as (a Game without an opponent).
REQUESTED_BYE_RESULTS: dict[str, Result] = {
    RequestedBye.ZERO: Result.BYE_ZERO,
    RequestedBye.HALF: Result.BYE_HALF,
    RequestedBye.FULL: Result.BYE_FULL,
}


def byes_text(letters: Iterable[str]) -> str:
    """The allowed byes as stored: the known letters once each, in RequestedBye's order
    (a string "FH" or a form's list ["H", "F"] alike). Raises ValueError for anything else
    (a forged form), or for none at all."""
    given = list(letters)
    if not given or any(letter not in RequestedBye.values for letter in given):
        raise ValueError(letters)
    return "".join(letter for letter in RequestedBye.values if letter in given)


class MissedRounds(models.TextChoices):
    """What a late entrant's rounds before they joined score: an absence (TRF "Z") or a
    half-point bye (TRF "H"), as the director chooses when adding them."""

    ABSENT = "Z", _("Absent: 0 points")
    HALF = "H", _("A half-point bye each")
