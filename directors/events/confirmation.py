"""The two steps of a change to a published event (pending_changes.py), for every screen.

`submit` is what a screen's view calls with the change the director made: a draft's applies
at once; a published event's is previewed and its confirm page returned. Not a view module:
the screens of other rooms (the roster's re-point) call it too. The one view the confirm pages
post to, `event_change_confirm`, is in views.py: it applies the held change through its own
write function, or refuses a token that no longer matches.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.access import AuthedRequest
from clubs.models import Event, Player
from directors.edits import PublishingError
from directors.events import changes as event_changes
from directors.events import corrections, pending_changes
from directors.events.drafts import fields_of
from directors.events.forms import (
    ROUND_ROBIN,
    SWISS,
    SYSTEM_CHOICES,
    SYSTEM_LABEL,
    EventDetailsForm,
)
from directors.events.names import DecisionsApplied
from directors.importers import ImportedEvent, ImportFileError
from directors.roster.merging import RosterChangeError
from ladder.impact.compare import LadderImpact

MOVES_SHOWN = 25  # the largest rating moves a confirm page lists
LINES_SHOWN = 50  # the entrants a names confirm page lists
REFUSED = (ImportFileError, PublishingError, RosterChangeError)


@dataclass(frozen=True)
class Submitted:
    page: HttpResponse | None  # the confirm page, when the change waits for confirmation
    result: object  # what the write returned (or, waiting, would return)


def submit(
    request: AuthedRequest,
    event: Event,
    change: pending_changes.PendingChange,
    *,
    changes: Callable[[object], bool] | None = None,
    may_change: Callable[[], bool] | None = None,
) -> Submitted:
    """Apply `change` to a draft at once; for a published event return its confirm page,
    unless `changes` says the previewed write changes nothing (then it applies at once, as a
    save of an unchanged form always has). `may_change`, when it cheaply finds the change
    moves nothing, spares that preview. Raises what the write raises."""
    impact, result = preview_or_apply(
        request, event, change, changes=changes, may_change=may_change
    )
    page = None if impact is None else confirm_page(request, event, change, impact)
    return Submitted(page, result)


def preview_or_apply(
    request: AuthedRequest,
    event: Event,
    change: pending_changes.PendingChange,
    *,
    changes: Callable[[object], bool] | None = None,
    may_change: Callable[[], bool] | None = None,
) -> tuple[LadderImpact | None, object]:
    """`submit`'s first step, for a screen that adds its own notes before the confirm page:
    what the change would move (None when it was applied at once) and what the write
    returned (or, waiting, would return)."""
    if pending_changes.needs_confirmation(event) and (may_change is None or may_change()):
        shown = pending_changes.preview(event.club_id, change, request.user)
        if changes is None or changes(shown.result):
            return shown.impact, shown.result
    return None, change.apply(request.user)


def confirm_page(
    request: AuthedRequest,
    event: Event,
    change: pending_changes.PendingChange,
    impact: LadderImpact,
) -> HttpResponse:
    """The change held, and what it would move, with the button that applies it."""
    pending_changes.hold(request.session, change)
    shown = impact.moves[:MOVES_SHOWN]
    names = dict(
        Player.objects.filter(pk__in=[m.player_id for m in shown]).values_list("id", "name")
    )
    context = {
        "club": event.club,
        "event": event,
        "pending": change,
        "impact": impact,
        "moves": [{"name": names.get(m.player_id, ""), "move": m} for m in shown],
    }
    if isinstance(change, corrections.PendingCorrection):
        now = event.games.all()
        if change.round_no is not None:
            now = now.filter(round=change.round_no)
        context.update(
            games=len(change.imported.games),
            games_now=now.count(),
            type_change=_type_change(event, change),
        )
        return render(request, "directors/events/correction.html", context)
    return render(
        request, "directors/events/confirm_change.html", {**context, **_described(event, change)}
    )


def _type_change(event: Event, change: corrections.PendingCorrection) -> str:
    """What the corrected file's own type would change (results.py stores what a whole file
    says it was), so that a director who set the pairing system sees the file set it again."""
    said = change.imported.round_robin
    if event.pairing_system or change.round_no is not None or said in (None, event.round_robin):
        return ""
    if said:
        return _("The file says this event is a round robin: its standings will be ranked as one (now as a Swiss).")  # fmt: skip  # noqa: E501
    return _("The file says this event is a Swiss: its standings will be ranked as one (now as a round robin).")  # fmt: skip  # noqa: E501


def _described(event: Event, change: pending_changes.PendingChange) -> dict[str, object]:
    if isinstance(change, event_changes.PendingDetails):
        return {
            "step": "edit",
            "heading": _("Confirm the new details"),
            "details": _details_rows(event, change),
            "apply_label": _("Save the new details"),
        }
    if isinstance(change, event_changes.PendingNames):
        lines = event_changes.decisions_described(event, change.decisions)
        return {
            "step": "names",
            "heading": _("Confirm the name decisions"),
            "lines": lines[:LINES_SHOWN],
            "more_lines": max(len(lines) - LINES_SHOWN, 0),
            "apply_label": _("Save the name decisions"),
        }
    assert isinstance(change, event_changes.PendingRepoint)
    entry = event.entries.select_related("player").get(pk=change.entry_id)
    if change.player_id is None:
        to = _("a new player, %(name)s") % {"name": change.new_name}
    else:
        to = Player.objects.get(pk=change.player_id).name
    return {
        "step": "names",
        "heading": _("Confirm the re-point"),
        "lines": [
            _("“%(typed)s” counts for %(from)s; it would count for %(to)s.")
            % {
                "typed": entry.typed_name,
                "from": entry.player.name if entry.player else _("no player"),
                "to": to,
            }
        ],
        "apply_label": _("Re-point the entry"),
    }


def _details_rows(event: Event, change: event_changes.PendingDetails) -> list[dict[str, str]]:
    # The labels of the form the director used.
    labels = {**EventDetailsForm.Meta.labels, "round_robin": SYSTEM_LABEL}
    systems = dict(SYSTEM_CHOICES)
    new = fields_of(change.details.checked())

    def shown(field: str, value: object) -> str:
        if isinstance(value, dt.date):
            return date_format(value, "SHORT_DATE_FORMAT")
        if field == "kind":
            return str(Event.Kind(str(value)).label)
        if field == "rated":
            return _("yes") if value else _("no")
        if field == "round_robin":
            return str(systems[ROUND_ROBIN if value else SWISS])
        return str(value)

    return [
        {"label": str(labels[f]), "now": shown(f, getattr(event, f)), "new": shown(f, new[f])}
        for f in event_changes.changed_details(event, change.details)
    ]


def results_saved_message(imported: ImportedEvent) -> str:
    return ngettext(
        "%(count)d game or bye is saved.",
        "%(count)d games and byes are saved.",
        len(imported.games),
    ) % {"count": len(imported.games)}


def names_saved_message(applied: DecisionsApplied) -> str:
    return _(
        "Saved: %(linked)d linked to existing players, %(created)d new players, "
        "%(dropped)d without a player."
    ) % {"linked": applied.linked, "created": applied.created, "dropped": applied.left_out}
