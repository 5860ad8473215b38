"""What every write of a director's screen or command shares: the refusal it raises, written
for the director; the claim on an event's edit version that refuses a save based on an older
page; and a text field's limit, which forms and writes check before the database does."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F, Field, Model
from django.utils.translation import gettext as _

from clubs.models import Event


def max_length(model: type[Model], field: str) -> int:
    """A CharField's limit (the stubs type max_length int | None: other fields have none)."""
    found = model._meta.get_field(field)
    length = found.max_length if isinstance(found, Field) else None
    assert length is not None, f"{model.__name__}.{field} has no max_length"
    return length


class PublishingError(Exception):
    """A change that is refused; `message` is written for the director."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleEditError(PublishingError):
    """The event changed since the form was shown: nothing was saved."""


def claim(event_id: int, version: int) -> Event:
    """Take the event's edit version (inside the caller's transaction), or refuse."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("claim() must run inside transaction.atomic()")
    claimed = Event.objects.filter(pk=event_id, edit_version=version).update(
        edit_version=F("edit_version") + 1
    )
    if not claimed:
        raise StaleEditError(
            _(
                "This event was changed by someone else since you opened the page, so nothing "
                "was saved. The page now shows the current state: please make your change again."
            )
        )
    return Event.objects.select_related("club").get(pk=event_id)
