"""An event's details and its edit version: creating and changing a draft, and the claim.

Each function that changes an event is one transaction. It first claims the event's
`edit_version` with a conditional UPDATE (`claim`: a save based on an older version is
refused, never applied over somebody else's), then changes the rows, writes the audit entry
and, when the event is a published ladder input, calls `club_changed`. Views and the
commands are thin callers; results, names, the preview and publishing have their own modules
(directors/events/results.py, directors/events/names.py, directors/events/flow.py,
directors/events/publishing.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Event, User
from directors.edits import PublishingError, claim, max_length
from ladder.changes import LadderInput, OnPages, club_changed, combined
from matching import clean_name

MAX_EVENT_NAME_LENGTH = max_length(Event, "name")
# Fields of an event that the ladder depends on; the name is not one of them.
_LADDER_FIELDS = ("date", "order_in_day", "kind", "rated")


@dataclass(frozen=True)
class EventDetails:
    name: str
    date: dt.date
    order_in_day: int = 0
    kind: str = Event.Kind.STANDARD
    rated: bool = True
    # Whether uploaded results are a round robin, as the director says (Event.round_robin:
    # its tie-breaks are then a round robin's, not a Swiss's); None leaves it as it is (the
    # form of a new event, a club night's, whose pairing system says it).
    round_robin: bool | None = None

    def checked(self) -> EventDetails:
        name = clean_name(self.name)  # no invisible or bidi characters, plain spaces
        if not name:
            raise PublishingError(_("Give the event a name."))
        if len(name) > MAX_EVENT_NAME_LENGTH:
            raise PublishingError(
                _("The event name is longer than %(max)d characters.")
                % {"max": MAX_EVENT_NAME_LENGTH}
            )
        if self.kind not in Event.Kind.values:
            raise PublishingError(_("Choose the kind of event from the list."))
        if not 0 <= self.order_in_day <= 32767:
            raise PublishingError(_("The order in the day must be between 0 and 32767."))
        return EventDetails(
            name, self.date, self.order_in_day, self.kind, self.rated, self.round_robin
        )


def create_event(
    club: Club, details: EventDetails, user: User | None, *, newcomer_start: str | None = None
) -> Event:
    """A new draft event without results; its new players start as `newcomer_start` says,
    or the club's setting, until a file's upload chooses otherwise."""
    details = details.checked()
    with transaction.atomic():
        event = Event.objects.create(
            club=club, newcomer_start=newcomer_start or club.newcomer_start, **fields_of(details)
        )
        audit.record(club, user, "event.created", event_id=event.pk, name=event.name)
    return event


def update_event(event_id: int, version: int, details: EventDetails, user: User | None) -> Event:
    """Change the name, date, order in the day, kind, rated flag or, for uploaded results,
    whether they are a round robin."""
    details = details.checked()
    with transaction.atomic():
        event = claim(event_id, version)
        if details.round_robin is not None and event.pairing_system:
            raise PublishingError(
                _("A club night is ranked by the system it was paired with, which stays.")
            )
        new = fields_of(details)
        changed = sorted(name for name, value in new.items() if getattr(event, name) != value)
        Event.objects.filter(pk=event.pk).update(**new)
        said: dict[str, object] = {}
        if "round_robin" in changed:  # the old and the new word, for the log's sentence
            said["round_robin"] = [event.round_robin, new["round_robin"]]
        audit.record(
            event.club_id, user, "event.updated", event_id=event.pk, changed=changed, **said
        )
        inputs = event.is_published and bool(set(changed) & set(_LADDER_FIELDS))
        # A round robin's tie-breaks rank the standings otherwise but change no rating: what
        # the pages show moves (the event page, the list's winners, the export's places).
        shown = bool({"name", "round_robin"} & set(changed))
        ladder_input = LadderInput(
            # Both kinds when it changed: the ladder it left and the one it joins.
            kinds=frozenset({event.kind, new.get("kind", event.kind)}),
            from_date=min(event.date, new.get("date", event.date)),
        )
        on_pages = OnPages(
            # Its kept standings no longer match (their hash holds the flag): kept anew.
            ranked_event=event.pk if "round_robin" in changed and event.is_published else None,
        )
        change = combined(ladder_input if inputs else None, on_pages if shown else None)
        if change is not None:
            club_changed(event.club_id, change)
    return reload_event(event_id)


def refuse_deleted(event: Event) -> None:
    if event.deleted_at is not None:
        raise PublishingError(_("This event is deleted: restore it before changing it."))


def reload_event(event_id: int) -> Event:
    return Event.objects.select_related("club").get(pk=event_id)


def fields_of(details: EventDetails) -> dict[str, Any]:
    """The event's fields the details set (round_robin only when they say it)."""
    fields: dict[str, Any] = {
        "name": details.name,
        "date": details.date,
        "order_in_day": details.order_in_day,
        "kind": details.kind,
        "rated": details.rated,
    }
    if details.round_robin is not None:
        fields["round_robin"] = details.round_robin
    return fields


def listed(names: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(names[:limit])
    if len(names) > limit:
        shown += " " + _("and %(count)d more") % {"count": len(names) - limit}
    return shown
