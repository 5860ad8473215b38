"""Who signs in and what they run: users, clubs and the roles that tie the two.

Part of the clubs app's models, re-exported from clubs/models/__init__.py.
"""

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
from django.db.models import Q
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext_lazy as _

# The policy registry is pure computation (no Django, no models, nothing of clubs/): the
# model reads only its names and labels for the field's choices.
from ladder.policies import POLICIES


def new_club_secret() -> str:
    # 24 random bytes: 192 bits, comfortably above the 128 the privacy rules ask for.
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


def _ladder_model(club_model: type[models.Model]) -> Any:
    """ladder.models.Ladder, found through the relation: the ladder app's models import
    these, so these may not import them."""
    return club_model._meta.get_field("ladders").related_model


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
        ladders = list(
            _ladder_model(self.model)
            .objects.filter(club__slug=slug)
            .select_related("club")
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
    # The month (1-12) the club's season starts; its seasons are read by ladder.seasons.
    season_start_month = models.PositiveSmallIntegerField(choices=MONTHS.items(), default=9)
    secret = models.CharField(max_length=64, default=new_club_secret, unique=True)
    # The club's ladders (ladder.models.Ladder) hold their policy, settings and replay
    # state. The earliest event date a change since the last replay said it can affect
    # (None when none said), shared by the club's ladders as a lower bound: each replay
    # starts no later than there, whatever the fingerprints say; cleared when every
    # ladder of the club is current.
    replay_from = models.DateField(null=True, blank=True)
    # What the club's pages show beyond its own row and its ladder versions: names, a
    # family's consent, events' names, who is on the roster. ladder.changes.club_changed
    # (OnPages) bumps it, and every cache is keyed on it (ladder/web/page_cache.py).
    pages_version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]

    def __str__(self) -> str:
        return self.name

    # What the pages' keys need of the ladders (ladder.web.page_cache.page_key); None on a
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
        """The club's first ladder (ladder.models.Ladder): what its front page, roster,
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
