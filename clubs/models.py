"""Clubs, the people who run them, their players, events, entries and games."""

from __future__ import annotations

import secrets
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import (
    AbstractBaseUser,
    AnonymousUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.night.choices import ROUND_ROBINS as ROUND_ROBINS
from clubs.night.choices import FirstColour as FirstColour
from clubs.night.choices import PairingBye as PairingBye
from clubs.night.choices import PairingSystem as PairingSystem

# The policy registry is pure computation (no Django, no models, nothing of clubs/): the
# model reads only its names and labels for the field's choices.
from ladder.policies import POLICIES
from ladder.result_labels import RESULT_CHOICES
from ladder.results import BUGHOUSE, Result, moves_ladder


def new_club_secret() -> str:
    # 24 random bytes: 192 bits, comfortably above the 128 the privacy rules ask for.
    return secrets.token_urlsafe(24)


def new_share_token() -> str:
    # An event's own results link: as strong as the club's secret and unrelated to it.
    return secrets.token_urlsafe(24)


def policy_choices() -> list[tuple[str, str]]:
    return [(name, getattr(policy, "label", name)) for name, policy in POLICIES.items()]


class UserManager(BaseUserManager["User"]):
    use_in_migrations = True

    def create_user(self, email: str, password: str | None = None, **extra: Any) -> User:
        if not email:
            raise ValueError("An e-mail address is required")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_superuser(self, email: str, password: str | None = None, **extra: Any) -> User:
        extra.setdefault("is_staff", True)
        extra.setdefault("is_superuser", True)
        return self.create_user(email, password, **extra)


class User(AbstractBaseUser, PermissionsMixin):
    """A person who signs in: a club's owner or director, or platform staff."""

    email = models.EmailField(_("e-mail address"), unique=True)
    name = models.CharField(_("name"), max_length=150, blank=True)
    is_staff = models.BooleanField(default=False)
    is_active = models.BooleanField(default=True)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS: ClassVar[list[str]] = []

    def __str__(self) -> str:
        return self.email


class NewcomerStart(models.TextChoices):
    """Where a new player made from an entrant of an imported file starts: the club's start
    rating, or the rating the file printed for them (start games stay 0: still provisional)."""

    CLUB = "club", _("At the club's start rating")
    FILE = "file", _("At the rating in the file, where it gives one")


class ClubQuerySet(models.QuerySet["Club"]):
    def directed_by(self, user: User | AnonymousUser) -> ClubQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(roles__user=user)

    def ladder_out_of_date(self) -> ClubQuerySet:
        return self.filter(built_version__lt=models.F("data_version"))


class Club(models.Model):
    class Visibility(models.TextChoices):
        DIRECTOR = "director", _("Directors only")
        UNLISTED = "unlisted", _("Unlisted: anyone with the secret link")
        PUBLIC = "public", _("Public")

    class NameDisplay(models.TextChoices):
        FULL = "full", _("Full names")
        INITIALS = "initials", _("Initials")

    slug = models.SlugField(unique=True, max_length=60)
    name = models.CharField(max_length=120)
    rating_policy = models.CharField(max_length=30, choices=policy_choices, default="ladder")
    rating_settings = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.UNLISTED
    )
    name_display = models.CharField(
        max_length=10, choices=NameDisplay.choices, default=NameDisplay.FULL
    )
    language = models.CharField(max_length=8, choices=settings.LANGUAGES, default="en")
    # The upload screen's default for its starting-ratings choice (Event.newcomer_start).
    newcomer_start = models.CharField(
        max_length=4, choices=NewcomerStart.choices, default=NewcomerStart.CLUB
    )
    # The tie-break codes of ladder.tiebreaks.Tiebreak, in the club's order, for every
    # event's standings; empty means FIDE's recommended default (ladder.tiebreaks.DEFAULT_ORDER).
    tiebreak_order = models.JSONField(default=list, blank=True)
    secret = models.CharField(max_length=64, default=new_club_secret, unique=True)
    # The ladder is up to date when built_version == data_version. Every change
    # to a ladder input increments data_version in the same transaction.
    data_version = models.PositiveBigIntegerField(default=0)
    built_version = models.PositiveBigIntegerField(default=0)
    out_of_date_since = models.DateTimeField(null=True, blank=True)
    # The earliest event date a change since the last replay said it can affect (None when
    # none said): the replay starts no later than there, whatever the fingerprints say.
    replay_from = models.DateField(null=True, blank=True)
    # Set by "rebuild ladder": the next replay ignores stored results and starts at the first event.
    full_rebuild_requested = models.BooleanField(default=False)
    # What the club's pages show beyond its own row and its ladder versions: names, a
    # family's consent, events' names, who is on the roster. ladder.changes.club_changed
    # (shown=True) bumps it, and every cache is keyed on it (ladder/web/page_cache.py).
    pages_version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(built_version__lte=models.F("data_version")),
                name="club_built_version_not_ahead",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def ladder_is_current(self) -> bool:
        return self.built_version >= self.data_version

    def is_directed_by(self, user: User | AnonymousUser) -> bool:
        return user.is_authenticated and self.roles.filter(user=user).exists()

    def is_owned_by(self, user: User | AnonymousUser) -> bool:
        return (
            user.is_authenticated
            and self.roles.filter(user=user, role=ClubRole.Role.OWNER).exists()
        )

    def page_is_active(self) -> bool:
        """Whether visitors see the club page; always True while billing is off.

        Read from the club's own subscription rows (`billing.models.Subscription`, whose
        `active()` says which Stripe statuses count), so the model needs no billing code.
        """
        if not settings.BILLING_ENABLED:
            return True
        return self.subscriptions.active().exists()

    def rotate_secret(self) -> None:
        self.secret = new_club_secret()
        self.save(update_fields=["secret"])


class ClubRole(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        DIRECTOR = "director", _("Director")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_roles"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.DIRECTOR)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["club", "user"], name="one_role_per_user_per_club"),
            models.UniqueConstraint(
                fields=["club"], condition=Q(role="owner"), name="one_owner_per_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) of {self.club}"


class PlayerQuerySet(models.QuerySet["Player"]):
    def active(self) -> PlayerQuerySet:
        """Players not merged into another one."""
        return self.filter(merged_into__isnull=True)

    def on_ladder(self) -> PlayerQuerySet:
        return self.active().filter(rated_games__gt=0, rating__isnull=False)

    def in_ladder_order(self) -> PlayerQuerySet:
        """Established players by rating, then provisional players by rating."""
        return self.order_by("provisional", "-rating", "name", "id")

    def public(self) -> PlayerQuerySet:
        """Players the club's pages, exports and commands may show: every player but one
        held, and a held player while an event they play in is published. Every read for
        visitors starts here (ladder.rosters), so a name first met in a draft stays off them."""
        return self.filter(Q(held=False) | Exists(_published_entries()))

    def held_back(self) -> PlayerQuerySet:
        """The held players no page shows yet: no event of theirs is published."""
        return self.filter(held=True).exclude(Exists(_published_entries()))


def _published_entries() -> QuerySet[Entry]:
    return Entry.objects.filter(
        player=OuterRef("pk"), event__status=Event.Status.PUBLISHED, event__deleted_at__isnull=True
    )


class Player(models.Model):
    """A member of a club's ladder. Holds a name and results, nothing more personal."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=120)
    name_key = models.CharField(max_length=255, blank=True, db_index=True)
    junior = models.BooleanField(default=False)
    full_name_consent = models.BooleanField(
        default=False, help_text=_("The family agreed that a junior's full name may be shown.")
    )
    # A director's estimate for a newcomer, or the rating a club brought from
    # its old ladder; with start_games it is the state before the first event.
    start_rating = models.FloatField(null=True, blank=True)
    start_games = models.PositiveIntegerField(default=0)
    # Set while this player is merged into another; cleared when the merge is undone.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_players"
    )
    # Written only by the ladder replay.
    rating = models.FloatField(null=True, blank=True)
    rated_games = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    last_played = models.DateField(null=True, blank=True)
    last_change = models.FloatField(null=True, blank=True)
    # First met in a draft (a names decision, a club night's newcomer) rather than added by
    # a director: shown on the club's pages only while an event of theirs is published
    # (PlayerQuerySet.public), until a director adds them to the roster, which clears it.
    held = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name", "id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=~Q(merged_into=models.F("id")), name="player_not_merged_into_itself"
            ),
            models.CheckConstraint(
                condition=Q(start_rating__isnull=True)
                | Q(start_rating__gte=0, start_rating__lte=4000),
                name="player_start_rating_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerAlias(models.Model):
    """Another spelling under which a player has appeared (kept after a merge)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="aliases")
    name = models.CharField(max_length=120)
    name_key = models.CharField(max_length=255, blank=True, db_index=True)

    class Meta:
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["player", "name"], name="unique_alias_per_player"),
        ]

    def __str__(self) -> str:
        return self.name


class EventQuerySet(models.QuerySet["Event"]):
    def moving_ladder(self) -> EventQuerySet:
        return self.filter(rated=True).exclude(kind=BUGHOUSE)

    def not_deleted(self) -> EventQuerySet:
        return self.filter(deleted_at__isnull=True)

    def published(self) -> EventQuerySet:
        return self.not_deleted().filter(status=Event.Status.PUBLISHED)

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
    # (ladder.web.event_views.shared_event), so sharing one event never shares the club's secret.
    share_token = models.CharField(
        max_length=64, default=new_share_token, unique=True, editable=False
    )
    # The results file gave no round numbers, so the importer numbered its games into rounds
    # in file order; the preview says so until the director saves the results grid.
    rounds_from_order = models.BooleanField(default=False)
    # Which date the imported file gave and from which record (clubs.date_notes.stored_date),
    # for the preview; None when the results came without one (the grid, pasted CSV).
    file_date = models.JSONField(null=True, blank=True, editable=False)
    # Chosen with the results file (default: the club's setting); the names step starts the
    # new players it makes from this event's entrants accordingly. Not a ladder input: the
    # players' own start_rating is.
    newcomer_start = models.CharField(
        max_length=4, choices=NewcomerStart.choices, default=NewcomerStart.CLUB
    )
    # Run here as a club night (clubs/night/evening.py): how rounds are paired, how many are
    # planned and what the pairing-allocated bye scores. Blank for results that arrived whole
    # (a file, the grid). Until published, a club night never touches the ladder.
    pairing_system = models.CharField(
        max_length=12, choices=PairingSystem.choices, blank=True, default=""
    )
    planned_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
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

    def rotate_share_token(self) -> None:
        self.share_token = new_share_token()
        self.save(update_fields=["share_token"])


class Entry(models.Model):
    """A name as typed in one event; linked to a Player once a director confirms it."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    typed_name = models.CharField(max_length=120)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    start_rank = models.PositiveIntegerField(null=True, blank=True)
    rating_in_file = models.PositiveSmallIntegerField(null=True, blank=True)
    # The file's own final rank (TRF columns 86-89), decided by its program's tie-breaks: the
    # event page follows it when it agrees with the points (ladder.file_ranks).
    rank_in_file = models.PositiveIntegerField(null=True, blank=True)
    junior_in_file = models.BooleanField(null=True, blank=True)
    # The file's public rating-list columns, shown under Names to tell two people apart:
    # the player's ID (TRF columns 58-68, a PGN FideId tag; a national number in some files)
    # and federation (TRF columns 54-56). Never a birth date.
    fide_id = models.CharField(max_length=11, blank=True, default="")
    federation = models.CharField(max_length=3, blank=True, default="")

    # A club night pairs this entrant no more from this round on (withdrawn).
    withdrawn_from_round = models.PositiveSmallIntegerField(null=True, blank=True)

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


# Records that keep accounts safe live beside the code that reads them; imported here so
# Django registers them with the clubs app.
from clubs.accounts.models import ClubInvitation as ClubInvitation  # noqa: E402
from clubs.accounts.models import LoginThrottle as LoginThrottle  # noqa: E402
from clubs.accounts.models import SignInLink as SignInLink  # noqa: E402
from clubs.events.upload_models import Upload as Upload  # noqa: E402
from clubs.night.models import Board as Board  # noqa: E402
from clubs.night.models import NeverPair as NeverPair  # noqa: E402
from clubs.night.models import Round as Round  # noqa: E402
from clubs.record_models import AuditEntry as AuditEntry  # noqa: E402
from clubs.record_models import DuplicateDismissal as DuplicateDismissal  # noqa: E402
from clubs.record_models import Merge as Merge  # noqa: E402
