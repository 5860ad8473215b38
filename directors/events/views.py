"""The director's event screens: details, names, preview, publishing, and the confirm pages'
one view (results: results_views.py; the two steps of a change: confirmation.py).

Thin views: the access helper, a form, one function of the event modules
(directors/events/drafts.py,
directors/events/names.py, directors/events/publishing.py), a redirect.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import audit
from clubs.access import AuthedRequest, club_for_director, event_for_director
from clubs.labels.results import RESULT_CHOICES
from clubs.models import Club, Entry, Event, Player
from directors import edits
from directors.events import changes as event_changes
from directors.events import confirmation, corrections, flow, pending_changes, publishing
from directors.events import drafts as event_drafts
from directors.events import names as name_decisions
from directors.events import names_html as names_html
from directors.events import names_table as name_table
from directors.events.flow import preview_event
from directors.events.forms import (
    ActionForm,
    AddEntryForm,
    BulkNamesForm,
    EventDetailsForm,
    EventEditForm,
    NamesForm,
    roster_label,
)
from members.files.event_export import event_csv, event_trf
from members.files.event_export import file_name as export_file_name


def event_list(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    events = club.events.order_by("-date", "-order_in_day", "-created_at", "-id")
    return render(request, "directors/events/list.html", {"club": club, "events": events})


def event_create(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = EventDetailsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = event_drafts.create_event(club, form.details(), request.user)
        except edits.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The event is saved as a draft. Now enter its results."))
            return redirect("event_results", slug=club.slug, event_id=event.pk)
    return render(
        request, "directors/events/form.html", {"club": club, "form": form, "event": None}
    )


def event_detail(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    # Plain rows, not model instances: an event may have tens of thousands of games.
    labels = dict(RESULT_CHOICES)
    games = [
        {"round": round_no, "white": white, "black": black, "label": labels.get(r, r)}
        for round_no, white, black, r in event.games.order_by("round", "id").values_list(
            "round", "white__typed_name", "black__typed_name", "result"
        )
    ]
    unconfirmed = flow.unconfirmed_names(event)
    return render(
        request,
        "directors/events/detail.html",
        {
            "club": event.club,
            "event": event,
            "games": games,
            "entrants": event.entries.count(),
            "unconfirmed": unconfirmed,
            "action_form": _action_form(event),
            "share_url": _share_url(event),
        },
    )


def _share_url(event: Event) -> str | None:
    """The event's own results link, when it opens anything (access.event_for_share_token)."""
    if not event.is_published or event.club.visibility == Club.Visibility.DIRECTOR:
        return None
    path = reverse("shared_event", kwargs={"share_token": event.share_token})
    return settings.SITE_URL.rstrip("/") + path


@require_POST
def event_share_rotate(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    with transaction.atomic():
        event.rotate_share_token()
        # The token itself is never written to the log.
        audit.record(event.club_id, request.user, "share_link.rotated", event_id=event.pk)
    messages.success(request, _("The event has a new results link. The old link no longer works."))
    return redirect("event_detail", slug=slug, event_id=event.pk)


def event_edit(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = EventEditForm(
        request.POST or None, instance=event, initial={"version": event.edit_version}
    )
    if request.method == "POST" and form.is_valid():
        details = form.details()
        change = event_changes.PendingDetails(event.pk, form.cleaned_data["version"], details)
        try:
            # A published event's new details wait for confirmation when they change anything.
            # Compared with the stored row: the model form has set them on `event` already.
            stored = event_drafts.reload_event(event.pk)
            if event_changes.changed_details(stored, details):
                done = confirmation.submit(request, stored, change)
            else:
                done = confirmation.Submitted(None, change.apply(request.user))
        except edits.PublishingError as error:
            messages.error(request, error.message)
            if isinstance(error, edits.StaleEditError):
                return redirect("event_edit", slug=slug, event_id=event.pk)
        else:
            if done.page is not None:
                return done.page
            messages.success(request, _("The event's details are saved."))
            return redirect("event_detail", slug=slug, event_id=event.pk)
    return render(
        request, "directors/events/form.html", {"club": event.club, "form": form, "event": event}
    )


# Names ---------------------------------------------------------------------------------------


def event_names(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    show = name_table.read_show(request.GET.get("show"), legacy_all=request.GET.get("all") == "1")
    posted = request.method == "POST"
    # A submitted form is read without the suggestions (most of the work); they are
    # computed only for a page to show. It is read against every entrant: a filtered page
    # posts only its rows, and a row not posted decides nothing.
    every = posted or show == name_table.Show.ALL
    reviews = name_decisions.review_names(event, include_confirmed=every, suggest=not posted)
    roster = name_decisions.name_roster(event.club)
    form = NamesForm(
        request.POST or None, reviews=reviews, roster=roster, initial=version_initial(event)
    )
    here = _names_url(slug, event.pk, show)
    if posted:
        if not form.is_valid():
            for error in form.error_messages():
                messages.error(request, error)
        else:
            change = event_changes.PendingNames(
                event.pk, form.cleaned_data["version"], tuple(form.decisions()), here
            )
            try:
                done = _submit_names(request, event, change)
            except edits.PublishingError as error:
                messages.error(request, error.message)
                if isinstance(error, edits.StaleEditError):
                    return redirect(here)
            else:
                if done.page is not None:
                    return done.page
                assert isinstance(done.result, name_decisions.DecisionsApplied)
                messages.success(request, confirmation.names_saved_message(done.result))
                if flow.unconfirmed_names(event):
                    return redirect(here)
                return redirect("event_preview", slug=slug, event_id=event.pk)
        reviews = name_decisions.review_names(event, include_confirmed=show == name_table.Show.ALL)
    rows = name_table.shown(reviews, show)
    return render(
        request,
        "directors/events/names.html",
        {
            "club": event.club,
            "event": event,
            "form": form,
            "rows": len(rows),
            "name_rows": form.rows_html(rows, name_table.candidate_details(event, rows)),
            "show": show.value,
            "filters": _name_filters(slug, event.pk, show, name_table.counts(reviews)),
            "bulk": {
                kind.value: len(name_table.bulk_decisions(reviews, kind))
                for kind in name_table.Bulk
            },
            "bulk_form": BulkNamesForm(initial={**version_initial(event), "show": show.value}),
            "roster_list": names_html.roster_datalist(
                roster_label(pid, name) for pid, name in roster.names.items()
            ),
            "add_form": AddEntryForm(initial=version_initial(event)),
            "action_form": _action_form(event),
            "no_game_entries": event.entries.filter(
                games_as_white__isnull=True, games_as_black__isnull=True
            ).order_by("start_rank", "id"),
        },
    )


@require_POST
def event_names_bulk(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """A bulk button of the names table: every same-name link, or every unmatched name a
    new player; applied like the table's own decisions, with the page's edit version."""
    event = event_for_director(request, slug, event_id)
    form = BulkNamesForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form could not be read: reload the page and try again."))
        return redirect("event_names", slug=slug, event_id=event.pk)
    here = _names_url(slug, event.pk, name_table.read_show(form.cleaned_data["show"]))
    action = name_table.Bulk(form.cleaned_data["action"])
    decisions = name_table.bulk_decisions(name_decisions.review_names(event), action)
    if not decisions:
        messages.info(request, _("No name is left for that button."))
        return redirect(here)
    change = event_changes.PendingNames(
        event.pk, form.cleaned_data["version"], tuple(decisions), here
    )
    try:
        done = _submit_names(request, event, change)
    except edits.PublishingError as error:
        messages.error(request, error.message)
    else:
        if done.page is not None:
            return done.page
        assert isinstance(done.result, name_decisions.DecisionsApplied)
        messages.success(request, confirmation.names_saved_message(done.result))
    return redirect(here)


def _submit_names(
    request: AuthedRequest, event: Event, change: event_changes.PendingNames
) -> confirmation.Submitted:
    """Name decisions: a published event's wait for confirmation when they move a link."""
    return confirmation.submit(
        request,
        event,
        change,
        changes=lambda applied: (
            isinstance(applied, name_decisions.DecisionsApplied)
            and event_changes.names_change_anything(applied)
        ),
        # A save of the names as they are (the usual one) needs no replay to say so.
        may_change=lambda: event_changes.decisions_may_change(event, change.decisions),
    )


def _names_url(slug: str, event_id: int, show: name_table.Show) -> str:
    here = reverse("event_names", kwargs={"slug": slug, "event_id": event_id})
    return here if show == name_table.Show.OPEN else f"{here}?show={show.value}"


def _name_filters(
    slug: str, event_id: int, show: name_table.Show, counts: dict[name_table.Show, int]
) -> list[dict[str, object]]:
    """The filter links, each with its count (the "all" link counts only when shown)."""
    labels = {
        name_table.Show.OPEN: _("To confirm"),
        name_table.Show.DECIDE: _("Needs a decision"),
        name_table.Show.SUGGESTED: _("Suggested"),
        name_table.Show.NEW: _("New"),
        name_table.Show.ALL: _("All, confirmed too"),
    }
    return [
        {
            "url": _names_url(slug, event_id, kind),
            "label": label,
            "count": counts[kind] if kind != name_table.Show.ALL or show == kind else None,
            "current": kind == show,
        }
        for kind, label in labels.items()
    ]


@require_POST
def event_entry_add(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = AddEntryForm(request.POST)
    if form.is_valid():
        try:
            name_decisions.add_entry(
                event.pk,
                form.cleaned_data["version"],
                form.cleaned_data["typed_name"],
                request.user,
            )
        except edits.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The name is added: confirm who it is below."))
    else:
        messages.error(request, _("Type the name to add (at most 120 characters)."))
    return redirect("event_names", slug=slug, event_id=event.pk)


@require_POST
def event_entry_remove(
    request: AuthedRequest, slug: str, event_id: int, entry_id: int
) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    entry = get_object_or_404(Entry, event=event, pk=entry_id)
    form = ActionForm(request.POST)
    if form.is_valid():
        try:
            name_decisions.remove_entry(
                event.pk, form.cleaned_data["version"], entry.pk, request.user
            )
        except edits.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(name)s is removed from the event.") % {"name": entry})
    else:
        messages.error(request, _("The form could not be read: reload the page and try again."))
    return redirect("event_names", slug=slug, event_id=event.pk)


# Preview and publishing --------------------------------------------------------------------------


@require_safe
def event_export_trf(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """The event as a FIDE TRF16 file, full names, ladder ratings at its start."""
    event = event_for_director(request, slug, event_id)
    text = event_trf(event, viewer_is_director=True)
    return _attachment(text, "text/plain", export_file_name(event, "trf"))


@require_safe
def event_export_csv(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """The event as the CSV the importer reads: one row per game or bye."""
    event = event_for_director(request, slug, event_id)
    text = event_csv(event, viewer_is_director=True)
    return _attachment(text, "text/csv", export_file_name(event, "csv"))


def _attachment(text: str, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def event_preview(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    preview = preview_event(event)
    return render(
        request,
        "directors/events/preview.html",
        {
            "club": event.club,
            "event": event,
            "preview": preview,
            "action_form": _action_form(event),
        },
    )


@require_POST
def event_publish(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(request, slug, event_id, flow.publish_event, _("The event is published."))


@require_POST
def event_unpublish(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        event_id,
        publishing.unpublish_event,
        _("The event is a draft again and no longer counts for the ladder."),
    )


@require_POST
def event_delete(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        event_id,
        publishing.delete_event,
        _("The event is deleted. You can restore it from its page."),
    )


@require_POST
def event_restore(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(request, slug, event_id, publishing.restore_event, _("The event is restored."))


def _act(
    request: AuthedRequest,
    slug: str,
    event_id: int,
    action: publishing.EventAction,
    done: str,
) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = ActionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form could not be read: reload the page and try again."))
    else:
        try:
            action(event.pk, form.cleaned_data["version"], request.user)
        except edits.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
    return redirect("event_detail", slug=slug, event_id=event.pk)


# Helpers -------------------------------------------------------------------------------------


def version_initial(event: Event) -> dict[str, int]:
    return {"version": event.edit_version}


def _action_form(event: Event) -> ActionForm:
    return ActionForm(initial=version_initial(event))


def bounded_int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        return default
    return min(max(value, low), high)


@require_POST
def event_change_confirm(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """Apply (or drop) the change the confirm page showed."""
    event = event_for_director(request, slug, event_id)
    if "cancel" in request.POST:
        pending_changes.drop(request.session, event.pk)
        messages.info(request, _("The change was not applied; nothing changed."))
        return redirect("event_detail", slug=slug, event_id=event.pk)
    if "token" not in request.POST:
        return HttpResponseBadRequest(_("This form is incomplete: open the change again."))
    change = pending_changes.take(request.session, event.pk, request.POST["token"])
    if change is None:
        # Applied, cancelled, replaced by a newer change, or never shown: a conflict, not a save.
        return render(
            request,
            "directors/events/change_gone.html",
            {"club": event.club, "event": event},
            status=409,
        )
    # Whatever happens next, this change is done: a refused one cannot succeed later.
    pending_changes.drop(request.session, event.pk)
    try:
        result = change.apply(request.user)
    except confirmation.REFUSED as error:
        messages.error(request, error.message)
        return redirect("event_detail", slug=slug, event_id=event.pk)
    message, url = _finished(event, change, result)
    messages.success(request, message)
    return redirect(url)


def _finished(
    event: Event, change: pending_changes.PendingChange, result: object
) -> tuple[str, str]:
    """The message and the page after a confirmed change."""
    if isinstance(change, corrections.PendingCorrection):
        return confirmation.results_saved_message(change.imported), change.next_url
    if isinstance(change, event_changes.PendingNames):
        assert isinstance(result, name_decisions.DecisionsApplied)
        return confirmation.names_saved_message(result), change.next_url
    if isinstance(change, event_changes.PendingRepoint):
        assert isinstance(result, Player)
        typed = (
            Entry.objects.filter(pk=change.entry_id).values_list("typed_name", flat=True).first()
        )
        return (
            _("%(typed)s in %(event)s now counts for %(name)s.")
            % {"typed": typed or "", "event": event, "name": result.name},
            reverse("roster_player", kwargs={"slug": event.club.slug, "player_id": result.pk}),
        )
    return _("The event's details are saved."), reverse(
        "event_detail", kwargs={"slug": event.club.slug, "event_id": event.pk}
    )
