"""The boards of a club night's paired rounds (directors/night/evening.py).

Part of the clubs app's models (clubs/models/__init__.py imports them so Django registers them).
A board is a pairing; its result, once entered, is an ordinary Game of the event, so the
standings, the exports and publishing read club nights and uploaded events alike.
"""

from __future__ import annotations

from typing import ClassVar

from django.apps import apps
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Evening(models.Model):
    """One club night of several sections: checked in once, then split (by rating, by age
    group or per player) into sections that are each an ordinary Event (same date and kind,
    consecutive order_in_day, `Event.section` naming it). The evening holds no result: it
    only ties the sections together for the check-in, late arrivals, moves between sections
    and the screens that show them side by side.

    A small model rather than a link from each section to the first: with a self-link one
    section would be the group, so deleting, unpublishing or renaming it would change what
    the others belong to, and "which evening" would be a question about an event's
    results. Here every section is equal and the group outlives any one of them."""

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=150)  # the evening's name, without a section's
    date = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class Round(models.Model):
    """A club night's round as paired: its pairing version, which moves on every pairing,
    re-pairing and manual change of its boards, so a screen or command that shows one
    pairing cannot store a result for another (directors/night/rounds.py)."""

    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    pairing = models.PositiveIntegerField(default=0)
    # A result of an earlier round was changed after this round was paired: it stays as
    # paired (arbiters' practice), and the screens say it was paired on the old result.
    paired_before_correction = models.BooleanField(default=False)
    # The boards as the engine paired them, {board number: [white entry id, black or None]},
    # so a hand change undone clears its "changed by the director" mark (directors/night/
    # changes.py). Empty for a round paired before issue 36: its marks then stay.
    engine_boards = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "number"], name="night_round_once"),
        ]

    def __str__(self) -> str:
        return f"R{self.number} pairing {self.pairing}"

    @classmethod
    def bump_pairing(cls, event_id: int, number: int) -> int:
        """Move the round's pairing version on (call it inside the change's transaction,
        after the boards changed) and return the new one."""
        cls.objects.get_or_create(event_id=event_id, number=number)
        cls.objects.filter(event_id=event_id, number=number).update(pairing=F("pairing") + 1)
        return cls.pairing_of(event_id, number)

    @classmethod
    def pairing_of(cls, event_id: int, number: int) -> int:
        """The round's pairing version; 0 for a round never paired."""
        found = cls.objects.filter(event_id=event_id, number=number).values_list("pairing")
        return next((version for (version,) in found), 0)


class BoardQuerySet(models.QuerySet["Board"]):
    def follow_games(self, event_id: int, *, published: bool) -> None:
        """After the event's games were replaced (a file, pasted CSV or the results grid),
        point each board at the game its pair now plays in that round, colours as the game
        has them. A board whose pair has no game left waits for a result again, unless the
        event is published (its games are then the whole truth) or it was a bye: then that
        board goes. A round whose boards changed is paired anew, as far as an open screen
        can tell."""
        # clubs.models imports this module: the Game model is looked up, not imported.
        game_model = apps.get_model("clubs", "Game")
        games = game_model._default_manager.filter(event_id=event_id).values_list(
            "pk", "round", "white_id", "black_id"
        )
        by_pair = {(rnd, frozenset({w, b}) - {None}): (pk, w, b) for pk, rnd, w, b in games}
        changed: list[Board] = []
        gone: list[int] = []
        moved_rounds: set[int] = set()
        for board in self.filter(event_id=event_id):
            found = by_pair.get((board.round, frozenset({board.white_id, board.black_id}) - {None}))
            if found is None:
                # Unpublished, a board without its game waits for a result again; a bye
                # without its game is no bye any more.
                if published or board.black_id is None:
                    gone.append(board.pk)
                    moved_rounds.add(board.round)
                elif board.game_id is not None:
                    board.game_id = None
                    changed.append(board)
                continue
            pk, white, black = found
            if (board.white_id, board.black_id) != (white, black):
                moved_rounds.add(board.round)
            if (board.game_id, board.white_id, board.black_id) != (pk, white, black):
                board.game_id, board.white_id, board.black_id = pk, white, black
                changed.append(board)
        self.filter(pk__in=gone).delete()
        self.bulk_update(changed, ["game", "white", "black"], batch_size=1000)
        for number in sorted(moved_rounds):
            Round.bump_pairing(event_id, number)


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
    # (directors/night/changes.py): the pairing sheet and the TRF export say so.
    changed_by_director = models.BooleanField(default=False)

    objects = BoardQuerySet.as_manager()

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


class NightTap(models.Model):
    """One result tap of the director's results screen that was applied, by the key the
    browser gave it (directors/night/taps.py). A tap kept offline may reach the server twice
    (the answer was lost on a failing network): the second finds its key here and is answered
    with the same outcome, without a second write or audit line."""

    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="+")
    key = models.UUIDField()
    round = models.PositiveSmallIntegerField()
    board = models.PositiveSmallIntegerField()
    result = models.CharField(max_length=5)
    created = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["event", "key"], name="night_tap_key_once"),
        ]

    def __str__(self) -> str:
        return f"tap {self.key} R{self.round} board {self.board}"


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


class BoardCode(models.Model):
    """The short code printed with a board's result slip (clubs/board_codes.py), by which the
    two players report their result from a phone (directors/night/board_reports.py).

    Bound to the board's place (event, round, number), the round's pairing version and the
    pair's entry ids, all as they were when it was made: it outlives the board, so a slip of
    an old pairing is told so, and it never records a result for another pair."""

    event = models.ForeignKey("clubs.Event", on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    pairing = models.PositiveIntegerField()
    white_entry = models.PositiveBigIntegerField()
    black_entry = models.PositiveBigIntegerField()
    code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["event", "round", "number", "pairing"], name="board_code_once_a_pairing"
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round} board {self.number} pairing {self.pairing}"


class BoardReport(models.Model):
    """What one side said at the board through its code: one row a side, replaced while the
    result is not stored, kept afterwards for the director's screen."""

    class Side(models.TextChoices):
        WHITE = "white", _("White")
        BLACK = "black", _("Black")

    code = models.ForeignKey(BoardCode, on_delete=models.CASCADE, related_name="reports")
    side = models.CharField(max_length=5, choices=Side.choices)
    result = models.CharField(max_length=8)
    reported_at = models.DateTimeField()

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["code", "side"], name="board_report_once_a_side"),
        ]

    def __str__(self) -> str:
        return f"{self.side} says {self.result}"
