"""Publishing: a draft becomes a ladder input, or stops being one (unpublish, delete, restore);
and a whole file at once for the import_event command.

Every function here claims the event's edit version first (directors/events/drafts.py) and
calls `club_changed` in the same transaction when the ladder's inputs change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.models import Club, Entry, Event, Game, Merge, NewcomerStart, Player, User
from directors.edits import PublishingError, claim
from directors.events.drafts import EventDetails, listed, refuse_deleted, reload_event
from directors.events.names import (
    DecisionsApplied,
    apply_name_decisions,
    automatic_decisions,
    review_names,
)
from directors.events.results import KEPT_WITHOUT_PLAYER, create_draft_from_import
from directors.importers import ImportedEvent
from ladder.changes import Both, LadderInput, OnPages, club_changed


def unconfirmed_names(event: Event) -> list[str]:
    """Typed names with a game in the event and no confirmed player: publishing waits for them.
    A forfeit against another entrant needs no player (a no-show keeps it, never rated)."""
    has_game = Game.objects.filter(Q(white=OuterRef("pk")) | Q(black=OuterRef("pk"))).exclude(
        black__isnull=False, result__in=KEPT_WITHOUT_PLAYER
    )
    return list(
        event.entries.filter(Exists(has_game), player__isnull=True)
        .order_by("start_rank", "id")
        .values_list("typed_name", flat=True)
    )


EventAction = Callable[[int, int, User | None], Event]


def publish_event(event_id: int, version: int, user: User | None) -> Event:
    """Make a draft a ladder input. Every entrant with a game must have a confirmed player."""
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        if event.status == Event.Status.PUBLISHED:
            raise PublishingError(_("This event is already published."))
        if not event.games.exists():
            raise PublishingError(_("Enter the results before publishing."))
        unconfirmed = unconfirmed_names(event)
        if unconfirmed:
            raise PublishingError(
                ngettext(
                    "Confirm this name before publishing: %(names)s.",
                    "Confirm these %(count)d names before publishing: %(names)s.",
                    len(unconfirmed),
                )
                % {"names": listed(unconfirmed), "count": len(unconfirmed)}
            )
        Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
        audit.record(event.club_id, user, "event.published", event_id=event.pk, name=event.name)
        club_changed(event.club_id, LadderInput.of_event(event))
    return reload_event(event_id)


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


# --- A whole file at once (the import_event command) -----------------------------------------


@dataclass(frozen=True)
class ImportOptions:
    link_exact: bool = False
    publish: bool = False
    # Where new players start: the club's start rating, or the file's rating (NewcomerStart).
    newcomer_start: str = NewcomerStart.CLUB


@dataclass(frozen=True)
class ImportOutcome:
    event: Event
    created: int
    linked: int
    dropped: int  # entrants without a played game left without a player
    pending: list[str]  # names that need a director's decision; the event stays a draft
    published: bool


def import_event(
    club: Club,
    imported: ImportedEvent,
    details: EventDetails,
    options: ImportOptions,
    user: User | None = None,
) -> ImportOutcome:
    """Store a file as an event and take every decision `automatic_decisions` allows, in one
    transaction; publish too when asked and no name is left for a director."""
    with transaction.atomic():
        event = create_draft_from_import(
            club,
            imported,
            details,
            user,
            source="command",
            newcomer_start=options.newcomer_start,
        )
        auto = automatic_decisions(review_names(event), link_exact=options.link_exact)
        applied = DecisionsApplied(0, 0, 0)
        if auto.decisions:
            applied = apply_name_decisions(event.pk, event.edit_version, auto.decisions, user)
            event = reload_event(event.pk)
        published = False
        if options.publish and not auto.pending:
            event = publish_event(event.pk, event.edit_version, user)
            published = True
    return ImportOutcome(
        event, applied.created, applied.linked, applied.left_out, auto.pending, published
    )
