"""A club's players and the other spellings they appeared under.

Part of the clubs app's models, re-exported from clubs/models/__init__.py. Which players the
pages may show depends on their entries, so this module reads clubs.models.events (and not
the other way round: an entry names its player by the string "clubs.Player").
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from clubs.models.club import Club
from clubs.models.events import Entry, Event


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
        visitors starts here (ladder.roster.rosters), so a name first met in a draft stays off
        them."""
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
