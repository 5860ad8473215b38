"""The choices a club night is started with: its pairing system, what the pairing-allocated
bye scores, and seed 1's first colour. Re-exported from clubs.models."""

from __future__ import annotations

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
