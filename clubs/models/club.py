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


# The columns of a club's first ladder that ClubQuerySet.with_ladder_versions reads with the
# club's row (every column of ladder.models.Ladder but its club).
FIRST_LADDER_FIELDS = (
    "id", "slug", "name", "position", "rating_policy", "rating_settings", "kinds",
    "data_version", "built_version", "out_of_date_since", "full_rebuild_requested",
)  # fmt: skip


def _ladder_model(club_model: type[models.Model]) -> Any:
    """ladder.models.Ladder, found through the relation: the ladder app's models import
    these, so these may not import them."""
    return club_model._meta.get_field("ladders").related_model


class ClubQuerySet(models.QuerySet["Club"]):
    def directed_by(self, user: User | AnonymousUser) -> ClubQuerySet:
        if not user.is_authenticated:
            return self.none()
        return self.filter(roles__user=user)

    def with_ladder_versions(self) -> ClubQuerySet:
        """Each club with what its pages' keys need of its ladders, read with its row: the
        sums of their built and data versions (each only grows, so a sum moves whenever
        one does), how many there are, the newest id, and how many are out of date."""
        stale = models.Case(
            models.When(ladders__built_version__lt=models.F("ladders__data_version"), then=1),
            default=0,
        )
        return self.annotate(
            # The first ladder's row, read with the club's (Club.first_ladder builds it).
            **{
                f"first_ladder__{name}": models.Subquery(
                    _ladder_model(self.model)
                    .objects.filter(club_id=models.OuterRef("pk"))
                    .order_by("position", "id")
                    .values(name)[:1]
                )
                for name in FIRST_LADDER_FIELDS
            },
            ladders_built=models.Sum("ladders__built_version"),
            ladders_data=models.Sum("ladders__data_version"),
            ladders_count=models.Count("ladders"),
            ladders_newest=models.Max("ladders__id"),
            ladders_stale=models.Sum(stale),
        )

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
    # (shown=True) bumps it, and every cache is keyed on it (ladder/web/page_cache.py).
    pages_version = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["name"]

    def __str__(self) -> str:
        return self.name

    def first_ladder(self) -> Any:
        """The club's first ladder (ladder.models.Ladder): what its front page, roster,
        exports and anything about "the club's rating" show. Typed loosely: the ladder app's
        models import these, not the other way round. On a club read with
        ClubQuerySet.with_ladder_versions (a visitor's page) it costs no query."""
        values = {n: getattr(self, f"first_ladder__{n}", None) for n in FIRST_LADDER_FIELDS}
        if values["id"] is not None:
            return self.ladders.model(club_id=self.pk, **values)
        return self.ladders.order_by("position", "id").first()

    @property
    def ladder_is_current(self) -> bool:
        """Whether every ladder of the club is up to date (as read with the row, on a club
        from ClubQuerySet.with_ladder_versions: a visitor's page)."""
        stale = getattr(self, "ladders_stale", None)
        if stale is not None:
            return not stale
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
