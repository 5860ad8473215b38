"""A club's schedule: the events it announces before they are played (issue 37).

Part of the clubs app's models, re-exported from clubs/models/__init__.py. An entry is one
evening or a weekly club night repeated until a date; a ScheduleDate holds what is known of
one of its dates beyond the entry itself (cancelled, with a reason, or the event it became).
Nothing here names a player: a schedule says what, when and where, never who.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone

from clubs.models.club import Club
from clubs.models.events import Event

WEEK = dt.timedelta(days=7)


def weekly_dates(first: dt.date, until: dt.date | None) -> Iterator[dt.date]:
    """`first`, and every seventh day after it up to `until` (inclusive); `first` alone
    when `until` is None (a one-off)."""
    day = first
    last = first if until is None else until
    while day <= last:
        yield day
        day += WEEK


class ScheduleEntryQuerySet(models.QuerySet["ScheduleEntry"]):
    def running_from(self, day: dt.date) -> ScheduleEntryQuerySet:
        """Entries with a date on or after `day`."""
        return self.filter(Q(date__gte=day) | Q(weekly_until__gte=day))


class ScheduleEntry(models.Model):
    """One announced event, or a weekly one (`weekly_until` set) on the weekday of `date`.
    `start_time` is a wall-clock time in the club's time zone (Club.time_zone)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="schedule")
    name = models.CharField(max_length=100)
    date = models.DateField()
    start_time = models.TimeField()
    place = models.CharField(max_length=120, blank=True)
    kind = models.CharField(max_length=10, choices=Event.Kind.choices, default=Event.Kind.STANDARD)
    notes = models.TextField(max_length=1000, blank=True)
    # The last day a weekly entry may fall on; None for a one-off.
    weekly_until = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The last change to the entry or one of its dates (directors.schedule sets it): the
    # calendar feed's DTSTAMP and LAST-MODIFIED, so a client sees which events were revised
    # and an unchanged feed is the same text on every request.
    changed_at = models.DateTimeField(default=timezone.now)

    objects = ScheduleEntryQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["club", "date", "start_time", "id"]
        verbose_name_plural = "schedule entries"
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.CheckConstraint(
                condition=Q(weekly_until__isnull=True) | Q(weekly_until__gte=models.F("date")),
                name="schedule_weekly_until_after_date",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} / {self.name} ({self.date})"

    @property
    def is_weekly(self) -> bool:
        return self.weekly_until is not None

    def dates(self) -> Iterator[dt.date]:
        return weekly_dates(self.date, self.weekly_until)

    def starts_at(self, day: dt.date) -> dt.datetime:
        """The start on `day` as an aware time in the club's zone (a wall-clock time: a
        weekly 19:30 stays 19:30 across a change of summer time)."""
        return dt.datetime.combine(day, self.start_time, tzinfo=self.club.zone)


class ScheduleDate(models.Model):
    """What is known of one date of an entry: cancelled (with a reason or none), and the event
    a director started from it. A date with neither has no row."""

    entry = models.ForeignKey(ScheduleEntry, on_delete=models.CASCADE, related_name="known_dates")
    date = models.DateField()
    cancelled = models.BooleanField(default=False)
    reason = models.CharField(max_length=200, blank=True)
    # The draft started from this date; kept when the event is deleted, so the link reads
    # as "no results" rather than vanishing with the row.
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="scheduled_dates"
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["entry", "date"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(fields=["entry", "date"], name="one_schedule_date_per_day"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} on {self.date}"


@dataclass(frozen=True)
class Occurrence:
    """One date of an entry as the pages and feeds show it."""

    entry: ScheduleEntry
    date: dt.date
    cancelled: bool
    reason: str
    event: Event | None  # the event started from it (a draft or published)

    @property
    def uid_stem(self) -> str:
        """Stable for as long as the entry exists: the entry's id and the date (an edit to
        the name or time keeps it, so a calendar updates the event instead of adding one)."""
        return f"{self.entry.pk}-{self.date:%Y%m%d}"

    @property
    def starts_at(self) -> dt.datetime:
        return self.entry.starts_at(self.date)

    @property
    def published_event(self) -> Event | None:
        """The event's results when members may read them, else None."""
        if self.event is not None and self.event.is_published:
            return self.event
        return None


def occurrences(
    entries: Iterable[ScheduleEntry],
    *,
    first: dt.date | None = None,
    last: dt.date | None = None,
) -> list[Occurrence]:
    """Every date of `entries` from `first` to `last` (either open), in time order, with what
    is known of each. The entries' known dates and their events are read in one query."""
    entries = list(entries)
    known: dict[tuple[int, dt.date], ScheduleDate] = {
        (row.entry_id, row.date): row
        for row in ScheduleDate.objects.filter(entry__in=entries).select_related("event")
    }
    found: list[Occurrence] = []
    for entry in entries:
        for day in entry.dates():
            if (first is not None and day < first) or (last is not None and day > last):
                continue
            row = known.get((entry.pk, day))
            found.append(
                Occurrence(
                    entry,
                    day,
                    cancelled=row is not None and row.cancelled,
                    reason=row.reason if row is not None else "",
                    event=row.event if row is not None else None,
                )
            )
    found.sort(key=lambda o: (o.date, o.entry.start_time, o.entry.pk))
    return found
