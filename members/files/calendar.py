"""The club's schedule as an RFC 5545 calendar (c/<slug>/calendar.ics), written by the
icalendar library: its escaping, line folding and time zones, not text of our own.

Each date of an entry is one VEVENT (weekly entries expanded, not RRULE and EXDATE: a
cancelled date then keeps its own event marked STATUS:CANCELLED with its reason, and a
client that reads recurrence rules poorly still shows every evening). Its UID is the entry's
id and the date at the site's host, stable across requests and edits. Start times carry the
club's TZID, with its VTIMEZONE in the calendar. Nothing names a player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from django.conf import settings
from icalendar import Calendar
from icalendar import Event as CalendarEvent

from clubs.models import Club, Event, Occurrence

PRODID = "-//Club pages//Club calendar//EN"


def uid_host() -> str:
    """The part after @ of every UID: the site's host (SITE_URL), the same from every web
    process and request, or "clubpages" when it names none."""
    return urlsplit(str(settings.SITE_URL)).hostname or "clubpages"


def calendar_text(
    club: Club,
    dates: Sequence[Occurrence],
    *,
    results_url: Callable[[Event], str],
    page_url: str,
) -> bytes:
    """The calendar: one VEVENT per date, `results_url` linking a published event's page and
    `page_url` the club's schedule page."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", club.name)
    calendar.add("x-wr-timezone", club.zone.key)
    host = uid_host()
    for one in dates:
        calendar.add_component(_event(one, host, results_url, page_url))
    # The VTIMEZONE of every TZID used, from the zone database: a client needs no zone of its
    # own named the same. Its changes of offset only over the calendar's whole years (a
    # short text that changes once a year), not the library's default 1970-2038.
    if dates:
        first, last = min(one.date for one in dates), max(one.date for one in dates)
        calendar.add_missing_timezones(
            first_date=dt.date(first.year, 1, 1), last_date=dt.date(last.year + 1, 1, 1)
        )
    text: bytes = calendar.to_ical()
    return text


def _event(
    one: Occurrence, host: str, results_url: Callable[[Event], str], page_url: str
) -> CalendarEvent:
    entry = one.entry
    event = CalendarEvent()
    event.add("uid", f"{one.uid_stem}@{host}")
    event.add("dtstamp", entry.changed_at)
    event.add("last-modified", entry.changed_at)
    event.add("dtstart", one.starts_at)
    event.add("summary", entry.name)
    if entry.place:
        event.add("location", entry.place)
    lines = [entry.notes] if entry.notes else []
    published = one.published_event
    if one.cancelled:
        event.add("status", "CANCELLED")
        if one.reason:
            lines.insert(0, one.reason)
    else:
        event.add("status", "CONFIRMED")
    if published is not None:
        link = results_url(published)
        event.add("url", link)
        lines.append(link)
    else:
        event.add("url", page_url)
    if lines:
        event.add("description", "\n\n".join(lines))
    event.add("categories", [str(entry.get_kind_display())])
    return event
