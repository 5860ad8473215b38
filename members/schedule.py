"""What the club's pages and feeds show of its schedule (issue 37): the next dates on the front
page, the upcoming events page and the dates a calendar feed lists. Read only; the writes are
the directors' (directors/schedule.py).
"""

from __future__ import annotations

import datetime as dt

from clubs.models import Club, Occurrence, ScheduleEntry, occurrences

# The front page names the next few dates; the schedule page a season's worth.
NEXT_ON_FRONT_PAGE = 3
MOST_ON_SCHEDULE_PAGE = 100
# A calendar keeps the recent past (a cancelled evening last week, the results just
# published) and every date to come.
CALENDAR_DAYS_BACK = 90


def _entries(club: Club, first: dt.date) -> list[ScheduleEntry]:
    entries = list(ScheduleEntry.objects.filter(club=club).running_from(first))
    for entry in entries:
        entry.club = club  # the club already read: its time zone without another query
    return entries


def next_dates(club: Club, today: dt.date, limit: int = NEXT_ON_FRONT_PAGE) -> list[Occurrence]:
    """The next dates that take place, from today on (a cancelled one is left out)."""
    return [o for o in occurrences(_entries(club, today), first=today) if not o.cancelled][:limit]


def upcoming_dates(
    club: Club, today: dt.date, limit: int = MOST_ON_SCHEDULE_PAGE
) -> list[Occurrence]:
    """Every date from today on, a cancelled one too (the page says it is cancelled)."""
    return occurrences(_entries(club, today), first=today)[:limit]


def calendar_dates(club: Club, today: dt.date) -> list[Occurrence]:
    """The dates the calendar feed lists: from CALENDAR_DAYS_BACK ago on, cancelled ones
    kept (marked cancelled, so a subscribed calendar removes them)."""
    first = today - dt.timedelta(days=CALENDAR_DAYS_BACK)
    return occurrences(_entries(club, first), first=first)
