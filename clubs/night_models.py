"""The boards of a club night's paired rounds (clubs/club_night.py).

Part of the clubs app's models (clubs/models.py imports them so Django registers them).
A board is a pairing; its result, once entered, is an ordinary Game of the event, so the
standings, the exports and publishing read club nights and uploaded events alike.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q


class Board(models.Model):
    """One pairing of a club night's round, or the pairing-allocated bye when black is empty
    (its Game is made when the round is paired; a board's Game when its result is in)."""

    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="boards")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    white = models.ForeignKey("clubs.Entry", on_delete=models.CASCADE, related_name="+")
    black = models.ForeignKey(
        "clubs.Entry", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.OneToOneField(
        "clubs.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="board"
    )
    # The director swapped players or colours by hand after the engine paired the round
    # (clubs/night_changes.py): the pairing sheet and the TRF export say so.
    changed_by_director = models.BooleanField(default=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "number"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["event", "round", "number"], name="board_number_once_per_round"
            ),
            models.CheckConstraint(
                condition=~Q(white=models.F("black")), name="board_not_against_oneself"
            ),
            models.CheckConstraint(condition=Q(round__gte=1), name="board_round_from_one"),
        ]

    def __str__(self) -> str:
        return f"R{self.round} board {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.black_id is None


class NeverPair(models.Model):
    """Two roster players the pairing keeps apart (siblings, a parent and child): the
    club's list, or one evening's own when `event` is set. `first` has the lower id, so a
    pair is stored once whichever way round it was typed."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="never_pairs")
    event = models.ForeignKey(
        "clubs.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="never_pairs"
    )
    first = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(first__lt=models.F("second")), name="never_pair_in_order"
            ),
            models.UniqueConstraint(
                fields=["club", "first", "second"],
                condition=Q(event__isnull=True),
                name="never_pair_once_per_club",
            ),
            models.UniqueConstraint(
                fields=["event", "first", "second"],
                condition=Q(event__isnull=False),
                name="never_pair_once_per_event",
            ),
        ]

    def __str__(self) -> str:
        return f"never pair {self.first_id} and {self.second_id}"


class NightRound(models.Model):
    """A paired round of a club night, for what belongs to the round rather than a board:
    its pairing version, moved by every change of the round's pairing, so a screen that
    showed an older pairing is known to be out of date."""

    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    pairing_version = models.PositiveIntegerField(default=0)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "number"], name="night_round_once"),
        ]

    def __str__(self) -> str:
        return f"round {self.number} (pairing {self.pairing_version})"
