"""A club's players and the other spellings they appeared under.

Part of the clubs app's models, re-exported from clubs/models/__init__.py. Which players the
pages may show depends on their entries, so this module reads clubs.models.events (and not
the other way round: an entry names its player by the string "clubs.Player").
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any, ClassVar

from django.db import models
from django.db.models import Exists, F, FilteredRelation, OuterRef, Q, QuerySet, Value
from django.db.models.expressions import Combinable
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from clubs.models.club import Club
from clubs.models.events import Entry, Event


class PlayerQuerySet(models.QuerySet["Player"]):
    def active(self) -> PlayerQuerySet:
        """Players not merged into another one."""
        return self.filter(merged_into__isnull=True)

    # Returns Any, though it is a PlayerQuerySet: the type checker's Django plugin checks
    # every field name in filter() and values_list() against the model's columns, and
    # cannot see these annotations.
    def rated_on(self, ladder: Any) -> Any:
        """Every player annotated with their standing on `ladder` (a clubs.models.Ladder, its
        id, or None): rating, rated_games, provisional, last_played, last_change,
        start_rating and start_games from its LadderRating row, NULL/0/True without one. So
        code that reads player.rating reads it on a queryset that said which ladder."""
        if ladder is None:
            nothing = {name: Value(None, output_field=field) for name, field in _STANDING}
            return self.annotate(**_with_defaults(nothing))
        ladder_id = ladder if isinstance(ladder, int) else ladder.pk
        row = FilteredRelation("ladder_ratings", condition=Q(ladder_ratings__ladder_id=ladder_id))
        columns = {name: F(f"standing__{name}") for name, _field in _STANDING}
        return self.annotate(standing=row).annotate(**_with_defaults(columns))

    def on_ladder(self) -> PlayerQuerySet:
        """On a rated_on() queryset: the players the ladder shows."""
        return self.active().filter(rated_games__gt=0, rating__isnull=False)  # type: ignore[misc]

    def in_ladder_order(self) -> PlayerQuerySet:
        """Established players by rating, then provisional players by rating."""
        return self.order_by("provisional", "-rating", "name", "id")

    def public(self) -> PlayerQuerySet:
        """Players the club's pages, exports and commands may show: every player but one
        held, and a held player while an event they play in is published. Every read for
        visitors starts here (ladder.roster.rosters), so a name first met in a draft stays off
        them."""
        return self.filter(Q(held=False) | Exists(_published_entries()))

    def held_back(self) -> PlayerQuerySet:
        """The held players no page shows yet: no event of theirs is published."""
        return self.filter(held=True).exclude(Exists(_published_entries()))


# What rated_on() reads of a LadderRating row, and what a player without one shows.
_STANDING: tuple[tuple[str, models.Field[Any, Any]], ...] = (
    ("rating", models.FloatField()),
    ("rated_games", models.PositiveIntegerField()),
    ("provisional", models.BooleanField()),
    ("last_played", models.DateField()),
    ("last_change", models.FloatField()),
    ("start_rating", models.FloatField()),
    ("start_games", models.PositiveIntegerField()),
)
_NO_ROW_DEFAULTS: dict[str, object] = {"rated_games": 0, "provisional": True, "start_games": 0}


def _with_defaults(columns: Mapping[str, Combinable]) -> dict[str, Any]:
    """`columns`, with the defaults of a player without a row filled in."""
    fields = dict(_STANDING)
    return {
        name: Coalesce(value, Value(_NO_ROW_DEFAULTS[name]), output_field=fields[name])
        if name in _NO_ROW_DEFAULTS
        else value
        for name, value in columns.items()
    }


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
    # Set while this player is merged into another; cleared when the merge is undone.
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_players"
    )
    # A player's rating, games and starting estimate are per ladder: ladder.models.LadderRating,
    # read through PlayerQuerySet.rated_on(ladder), which sets these on each player it gives
    # (declared for the type checker only: no column).
    rating: float | None
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    last_change: float | None
    start_rating: float | None
    start_games: int
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
