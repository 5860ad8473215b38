"""Scheduling a club's events (issue 37): the one place a schedule is written.

The directors' screens (directors/schedule_views.py) and the schedule_event command both call
these, so each checks everything itself and refuses with a ScheduleRefused whose message a
director can act on, storing nothing. A schedule changes what the club's pages and feeds show
(the front page's next events, the schedule page, the calendar) but no rating: each write moves
the pages through the one door (OnPages) and is recorded in the audit log, in one transaction.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import audit
from clubs.audit import Actor
from clubs.models import Club, Event, ScheduleDate, ScheduleEntry, User
from directors.edits import PublishingError
from directors.events.drafts import EventDetails, create_event
from ladder.changes import OnPages, club_changed
from matching import clean_name

NAME_LENGTH = 100  # ScheduleEntry.name's max_length
PLACE_LENGTH = 120
NOTES_LENGTH = 1000
REASON_LENGTH = 200
# A weekly entry runs for at most two years: a calendar feed lists each of its dates, and a
# club night further ahead than that is a slip of the keyboard (2062 for 2026).
MOST_WEEKS = 104
KINDS = tuple(kind.value for kind in Event.Kind)


class ScheduleRefused(PublishingError):
    """A schedule change that cannot be made as given; `message` says why (translated)."""


def save_entry(
    club: Club,
    *,
    entry: ScheduleEntry | None,
    name: str,
    date: dt.date,
    start_time: dt.time,
    place: str = "",
    kind: str = Event.Kind.STANDARD,
    notes: str = "",
    weekly_until: dt.date | None = None,
    user: Actor,
) -> ScheduleEntry:
    """A new entry (`entry` None) or `entry` changed, after every check. A changed entry keeps
    its id, so each date keeps its calendar UID; dates it no longer has lose what was known
    of them (a cancellation, the link to an event started from them)."""
    if entry is not None and entry.club_id != club.pk:
        raise ScheduleRefused(_("There is no such scheduled event."))
    fields = {
        "name": _check_text(name, NAME_LENGTH, required=True),
        "date": date,
        "start_time": start_time.replace(second=0, microsecond=0, tzinfo=None),
        "place": _check_text(place, PLACE_LENGTH),
        "kind": _check_kind(kind),
        "notes": _check_notes(notes),
        "weekly_until": _check_until(date, weekly_until),
        "changed_at": timezone.now(),
    }
    with transaction.atomic():
        details = {"name": fields["name"], "date": date.isoformat()}
        if entry is None:
            entry = ScheduleEntry.objects.create(club=club, **fields)
            audit.record(club, user, "schedule_entry.added", entry_id=entry.pk, **details)
        else:
            changed = ScheduleEntry.objects.filter(pk=entry.pk, club=club).update(**fields)
            if not changed:
                raise ScheduleRefused(_("There is no such scheduled event."))
            entry.refresh_from_db()
            kept = set(entry.dates())
            gone = [row.pk for row in entry.known_dates.all() if row.date not in kept]
            ScheduleDate.objects.filter(pk__in=gone).delete()
            audit.record(club, user, "schedule_entry.changed", entry_id=entry.pk, **details)
        entry.club = club
        club_changed(club.pk, OnPages())
    return entry


def delete_entry(entry: ScheduleEntry, user: Actor) -> None:
    """The entry and all its dates go; an event started from one stays as it is."""
    with transaction.atomic():
        club_id, pk, name, date = entry.club_id, entry.pk, entry.name, entry.date
        deleted, _count = ScheduleEntry.objects.filter(pk=pk).delete()
        if not deleted:
            raise ScheduleRefused(_("There is no such scheduled event."))
        club_changed(club_id, OnPages())
        audit.record(
            club_id, user, "schedule_entry.deleted", entry_id=pk, name=name, date=date.isoformat()
        )


def cancel_date(entry: ScheduleEntry, day: dt.date, reason: str, user: Actor) -> ScheduleDate:
    """One date of the entry is cancelled: the pages say so (with the reason) and the calendar
    keeps it marked cancelled, so a member's calendar drops it rather than keeping it."""
    reason = _check_text(reason, REASON_LENGTH)
    _check_day(entry, day)
    with transaction.atomic():
        row, _created = ScheduleDate.objects.get_or_create(entry=entry, date=day)
        if row.cancelled:
            raise ScheduleRefused(_("This date is cancelled already."))
        row.cancelled, row.reason = True, reason
        row.save(update_fields=["cancelled", "reason"])
        _revised(entry)
        club_changed(entry.club_id, OnPages())
        audit.record(
            entry.club_id,
            user,
            "schedule_date.cancelled",
            entry_id=entry.pk,
            name=entry.name,
            date=day.isoformat(),
        )
    return row


def reinstate_date(entry: ScheduleEntry, day: dt.date, user: Actor) -> None:
    """A cancelled date takes place after all."""
    _check_day(entry, day)
    with transaction.atomic():
        changed = ScheduleDate.objects.filter(entry=entry, date=day, cancelled=True).update(
            cancelled=False, reason=""
        )
        if not changed:
            raise ScheduleRefused(_("This date is not cancelled."))
        _revised(entry)
        club_changed(entry.club_id, OnPages())
        audit.record(
            entry.club_id,
            user,
            "schedule_date.reinstated",
            entry_id=entry.pk,
            name=entry.name,
            date=day.isoformat(),
        )


def start_draft(entry: ScheduleEntry, day: dt.date, user: User | None) -> Event:
    """The draft of the event held on `day`, with the entry's name, the date and its kind,
    made by the usual draft creation (directors.events.drafts.create_event) and linked from
    the date, so the schedule and feeds link its results once it is published."""
    _check_day(entry, day)
    with transaction.atomic():
        row = _open_date(entry, day)
        club = Club.objects.get(pk=entry.club_id)
        event = create_event(club, EventDetails(name=entry.name, date=day, kind=entry.kind), user)
        _link(row, event)
    return event


@dataclass(frozen=True)
class ScheduledDay:
    """One date of a club's entry, carried by the club night's start page so the evening
    started there is the one the schedule announced."""

    entry: ScheduleEntry
    day: dt.date

    @property
    def reference(self) -> str:
        """How the start page's address and hidden field carry it."""
        return f"{self.entry.pk}:{self.day.isoformat()}"


def parse_reference(text: str) -> tuple[int, dt.date] | None:
    """`<entry id>:<YYYY-MM-DD>` as ids and a date; None for anything else."""
    entry_text, colon, day_text = text.strip().partition(":")
    # isascii too: "²" is a digit to str.isdigit, not to int().
    if not colon or not (entry_text.isascii() and entry_text.isdigit()):
        return None
    try:
        return int(entry_text), dt.date.fromisoformat(day_text)
    except ValueError:
        return None


def scheduled_day(club: Club, reference: str) -> ScheduledDay:
    """The club's scheduled date a start page carries, while an evening can still be started
    from it. Another club's entry is refused as one that does not exist: a page never learns
    what another club schedules, and nothing is ever linked across clubs."""
    parsed = parse_reference(reference)
    entry = ScheduleEntry.objects.filter(club=club, pk=parsed[0]).first() if parsed else None
    if parsed is None or entry is None or parsed[1] not in set(entry.dates()):
        raise ScheduleRefused(_("This club has no such scheduled date."))
    entry.club = club
    row = ScheduleDate.objects.filter(entry=entry, date=parsed[1]).select_related("event").first()
    if row is not None:
        _check_open(row)
    return ScheduledDay(entry, parsed[1])


def start_night(scheduled: ScheduledDay, start: Callable[[], Event]) -> Event:
    """`start` (the club night's own start, directors.night.evening.start_event, with what the
    director chose) run for a scheduled date and its event linked from the date, in one
    transaction: when the date is refused, no evening is started."""
    entry, day = scheduled.entry, scheduled.day
    _check_day(entry, day)
    with transaction.atomic():
        row = _open_date(entry, day)
        event = start()
        if event.club_id != entry.club_id:
            raise ScheduleRefused(_("This club has no such scheduled date."))
        if event.date != day:
            raise ScheduleRefused(
                _("This evening is scheduled for %(day)s: keep that date to link it.")
                % {"day": day.isoformat()}
            )
        _link(row, event)
    return event


def _open_date(entry: ScheduleEntry, day: dt.date) -> ScheduleDate:
    """The date's row, locked for this transaction, refused while cancelled or once an event
    (not deleted) was started from it."""
    row, _created = ScheduleDate.objects.select_for_update().get_or_create(entry=entry, date=day)
    _check_open(row)
    return row


def _check_open(row: ScheduleDate) -> None:
    if row.cancelled:
        raise ScheduleRefused(_("This date is cancelled: reinstate it first."))
    if row.event is not None and row.event.deleted_at is None:
        raise ScheduleRefused(_("An event was started from this date already."))


def _link(row: ScheduleDate, event: Event) -> None:
    """The date links its event: the schedule and feeds link the results once published."""
    row.event = event
    row.save(update_fields=["event"])
    _revised(row.entry)
    club_changed(event.club_id, OnPages())


def _revised(entry: ScheduleEntry) -> None:
    """The entry's calendar events were revised now (their DTSTAMP)."""
    ScheduleEntry.objects.filter(pk=entry.pk).update(changed_at=timezone.now())


def _check_text(text: str, length: int, *, required: bool = False) -> str:
    text = clean_name(text)  # no invisible or bidi characters, plain spaces, one line
    if required and not text:
        raise ScheduleRefused(_("Give the scheduled event a name."))
    if len(text) > length:
        raise ScheduleRefused(_("A text here is longer than %(max)d characters.") % {"max": length})
    return text


def _check_notes(notes: str) -> str:
    """Notes keep their lines (directions, what to bring), nothing else invisible."""
    lines = [clean_name(line) for line in notes.replace("\r\n", "\n").split("\n")]
    text = "\n".join(lines).strip()
    if len(text) > NOTES_LENGTH:
        raise ScheduleRefused(
            _("The notes are longer than %(max)d characters.") % {"max": NOTES_LENGTH}
        )
    return text


def _check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise ScheduleRefused(_("Choose the kind of event from the list."))
    return kind


def _check_until(date: dt.date, until: dt.date | None) -> dt.date | None:
    if until is None:
        return None
    if until < date:
        raise ScheduleRefused(_("A weekly event must repeat until its first date or later."))
    if (until - date).days > MOST_WEEKS * 7:
        raise ScheduleRefused(_("A weekly event can repeat for two years at most."))
    return until


def _check_day(entry: ScheduleEntry, day: dt.date) -> None:
    if day not in set(entry.dates()):
        raise ScheduleRefused(_("The scheduled event has no date %(day)s.") % {"day": day})
