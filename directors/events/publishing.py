"""A published event taken back and returned: unpublish (a draft again), delete (kept, and
undone by restore), restore. Publishing itself is the last step of the flow
(directors/events/flow.py).

Every function here claims the event's edit version first (directors/edits.py) and calls
`club_changed` in the same transaction when the ladder's inputs change.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Entry, Event, Merge, Player, User
from directors.edits import PublishingError, claim
from directors.events.drafts import refuse_deleted, reload_event
from ladder.changes import Both, LadderInput, OnPages, club_changed

EventAction = Callable[[int, int, User | None], Event]


def unpublish_event(event_id: int, version: int, user: User | None) -> Event:
    """Take a published event back to draft; the ladder replays without it."""
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        if event.status != Event.Status.PUBLISHED:
            raise PublishingError(_("This event is not published."))
        Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
        audit.record(event.club_id, user, "event.unpublished", event_id=event.pk, name=event.name)
        # shown too: kept pages must not show it until the replay (or while the worker is down).
        club_changed(event.club_id, Both(LadderInput.of_event(event), OnPages()))
    return reload_event(event_id)


def delete_event(event_id: int, version: int, user: User | None) -> Event:
    """Hide the event and take it out of the ladder; restore_event brings it back."""
    with transaction.atomic():
        event = claim(event_id, version)
        if event.deleted_at is not None:
            raise PublishingError(_("This event is already deleted."))
        Event.objects.filter(pk=event.pk).update(deleted_at=timezone.now())
        audit.record(event.club_id, user, "event.deleted", event_id=event.pk, name=event.name)
        if event.status == Event.Status.DRAFT:
            _remove_held_players(event, user)
        if event.status == Event.Status.PUBLISHED:
            # shown too: kept pages must not show it until the replay (or while the worker is
            # down).
            club_changed(event.club_id, Both(LadderInput.of_event(event), OnPages()))
    return reload_event(event_id)


def _remove_held_players(event: Event, user: User | None) -> None:
    """The held players met only in this draft go with it: nothing else of the club knows
    them (no other event, no merge). Its entries stay, unlinked: restoring the draft brings
    their typed names back to the names screen, to be decided again."""
    candidates = Player.objects.filter(held=True, pk__in=event.entries.values("player_id"))
    # Locked before the check, so a names decision elsewhere cannot link one meanwhile.
    ids = list(candidates.select_for_update().order_by("pk").values_list("pk", flat=True))
    elsewhere = Entry.objects.filter(player=OuterRef("pk")).exclude(event=event)
    in_merge = Merge.objects.filter(Q(kept=OuterRef("pk")) | Q(merged=OuterRef("pk")))
    removed = Player.objects.filter(pk__in=ids).exclude(Exists(elsewhere)).exclude(Exists(in_merge))
    names = list(removed.order_by("name", "pk").values_list("name", flat=True))
    if not names:
        return
    gone = list(removed.values_list("pk", flat=True))
    Entry.objects.filter(event=event, player__in=gone).update(player=None)
    Player.objects.filter(pk__in=gone).delete()
    audit.record(
        event.club_id, user, "held_players.removed", event_id=event.pk, name=event.name,
        players=names,
    )  # fmt: skip


def restore_event(event_id: int, version: int, user: User | None) -> Event:
    with transaction.atomic():
        event = claim(event_id, version)
        if event.deleted_at is None:
            raise PublishingError(_("This event is not deleted."))
        Event.objects.filter(pk=event.pk).update(deleted_at=None)
        audit.record(event.club_id, user, "event.restored", event_id=event.pk, name=event.name)
        if event.status == Event.Status.PUBLISHED:
            club_changed(event.club_id, LadderInput.of_event(event))
    return reload_event(event_id)
