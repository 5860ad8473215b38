"""A club's Grand Prix series: events scored together over a season with rules of their own.

Part of the clubs app's models, re-exported from clubs/models/__init__.py. The scoring is the
engine's (ladder/series.py, pure); what a series page shows is the members' (members/series.py).
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models.club import Club
from clubs.models.events import Event


class Series(models.Model):
    """Which events count (chosen one by one, or every published event of some kinds between
    two dates) and how they are scored. Nothing here is a result: the standings are worked
    out from the events' final places whenever they are shown, so a correction, deletion,
    restore or merge changes them through the events it changes."""

    class Ties(models.TextChoices):
        # Tied places (equal final rank in an event) share the sum of their places' points
        # equally, or each takes the points of the higher place.
        SHARE = "share", _("Tied places share their points")
        HIGHER = "higher", _("Tied places each take the higher place's points")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series")
    slug = models.SlugField(max_length=40)
    name = models.CharField(max_length=100)
    # Events chosen one by one; when empty, every published event of `kinds` dated from
    # `date_from` to `date_to` (both inclusive).
    events = models.ManyToManyField(Event, blank=True, related_name="series")
    kinds = models.JSONField(default=list, blank=True)
    date_from = models.DateField(null=True, blank=True)
    date_to = models.DateField(null=True, blank=True)
    # Points by final place (1st, 2nd, …; a place past the list scores 0); empty: the
    # player's game points in the event.
    points = models.JSONField(default=list, blank=True)
    # The best N results count; None: every result.
    best = models.PositiveSmallIntegerField(null=True, blank=True)
    ties = models.CharField(max_length=10, choices=Ties.choices, default=Ties.SHARE)
    # Only players on the club's roster (not held players met in a draft); else every
    # entrant linked to a player.
    members_only = models.BooleanField(default=False)
    # Fewer events played than this: listed apart, not ranked.
    min_events = models.PositiveSmallIntegerField(default=0)
    # Groups ranked apart by the rating each player held on the series' ladder the day before
    # its first day: the lower bounds of the bands above the first, ascending ([1200, 1600]
    # is below 1200, 1200-1599, 1600 and up); empty: one group.
    rating_bands = models.JSONField(default=list, blank=True)
    # Groups ranked apart by the section of a club night each player played in
    # (Event.section; ladder.series.section_of decides for a player of several sections).
    # Never together with rating bands.
    by_section = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["club", "-date_from", "name", "id"]
        verbose_name_plural = "series"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["club", "slug"], name="one_series_slug_per_club"),
            models.CheckConstraint(
                condition=Q(date_from__isnull=True)
                | Q(date_to__isnull=True)
                | Q(date_from__lte=models.F("date_to")),
                name="series_dates_in_order",
            ),
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1), name="series_best_at_least_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} / {self.slug}"
