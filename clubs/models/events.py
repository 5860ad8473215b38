"""A club's events, the names entered in each and the games between them.

Part of the clubs app's models, re-exported from clubs/models/__init__.py.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, ClassVar

from django.db import models
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.labels.results import RESULT_CHOICES
from clubs.models.choices import FirstColour, PairingBye, PairingSystem
from clubs.models.club import Club, Ladder, NewcomerStart
from clubs.results import BUGHOUSE, Result, moves_ladder

if TYPE_CHECKING:
    from clubs.models.night import Board


def new_share_token() -> str:
    # An event's own results link: as strong as the club's secret and unrelated to it.
    return secrets.token_urlsafe(24)


class EventQuerySet(models.QuerySet["Event"]):
    def moving_ladder(self) -> EventQuerySet:
        return self.filter(rated=True).exclude(kind=BUGHOUSE)

    def not_deleted(self) -> EventQuerySet:
        return self.filter(deleted_at__isnull=True)

    def published(self) -> EventQuerySet:
        return self.not_deleted().filter(status=Event.Status.PUBLISHED)

    def count_before(self, event: Event, ladder: Ladder | None) -> int:
        """How many published events of the ladder come before `event` in its order (0 for no
        ladder: an event no ladder rates has no place in any)."""
        if ladder is None:
            return 0
        return (
            self.filter(club_id=event.club_id, kind__in=ladder.event_kinds())
            .published()
            .exclude(pk=event.pk)
            .filter(
                Q(date__lt=event.date)
                | Q(date=event.date, order_in_day__lt=event.order_in_day)
                | Q(
                    date=event.date,
                    order_in_day=event.order_in_day,
                    created_at__lt=event.created_at,
                )
                | Q(
                    date=event.date,
                    order_in_day=event.order_in_day,
                    created_at=event.created_at,
                    pk__lt=event.pk,
                )
            )
            .count()
        )

    def in_ladder_order(self) -> EventQuerySet:
        return self.order_by("date", "order_in_day", "created_at", "id")


class Event(models.Model):
    class Kind(models.TextChoices):
        STANDARD = "standard", _("Standard")
        RAPID = "rapid", _("Rapid")
        BLITZ = "blitz", _("Blitz")
        BUGHOUSE = BUGHOUSE, _("Bughouse")
        OTHER = "other", _("Other")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=150)
    date = models.DateField()
    order_in_day = models.PositiveSmallIntegerField(
        default=0, help_text=_("Orders events on the same day: lower is earlier.")
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.STANDARD)
    rated = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    deleted_at = models.DateTimeField(null=True, blank=True)
    # Incremented on every saved edit; a save based on an older version is refused.
    edit_version = models.PositiveIntegerField(default=0)
    # Opens this published event's results pages and nothing else
    # (members.web.event_views.shared_event), so sharing one event never shares the club's secret.
    share_token = models.CharField(
        max_length=64, default=new_share_token, unique=True, editable=False
    )
    # The results file gave no round numbers, so the importer numbered its games into rounds
    # in file order; the preview says so until the director saves the results grid.
    rounds_from_order = models.BooleanField(default=False)
    # Which date the imported file gave and from which record (directors.date_notes.stored_date),
    # for the preview; None when the results came without one (the grid, pasted CSV).
    file_date = models.JSONField(null=True, blank=True, editable=False)
    # Chosen with the results file (default: the club's setting); the names step starts the
    # new players it makes from this event's entrants accordingly. Not a ladder input: the
    # players' own start_rating is.
    newcomer_start = models.CharField(
        max_length=4, choices=NewcomerStart.choices, default=NewcomerStart.CLUB
    )
    # Run here as a club night (directors/night/evening.py): how rounds are paired, how many are
    # planned and what the pairing-allocated bye scores. Blank for results that arrived whole
    # (a file, the grid). Until published, a club night never touches the ladder.
    pairing_system = models.CharField(
        max_length=12, choices=PairingSystem.choices, blank=True, default=""
    )
    planned_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # Results that arrived whole are a round robin only when their file says so (a TRF's 092
    # type, a PGN's EventType): games that happen to form an all-play-all may be a Swiss
    # (9 players, 9 rounds), whose byes count against a dummy opponent (FIDE C.07 art. 16).
    # A club night's pairing_system says it instead.
    round_robin = models.BooleanField(default=False)
    pairing_bye = models.CharField(
        max_length=5, choices=PairingBye.choices, default=PairingBye.FULL
    )
    # The colour seed 1 has on board 1 of round 1 (drawn once by lot if the director asked
    # for that, so pairing a round again gives the same boards), and whether the Swiss
    # rounds are accelerated (FIDE C.04.5.1, Baku) for pairing.
    first_colour = models.CharField(
        max_length=5, choices=FirstColour.choices, default=FirstColour.WHITE
    )
    first_colour_by_lot = models.BooleanField(default=False)
    accelerated = models.BooleanField(default=False)
    # One section of a club night with several (clubs.models.night.Evening): the evening it
    # was checked in with and its name there ("Minor"); the event's own name already ends
    # with it ("Club night – Minor"), so every page, export and series names it unchanged.
    # Blank and None for an evening of one section and for every event not run here.
    evening = models.ForeignKey(
        "clubs.Evening", null=True, blank=True, on_delete=models.SET_NULL, related_name="sections"
    )
    section = models.CharField(max_length=40, blank=True, default="")
    # A club night's own choice about results reported at the board; None: the club's setting
    # (Club.board_reports). See reports_at_board.
    board_reports = models.BooleanField(null=True, blank=True, default=None)
    # The byes a player of this club night may ask for (TRF letters, clubs.models.choices.
    # RequestedBye): the club's when the evening started, changed on the evening screen.
    requestable_byes = models.CharField(max_length=3, default="H")
    created_at = models.DateTimeField(default=timezone.now)

    objects = EventQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["-date", "-order_in_day", "-created_at"]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["club", "date", "order_in_day", "created_at"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED and self.deleted_at is None

    @property
    def moves_ladder(self) -> bool:
        return moves_ladder(self.rated, self.kind)

    def paired_rounds(self) -> int:
        """How many rounds of a club night have been paired (0 before the first)."""
        return self.boards.aggregate(last=Max("round"))["last"] or 0

    def round_boards(self, round_number: int) -> list[Board]:
        """One paired round's boards in board order, with their players and game."""
        return list(
            self.boards.filter(round=round_number)
            .select_related("white__player", "black__player", "game")
            .order_by("number")
        )

    def sections(self) -> list[Event]:
        """Every section of this event's evening in their order (the highest first), this one
        among them; just this event when it was not run as one of several sections."""
        if self.evening_id is None:
            return [self]
        return list(
            Event.objects.filter(evening_id=self.evening_id, club_id=self.club_id)
            .not_deleted()
            .select_related("club")
            .order_by("order_in_day", "id")
        )

    @property
    def reports_at_board(self) -> bool:
        """Whether the players of this club night report results with their slips' codes."""
        if self.board_reports is not None:
            return self.board_reports
        return bool(self.club.board_reports)

    def rotate_share_token(self) -> None:
        self.share_token = new_share_token()
        self.save(update_fields=["share_token"])


class Entry(models.Model):
    """A name as typed in one event; linked to a Player once a director confirms it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    typed_name = models.CharField(max_length=120)
    # By name: clubs.models.players reads this module (which players are public), not back.
    player = models.ForeignKey(
        "clubs.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    start_rank = models.PositiveIntegerField(null=True, blank=True)
    rating_in_file = models.PositiveSmallIntegerField(null=True, blank=True)
    # The file's own final rank (TRF columns 86-89), decided by its program's tie-breaks: the
    # event page follows it when it agrees with the points (ladder.rules.file_ranks).
    rank_in_file = models.PositiveIntegerField(null=True, blank=True)
    junior_in_file = models.BooleanField(null=True, blank=True)
    # The file's public rating-list columns, shown under Names to tell two people apart:
    # the player's ID (TRF columns 58-68, a PGN FideId tag; a national number in some files)
    # and federation (TRF columns 54-56). Never a birth date.
    fide_id = models.CharField(max_length=11, blank=True, default="")
    federation = models.CharField(max_length=3, blank=True, default="")

    # A club night pairs this entrant no more from this round on (withdrawn).
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # A club night's late entrant is paired from this round on; the rounds before it are
    # games without an opponent, an absence or a half-point bye (directors.night.evening.
    # add_entrant). None: in from the start.
    joined_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["start_rank", "id"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return self.typed_name


class Game(models.Model):
    """One pairing of a round, or a bye when black is empty."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField()
    white = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="games_as_white")
    black = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="games_as_black"
    )
    result = models.CharField(max_length=5, choices=RESULT_CHOICES)
    # The variant's name (Chess960, Crazyhouse, "From Position", ...) when the game was not
    # standard chess; empty for standard chess. The ladder is standard chess only: a variant
    # game scores in the standings and is never rated, like bughouse.
    variant = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering: ClassVar[list[str]] = ["round", "id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(condition=Q(round__gte=1), name="game_round_from_one"),
            models.CheckConstraint(
                condition=~Q(white=models.F("black")), name="game_not_against_oneself"
            ),
            # A bye has no opponent and every game with an opponent is not a bye.
            models.CheckConstraint(
                condition=(
                    Q(black__isnull=True, result__in=[r.value for r in Result if r.is_bye])
                    | Q(black__isnull=False, result__in=[r.value for r in Result if not r.is_bye])
                ),
                name="game_bye_iff_no_opponent",
            ),
        ]

    def __str__(self) -> str:
        return f"R{self.round}: {self.white} {self.result} {self.black or ''}".strip()

    @property
    def result_code(self) -> Result:
        return Result(self.result)
