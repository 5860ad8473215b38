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
