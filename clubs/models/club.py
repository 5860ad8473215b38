"""Who signs in and what they run: users, clubs and the roles that tie the two.

Part of the clubs app's models, re-exported from clubs/models/__init__.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection
from typing import TYPE_CHECKING, Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth.models import (
    AbstractBaseUser,
    AnonymousUser,
    BaseUserManager,
    PermissionsMixin,
)
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _

from clubs.models.choices import MissedRounds
from clubs.rating_policies import POLICY_LABELS
from clubs.results import BUGHOUSE

if TYPE_CHECKING:
    from clubs.models.events import Event


def new_club_secret() -> str:
    # 24 random bytes: 192 bits, comfortably above the 128 the privacy rules ask for.
    return secrets.token_urlsafe(24)


def policy_choices() -> list[tuple[str, str]]:
    return list(POLICY_LABELS.items())


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

    def with_ladders(self, slug: str) -> Club | None:
        """The club of `slug` with its ladders, the first first (Club.ladder_rows), in one
        query of the ladders joined to their club: what its pages' keys need of them and its
        first ladder then cost no query.

        The one query that aggregated the ladders and read the first one's columns in eleven
        subqueries cost every club page ~10 ms of the ORM's compiling and ~3 ms of
        PostgreSQL's planning, more than a page of one query itself."""
        # Whether the club runs a Grand Prix series (its pages' menu links them) and whether it
        # has a schedule (its front page's next dates) ride along in the same query, asked of
        # the club through its reverse relations, so a club without either pays no query.
        ladders = list(
            Ladder.objects.filter(club__slug=slug)
            .select_related("club")
            .annotate(
                club_has_series=models.Exists(
                    Club.objects.filter(pk=models.OuterRef("club"), series__isnull=False)
                ),
                club_has_schedule=models.Exists(
                    Club.objects.filter(pk=models.OuterRef("club"), schedule__isnull=False)
                ),
            )
            .order_by("position", "id")
        )
        if not ladders:  # a club has its first ladder from its creation on; just in case
            club = self.filter(slug=slug).first()
        else:
            club = ladders[0].club
            for ladder in ladders:
                ladder.club = club  # one club object, as the rest of the request sees it
        if club is not None:
            club.ladder_rows = ladders  # type: ignore[attr-defined]
        return club

    def ladder_out_of_date(self) -> ClubQuerySet:
        """Clubs with at least one ladder out of date."""
        return self.filter(ladders__built_version__lt=models.F("ladders__data_version")).distinct()


def default_time_zone() -> str:
    """A new club's time zone: the server's (settings.TIME_ZONE). A function, so the
    migration does not freeze the value of one server's environment."""
    return str(settings.TIME_ZONE)


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
    # The club nights' byes (clubs.models.choices): which a player may ask for, as TRF letters
    # ("ZHF"; each evening starts with these and may change them), and what a late entrant's
    # missed rounds score by default ("Z" absent, "H" a half-point bye).
    requestable_byes = models.CharField(max_length=3, default="H")
    missed_rounds = models.CharField(
        max_length=1, choices=MissedRounds.choices, default=MissedRounds.ABSENT
    )
    # The month (1-12) the club's season starts; its seasons are read by ladder.seasons.
    season_start_month = models.PositiveSmallIntegerField(choices=MONTHS.items(), default=9)
    secret = models.CharField(max_length=64, default=new_club_secret, unique=True)
    # The IANA name of the club's time zone ("Europe/Berlin"): its schedule's start times are
    # wall-clock times there, and its calendar feed says so.
    time_zone = models.CharField(max_length=64, default=default_time_zone)
    # The websites allowed to frame the club's embeds and read its API from a browser
    # (origins normalised by clubs.embed_origins, e.g. "https://example.org"); empty: none.
    embed_origins = models.JSONField(default=list, blank=True)
    # Players report their club nights' results at the board with the code on their slip
    # (directors/night/board_reports.py); each evening may say otherwise (Event.board_reports).
    board_reports = models.BooleanField(default=True)
    # The club's ladders (clubs.models.Ladder) hold their policy, settings and replay
    # state. The earliest event date a change since the last replay said it can affect
    # (None when none said), shared by the club's ladders as a lower bound: each replay
    # starts no later than there, whatever the fingerprints say; cleared when every
    # ladder of the club is current.
    replay_from = models.DateField(null=True, blank=True)
    # What the club's pages show beyond its own row and its ladder versions: names, a
    # family's consent, events' names, who is on the roster. ladder.changes.club_changed
    # (OnPages) bumps it, and every cache is keyed on it (members/web/page_cache.py).
    pages_version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone(self) -> ZoneInfo:
        """The club's time zone; a name this server's zone database lacks (a row written
        before an update removed it) reads as the server's zone rather than failing a page."""
        try:
            return ZoneInfo(self.time_zone)
        except (ZoneInfoNotFoundError, ValueError):
            return ZoneInfo(default_time_zone())

    # What the pages' keys need of the ladders (members.web.page_cache.page_key); None on a
    # club whose ladders were not read with it. The built and data versions are summed:
    # each only grows, so a sum moves whenever one does.
    @property
    def ladders_count(self) -> int | None:
        rows: list[Any] | None = getattr(self, "ladder_rows", None)
        return None if rows is None else len(rows)

    @property
    def ladders_newest(self) -> int | None:
        rows: list[Any] | None = getattr(self, "ladder_rows", None)
        return None if rows is None else max((int(r.pk) for r in rows), default=None)

    @property
    def ladders_built(self) -> int | None:
        rows: list[Any] | None = getattr(self, "ladder_rows", None)
        return None if rows is None else sum(int(r.built_version) for r in rows)

    @property
    def ladders_data(self) -> int | None:
        rows: list[Any] | None = getattr(self, "ladder_rows", None)
        return None if rows is None else sum(int(r.data_version) for r in rows)

    def first_ladder(self) -> Any:
        """The club's first ladder (clubs.models.Ladder): what its front page, roster,
        exports and anything about "the club's rating" show. Typed loosely: the ladder app's
        models import these, not the other way round. On a club read with its ladders
        (ClubQuerySet.with_ladders: a visitor's page) it costs no query."""
        rows = getattr(self, "ladder_rows", None)
        if rows:
            return rows[0]
        return self.ladders.order_by("position", "id").first()

    @property
    def ladder_is_current(self) -> bool:
        """Whether every ladder of the club is up to date (as read with the club, on a club
        from ClubQuerySet.with_ladders: a visitor's page)."""
        rows = getattr(self, "ladder_rows", None)
        if rows is not None:
            return all(r.built_version >= r.data_version for r in rows)
        return not self.ladders.filter(built_version__lt=models.F("data_version")).exists()

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


# The kinds a ladder may rate; bughouse (and every variant) is never rated.
RATABLE_KINDS = ("standard", "rapid", "blitz", "other")
MAIN_SLUG = "main"
# The name the migration and a new club's first ladder get (a stored name, shown as typed;
# the pages may show this default translated).
DEFAULT_NAME = "Ladder"
DEFAULT_LABEL = _("Ladder")


def says_ladder(name: str) -> bool:
    """Whether a ladder's shown name already ends in the word ladder, in English or in the
    language shown ("Blitz ladder", "Ladder", "Rangliste"): a sentence that names it then
    leaves its own "ladder" out ("Rated on the Blitz ladder", never "... ladder ladder")."""
    words = name.split()
    if not words:
        return False
    last = words[-1].strip(".,:;!?()").casefold()
    return last in {"ladder", str(DEFAULT_LABEL).casefold()}


class LadderQuerySet(models.QuerySet["Ladder"]):
    def for_club(self, club_id: int) -> LadderQuerySet:
        """The club's ladders, the first (front page) one first."""
        return self.filter(club_id=club_id).order_by("position", "id")

    def first_of(self, club: Club | int) -> Ladder | None:
        """The club's first ladder: the one its front page, roster and exports show."""
        return self.for_club(club if isinstance(club, int) else club.pk).first()

    def out_of_date(self) -> LadderQuerySet:
        return self.filter(built_version__lt=models.F("data_version"))

    def feeding(self, kind: str) -> list[Ladder]:
        """The ladders (of this queryset) that rate `kind`: at most one per club. A list, read
        in Python: kinds is a JSON list, and SQLite has no containment lookup on it."""
        return [ladder for ladder in self if kind in ladder.kinds]

    def fed_by(self, club_id: int, kinds: Collection[str]) -> list[Ladder]:
        """The club's ladders whose events (Ladder.event_kinds) include one of `kinds`."""
        ladders = list(self.for_club(club_id))
        wanted = set(kinds)
        return [
            ladder
            for number, ladder in enumerate(ladders)
            if wanted & {*ladder.kinds, *([BUGHOUSE] if number == 0 else [])}
        ]

    def showing(self, club_id: int, kind: str) -> Ladder | None:
        """The ladder an event of `kind` is on (rated or not): the one that rates the kind,
        the first for bughouse, None for a kind no ladder claims."""
        return next(iter(self.fed_by(club_id, [kind])), None)

    def of_kind(self, club_id: int, kind: str) -> Ladder | None:
        """The club's ladder that rates `kind`, whether or not a given event of it is rated
        (an unrated event still has its place in that ladder's order), or None."""
        return next(iter(self.for_club(club_id).feeding(kind)), None)

    def for_event(self, event: Event) -> Ladder | None:
        """The ladder an event feeds: the one whose kinds hold its kind, or None (unrated,
        bughouse, or a kind no ladder of its club claims: shown, never rated)."""
        if not event.rated or event.kind == BUGHOUSE:
            return None
        return self.of_kind(event.club_id, event.kind)


class Ladder(models.Model):
    """One rating ladder of a club: its name, its policy and settings, the event kinds it
    rates, and its replay state."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="ladders")
    slug = models.SlugField(max_length=30)
    name = models.CharField(max_length=80, default=DEFAULT_NAME)
    # Order on the pages: the lowest is the club's first ladder.
    position = models.PositiveSmallIntegerField(default=0)
    rating_policy = models.CharField(max_length=30, choices=policy_choices, default="ladder")
    rating_settings = models.JSONField(default=dict, blank=True)
    # A subset of RATABLE_KINDS; a kind belongs to at most one ladder of a club, which the
    # one writer of kinds (ladder.roster.ladders.set_kinds) keeps.
    kinds = models.JSONField(default=list, blank=True)
    # The ladder is up to date when built_version == data_version. Every change to one of
    # its inputs increments data_version in the same transaction (ladder.changes).
    data_version = models.PositiveBigIntegerField(default=0)
    built_version = models.PositiveBigIntegerField(default=0)
    out_of_date_since = models.DateTimeField(null=True, blank=True)
    # Set by "rebuild ladder": the next replay ignores stored results and starts at the first event.
    full_rebuild_requested = models.BooleanField(default=False)

    objects = LadderQuerySet.as_manager()

    class Meta:
        # Its table from when the ladder app held it (issue 35 moved the model here).
        db_table = "ladder_ladder"
        ordering: ClassVar[list[str]] = ["club", "position", "id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(built_version__lte=models.F("data_version")),
                name="ladder_built_version_not_ahead",
            ),
            models.UniqueConstraint(fields=["club", "slug"], name="one_ladder_slug_per_club"),
            models.UniqueConstraint(
                fields=["club", "position"], name="one_ladder_position_per_club"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} / {self.slug}"

    @property
    def is_current(self) -> bool:
        return self.built_version >= self.data_version

    def rates(self, kind: str) -> bool:
        return kind in self.kinds

    def event_kinds(self) -> list[str]:
        """The kinds of the events on this ladder: those it rates, and on the club's first
        ladder bughouse too, whose events it shows with their games and never rates (as
        the one ladder of a club always did)."""
        first = Ladder.objects.first_of(self.club_id)
        return [*self.kinds, BUGHOUSE] if first is not None and first.pk == self.pk else self.kinds
