"""Creating, changing and deleting a club's Grand Prix series: the one place these writes are
made.

The directors' screens and the add_series command both call these, so each checks
everything itself and refuses with a SeriesRefused whose message a director can act on,
storing nothing. A series holds no result (its standings are read from its events, in
members/series.py), but its rules and events change what the club's pages show: each write
moves the pages through the one door and is recorded in the audit log, in one transaction.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from itertools import pairwise

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.audit import Actor
from clubs.models import Club, Event, Series
from directors.edits import PublishingError
from ladder.changes import OnPages, club_changed
from ladder.series import TIES

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG_LENGTH = 40  # Series.slug's max_length
NAME_LENGTH = 100  # Series.name's max_length
# Enough for any points table by place and any set of groups a club runs; a longer list is
# a slip of the keyboard, and the JSON fields would keep it whole.
MOST_PLACES = 100
MOST_BANDS = 10
KINDS = tuple(kind.value for kind in Event.Kind)


class SeriesRefused(PublishingError):
    """A series that cannot be saved as given; `message` says why (translated)."""


def save_series(
    club: Club,
    *,
    series: Series | None,
    slug: str,
    name: str,
    event_ids: list[int] | None,
    kinds: list[str],
    date_from: dt.date | None,
    date_to: dt.date | None,
    points: list[int] | None,
    best: int | None,
    ties: str,
    members_only: bool,
    min_events: int,
    rating_bands: list[int],
    user: Actor,
    by_section: bool = False,
) -> Series:
    """A new series (`series` None) or `series` changed, after every check; `points` None
    scores by game points; `by_section` ranks each club night's section apart (never with
    rating bands). Refuses with SeriesRefused, storing nothing."""
    if series is not None and series.club_id != club.pk:
        raise SeriesRefused(_("There is no such series."))
    name = _check_name(name)
    slug = _check_slug_shape(slug)
    chosen = list(dict.fromkeys(event_ids or []))
    wanted_kinds = _check_choice(chosen, kinds, date_from, date_to)
    table = _check_points(points)
    if ties not in TIES:
        raise SeriesRefused(_("Tied places either share their points or take the higher one's."))
    bands = _check_bands(rating_bands)
    if by_section and bands:
        raise SeriesRefused(_("Group the players by rating or by section, not both."))
    with transaction.atomic():
        # The club row locked: two directors saving one short name at once see each other.
        Club.objects.select_for_update().filter(pk=club.pk).get()
        events = _check_events(club, chosen)
        _check_counts(club, events, wanted_kinds, date_from, date_to, best, min_events)
        taken = Series.objects.filter(club=club, slug=slug)
        if series is not None:
            taken = taken.exclude(pk=series.pk)
        if taken.exists():
            raise SeriesRefused(_("The club has a series with this short name already."))
        fields = {
            "slug": slug,
            "name": name,
            "kinds": list(wanted_kinds),
            "date_from": date_from if wanted_kinds else None,
            "date_to": date_to if wanted_kinds else None,
            "points": list(table),
            "best": best,
            "ties": ties,
            "members_only": members_only,
            "min_events": min_events,
            "rating_bands": list(bands),
            "by_section": by_section,
        }
        if series is None:
            series = Series.objects.create(club=club, **fields)
            action = "series.created"
        else:
            Series.objects.filter(pk=series.pk).update(**fields)
            series.refresh_from_db()
            action = "series.changed"
        series.events.set(events)
        # Nothing a ladder rates: the pages show the series (and the season page links it).
        club_changed(club.pk, OnPages())
        if action == "series.created":
            audit.record(club, user, "series.created", series_id=series.pk, slug=slug, name=name)
        else:
            audit.record(club, user, "series.changed", series_id=series.pk, slug=slug, name=name)
    return series


def delete_series(series: Series, user: Actor) -> None:
    """The series goes; its events and their results stay as they are."""
    with transaction.atomic():
        club_id, pk, slug, name = series.club_id, series.pk, series.slug, series.name
        deleted, _count = Series.objects.filter(pk=pk).delete()
        if not deleted:
            raise SeriesRefused(_("There is no such series."))
        club_changed(club_id, OnPages())
        audit.record(club_id, user, "series.deleted", series_id=pk, slug=slug, name=name)


def _check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise SeriesRefused(_("Give the series a name."))
    if len(name) > NAME_LENGTH:
        raise SeriesRefused(_("The name is longer than 100 characters."))
    return name


def _check_slug_shape(slug: str) -> str:
    slug = slug.strip().lower()
    if len(slug) > SLUG_LENGTH or not SLUG.match(slug):
        raise SeriesRefused(
            _("The short name takes up to 40 lower-case letters, digits and hyphens.")
        )
    return slug


def _check_choice(
    chosen: Sequence[int], kinds: Sequence[str], date_from: dt.date | None, date_to: dt.date | None
) -> tuple[str, ...]:
    """The kinds to count, in the events' order of kinds; () for events chosen one by one.
    Exactly one of the two ways, and dates only (and both) with kinds."""
    if chosen and kinds:
        raise SeriesRefused(
            _("Choose the events one by one or by their kinds and dates, not both.")
        )
    if not chosen and not kinds:
        raise SeriesRefused(
            _("Choose the series' events: one by one, or by their kinds and dates.")
        )
    if chosen:
        if date_from is not None or date_to is not None:
            raise SeriesRefused(
                _("Dates choose the events of some kinds: give the kinds too, or no dates.")
            )
        return ()
    for kind in kinds:
        if kind not in KINDS:
            raise SeriesRefused(_("There is no such event kind: nothing was saved."))
    if len(set(kinds)) != len(kinds):
        raise SeriesRefused(_("Each kind can be chosen only once."))
    if date_from is None or date_to is None:
        raise SeriesRefused(_("Give the first and the last day of the series' events."))
    if date_from > date_to:
        raise SeriesRefused(_("The first day comes after the last day."))
    return tuple(kind for kind in KINDS if kind in kinds)


def _check_points(points: list[int] | None) -> tuple[int, ...]:
    if points is None:
        return ()
    if not points:
        raise SeriesRefused(
            _("Give the points of at least the first place, or score by game points.")
        )
    if len(points) > MOST_PLACES:
        raise SeriesRefused(_("Points can be given for up to 100 places."))
    if any(not isinstance(p, int) or isinstance(p, bool) or p < 0 for p in points):
        raise SeriesRefused(_("Points by place are whole numbers, 0 or more."))
    if any(higher < lower for higher, lower in pairwise(points)):
        raise SeriesRefused(_("A place cannot score more points than the place above it."))
    return tuple(points)


def _check_bands(bands: list[int]) -> tuple[int, ...]:
    if len(bands) > MOST_BANDS:
        raise SeriesRefused(_("A series can have up to 10 rating groups' limits."))
    if any(not isinstance(b, int) or isinstance(b, bool) or b <= 0 for b in bands):
        raise SeriesRefused(_("The rating groups' limits are whole numbers above 0."))
    if any(lower >= upper for lower, upper in pairwise(bands)):
        raise SeriesRefused(_("The rating groups' limits go from the lowest up, each once."))
    return tuple(bands)


def _check_events(club: Club, chosen: Sequence[int]) -> list[Event]:
    """The chosen events, each a published event of this club (not deleted)."""
    found = {
        event.pk: event
        for event in Event.objects.filter(club=club, pk__in=chosen).published().only("pk")
    }
    for event_id in chosen:
        if event_id not in found:
            raise SeriesRefused(
                _("Event %(event)s is not a published event of this club: nothing was saved.")
                % {"event": event_id}
            )
    return [found[event_id] for event_id in chosen]


def _check_counts(
    club: Club,
    events: Sequence[Event],
    kinds: Sequence[str],
    date_from: dt.date | None,
    date_to: dt.date | None,
    best: int | None,
    min_events: int,
) -> None:
    """A best N and a minimum no larger than the events. Known for events chosen one by one
    and for a series whose days are past; a series of kinds still running gains events, so
    it may count more than it has so far."""
    if best is not None and best < 1:
        raise SeriesRefused(_("The best results counted must be 1 or more."))
    if min_events < 0:
        raise SeriesRefused(_("The events needed to be ranked must be 0 or more."))
    if events:
        count: int | None = len(events)
    elif date_to is not None and date_to < timezone.localdate():
        count = (
            Event.objects.filter(club=club, kind__in=kinds, date__gte=date_from, date__lte=date_to)
            .published()
            .count()
        )
    else:
        count = None
    if count is None:
        return
    if best is not None and best > count:
        raise SeriesRefused(
            ngettext(
                "The best %(best)d results cannot count: the series has %(count)d event.",
                "The best %(best)d results cannot count: the series has %(count)d events.",
                count,
            )
            % {"best": best, "count": count}
        )
    if min_events > count:
        raise SeriesRefused(
            ngettext(
                "No one can play %(needed)d events: the series has %(count)d event.",
                "No one can play %(needed)d events: the series has %(count)d events.",
                count,
            )
            % {"needed": min_events, "count": count}
        )
