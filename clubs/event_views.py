"""The director's event screens: details, results (file, pasted CSV, grid), names, preview.

Thin views: the access helper, a form, one clubs.publishing function, a redirect.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs import audit, publishing
from clubs.access import club_for_director, event_for_director
from clubs.date_notes import event_date_note
from clubs.event_forms import (
    GRID_ALL_ROUNDS_MAX,
    MAX_BLANK_ROWS,
    RESULT_CHOICES,
    RESULT_LABELS,
    ActionForm,
    AddEntryForm,
    EventDetailsForm,
    EventEditForm,
    GridFormSet,
    GridVersionForm,
    NamesForm,
    PasteForm,
    UploadForm,
    grid_initial,
    grid_rows_from,
    roster_label,
    several_events_message,
    too_large_message,
)
from clubs.importers import (
    ImportedEvent,
    ImportFileError,
    SeveralEventsError,
    detect_format,
    parse_file,
)
from clubs.models import Club, Entry, Event

BLANK_ROWS = 10
MAX_WARNINGS = 20


def event_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    events = club.events.order_by("-date", "-order_in_day", "-created_at", "-id")
    return render(request, "clubs/events/list.html", {"club": club, "events": events})


def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = EventDetailsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            event = publishing.create_event(club, form.details(), request.user)
        except publishing.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The event is saved as a draft. Now enter its results."))
            return redirect("event_results", slug=club.slug, event_id=event.pk)
    return render(request, "clubs/events/form.html", {"club": club, "form": form, "event": None})


def event_detail(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    # Plain rows, not model instances: an event may have tens of thousands of games.
    games = [
        {"round": round_no, "white": white, "black": black, "label": RESULT_LABELS.get(r, r)}
        for round_no, white, black, r in event.games.order_by("round", "id").values_list(
            "round", "white__typed_name", "black__typed_name", "result"
        )
    ]
    unconfirmed = publishing.unconfirmed_names(event)
    return render(
        request,
        "clubs/events/detail.html",
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
def event_share_rotate(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    with transaction.atomic():
        event.rotate_share_token()
        # The token itself is never written to the log.
        audit.record(event.club_id, request.user, "event.share_link_rotated", event_id=event.pk)
    messages.success(request, _("The event has a new results link. The old link no longer works."))
    return redirect("event_detail", slug=slug, event_id=event.pk)


def event_edit(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = EventEditForm(
        request.POST or None, instance=event, initial={"version": event.edit_version}
    )
    if request.method == "POST" and form.is_valid():
        try:
            publishing.update_event(
                event.pk, form.cleaned_data["version"], form.details(), request.user
            )
        except publishing.PublishingError as error:
            messages.error(request, error.message)
            if isinstance(error, publishing.StaleEditError):
                return redirect("event_edit", slug=slug, event_id=event.pk)
        else:
            messages.success(request, _("The event's details are saved."))
            return redirect("event_detail", slug=slug, event_id=event.pk)
    return render(
        request, "clubs/events/form.html", {"club": event.club, "form": form, "event": event}
    )


# Results -------------------------------------------------------------------------------------


def event_results(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    return _results_page(request, event, UploadForm(initial=_version(event)), None)


@require_POST
def event_upload(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = UploadForm(request.POST, request.FILES)
    if "file" not in request.FILES and _content_length(request) > publishing.MAX_UPLOAD_BYTES:
        # Above Django's in-memory limit the upload handler drops the file unread.
        messages.error(request, too_large_message(None))
        return _results_page(request, event, UploadForm(initial=_version(event)), None)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return _results_page(request, event, form, None)
    upload = form.cleaned_data["file"]
    data = upload.read()
    try:
        fmt = form.cleaned_data["format"]
        if fmt == "auto":
            fmt = detect_format(upload.name or "", data)
        imported = parse_file(
            data, fmt, event_date=event.date, event=form.cleaned_data["event"] or None
        )
    except SeveralEventsError as error:
        # The file is not kept: the director chooses the event and uploads it again.
        messages.error(request, several_events_message(error.events))
        choice = UploadForm(
            initial={**_version(event), "format": form.cleaned_data["format"]},
            events=error.events,
        )
        return _results_page(request, event, choice, None)
    except ImportFileError as error:
        messages.error(request, error.message)
        return _results_page(request, event, form, None)
    return _store(request, event, form.cleaned_data["version"], imported, f"file:{fmt}", True)


@require_POST
def event_paste(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _results_page(request, event, UploadForm(initial=_version(event)), form)
    try:
        imported = parse_file(form.cleaned_data["text"].encode("utf-8"), "csv")
    except ImportFileError as error:
        messages.error(request, error.message)
        return _results_page(request, event, UploadForm(initial=_version(event)), form)
    return _store(request, event, form.cleaned_data["version"], imported, "paste", True)


def _store(
    request: HttpRequest,
    event: Event,
    version: int,
    imported: ImportedEvent,
    source: str,
    replace_entries: bool,
) -> HttpResponse:
    try:
        publishing.set_results(
            event.pk,
            version,
            imported,
            request.user,
            source=source,
            replace_entries=replace_entries,
        )
    except ImportFileError as error:
        messages.error(request, error.message)
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    except publishing.PublishingError as error:
        messages.error(request, error.message)
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    for warning in imported.warnings[:MAX_WARNINGS]:
        messages.warning(request, warning)
    if imported.date is not None and imported.date_source is not None:
        messages.info(request, event_date_note(imported.date, imported.date_source, event.date))
    messages.success(
        request,
        ngettext(
            "%(count)d game or bye is saved.",
            "%(count)d games and byes are saved.",
            len(imported.games),
        )
        % {"count": len(imported.games)},
    )
    return redirect("event_names", slug=event.club.slug, event_id=event.pk)


def _results_page(
    request: HttpRequest, event: Event, upload_form: UploadForm, paste_form: PasteForm | None
) -> HttpResponse:
    return render(
        request,
        "clubs/events/results.html",
        {
            "club": event.club,
            "event": event,
            "upload_form": upload_form,
            "paste_form": paste_form or PasteForm(initial=_version(event)),
            "max_upload": publishing.MAX_UPLOAD_BYTES,
        },
    )


def event_grid(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    rounds = sorted(set(event.games.values_list("round", flat=True)))
    whole = event.games.count() <= GRID_ALL_ROUNDS_MAX
    if request.method == "POST":
        formset = GridFormSet(request.POST, prefix="row")
        version_form = GridVersionForm(request.POST)
        round_no = _int(request.POST.get("round"), 0, 0, publishing.MAX_ROUND) or None
        if formset.is_valid() and version_form.is_valid():
            version = version_form.cleaned_data["version"]
            try:
                imported = publishing.grid_to_imported(grid_rows_from(formset, round_no))
                if round_no is None:
                    publishing.set_results(
                        event.pk,
                        version,
                        imported,
                        request.user,
                        source="grid",
                        replace_entries=False,
                    )
                else:
                    publishing.set_round_results(
                        event.pk, version, round_no, imported, request.user
                    )
            except publishing.StaleEditError as error:
                messages.error(request, error.message)
                return redirect(_grid_url(event, round_no))
            except (ImportFileError, publishing.PublishingError) as error:
                messages.error(request, error.message)
            else:
                messages.success(request, _("The results are saved."))
                if "more" in request.POST:
                    return redirect(_grid_url(event, round_no, blank=BLANK_ROWS * 3))
                return redirect("event_names", slug=slug, event_id=event.pk)
        else:
            messages.error(request, _("The grid could not be read: reload the page and try again."))
    else:
        # A large event is shown one round at a time, the last round first.
        round_no = _int(request.GET.get("round"), 0, 0, publishing.MAX_ROUND) or None
        if round_no is None and not whole:
            round_no = rounds[-1]
        blank = _int(request.GET.get("blank"), BLANK_ROWS, 1, MAX_BLANK_ROWS)
        formset = GridFormSet(
            initial=grid_initial(publishing.grid_rows(event, round_no), blank), prefix="row"
        )
        version_form = GridVersionForm(initial={**_version(event), "round": round_no})
    names = sorted(
        {*event.entries.values_list("typed_name", flat=True)}
        | {*event.club.players.active().values_list("name", flat=True)},
        key=str.casefold,
    )
    return render(
        request,
        "clubs/events/grid.html",
        {
            "club": event.club,
            "event": event,
            "formset": formset,
            "version_form": version_form,
            "result_choices": RESULT_CHOICES,
            "names": names,
            "round_no": round_no,
            "rounds": rounds,
            "new_round": (rounds[-1] + 1) if rounds else 1,
            "whole": whole,
        },
    )


def _grid_url(event: Event, round_no: int | None, blank: int | None = None) -> str:
    url = reverse("event_grid", kwargs={"slug": event.club.slug, "event_id": event.pk})
    query = "&".join(
        f"{key}={value}" for key, value in (("round", round_no), ("blank", blank)) if value
    )
    return f"{url}?{query}" if query else url


# Names ---------------------------------------------------------------------------------------


def event_names(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    show_all = request.GET.get("all") == "1"
    posted = request.method == "POST"
    # A submitted form is read without the suggestions (most of the work); they are
    # computed only for a page to show.
    reviews = publishing.review_names(event, include_confirmed=show_all, suggest=not posted)
    roster = dict(event.club.players.active().order_by("name", "id").values_list("id", "name"))
    form = NamesForm(request.POST or None, reviews=reviews, roster=roster, initial=_version(event))
    here = reverse("event_names", kwargs={"slug": slug, "event_id": event.pk})
    if show_all:
        here += "?all=1"
    if request.method == "POST":
        if not form.is_valid():
            for error in form.error_messages():
                messages.error(request, error)
        else:
            try:
                applied = publishing.apply_name_decisions(
                    event.pk, form.cleaned_data["version"], form.decisions(), request.user
                )
            except publishing.PublishingError as error:
                messages.error(request, error.message)
                if isinstance(error, publishing.StaleEditError):
                    return redirect(here)
            else:
                messages.success(
                    request,
                    _(
                        "Saved: %(linked)d linked to existing players, %(created)d new players, "
                        "%(dropped)d without a player."
                    )
                    % {
                        "linked": applied.linked,
                        "created": applied.created,
                        "dropped": applied.left_out,
                    },
                )
                if publishing.unconfirmed_names(event):
                    return redirect(here)
                return redirect("event_preview", slug=slug, event_id=event.pk)
    if posted:
        reviews = publishing.review_names(event, include_confirmed=show_all)
    return render(
        request,
        "clubs/events/names.html",
        {
            "club": event.club,
            "event": event,
            "form": form,
            "name_rows": form.rows_html(reviews),
            "show_all": show_all,
            "roster_options": [roster_label(pid, name) for pid, name in roster.items()],
            "add_form": AddEntryForm(initial=_version(event)),
            "action_form": _action_form(event),
            "no_game_entries": event.entries.filter(
                games_as_white__isnull=True, games_as_black__isnull=True
            ).order_by("start_rank", "id"),
        },
    )


@require_POST
def event_entry_add(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = AddEntryForm(request.POST)
    if form.is_valid():
        try:
            publishing.add_entry(
                event.pk,
                form.cleaned_data["version"],
                form.cleaned_data["typed_name"],
                request.user,
            )
        except publishing.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The name is added: confirm who it is below."))
    else:
        messages.error(request, _("Type the name to add (at most 120 characters)."))
    return redirect("event_names", slug=slug, event_id=event.pk)


@require_POST
def event_entry_remove(
    request: HttpRequest, slug: str, event_id: int, entry_id: int
) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    entry = get_object_or_404(Entry, event=event, pk=entry_id)
    form = ActionForm(request.POST)
    if form.is_valid():
        try:
            publishing.remove_entry(event.pk, form.cleaned_data["version"], entry.pk, request.user)
        except publishing.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(name)s is removed from the event.") % {"name": entry})
    else:
        messages.error(request, _("The form could not be read: reload the page and try again."))
    return redirect("event_names", slug=slug, event_id=event.pk)


# Preview and publishing --------------------------------------------------------------------------


def event_preview(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    preview = publishing.preview_event(event)
    return render(
        request,
        "clubs/events/preview.html",
        {
            "club": event.club,
            "event": event,
            "preview": preview,
            "action_form": _action_form(event),
        },
    )


@require_POST
def event_publish(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(request, slug, event_id, publishing.publish_event, _("The event is published."))


@require_POST
def event_unpublish(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        event_id,
        publishing.unpublish_event,
        _("The event is a draft again and no longer counts for the ladder."),
    )


@require_POST
def event_delete(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(
        request,
        slug,
        event_id,
        publishing.delete_event,
        _("The event is deleted. You can restore it from its page."),
    )


@require_POST
def event_restore(request: HttpRequest, slug: str, event_id: int) -> HttpResponse:
    return _act(request, slug, event_id, publishing.restore_event, _("The event is restored."))


def _act(
    request: HttpRequest,
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
        except publishing.PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, done)
    return redirect("event_detail", slug=slug, event_id=event.pk)


# Helpers -------------------------------------------------------------------------------------


def _version(event: Event) -> dict[str, int]:
    return {"version": event.edit_version}


def _action_form(event: Event) -> ActionForm:
    return ActionForm(initial=_version(event))


def _content_length(request: HttpRequest) -> int:
    return _int(request.META.get("CONTENT_LENGTH"), 0, 0, 2**62)


def _int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        value = int(text or "")
    except ValueError:
        return default
    return min(max(value, low), high)
