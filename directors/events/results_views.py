"""The director's results screens of an event: a file, pasted CSV, the grid.

Thin views like directors/events/views.py's: the access helper, a form, one directors.events.results
function, a redirect.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from clubs.access import AuthedRequest, event_for_director
from clubs.labels.results import RESULT_CHOICES, RESULT_LABELS
from clubs.models import Event, Upload
from directors import edits
from directors.date_notes import event_date_note
from directors.events import confirmation, corrections, flow, results
from directors.events.results_forms import (
    GRID_ALL_ROUNDS_MAX,
    MAX_BLANK_ROWS,
    GridFormSet,
    GridVersionForm,
    PasteForm,
    UploadForm,
    grid_initial,
    grid_rows_from,
    several_events_message,
    too_large_message,
)
from directors.events.views import bounded_int, version_initial
from directors.grid_keys import keys_by_result, keys_json
from directors.importers import (
    ImportedEvent,
    ImportFileError,
    SeveralEventsError,
)
from ladder.impact.compare import LadderImpact

BLANK_ROWS = 10
PROGRESS_RELOAD_SECONDS = 2
MAX_WARNINGS = 20


# Results -------------------------------------------------------------------------------------


def event_results(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    return _results_page(request, event, UploadForm(initial=_upload_initial(event)), None)


def _upload_initial(event: Event) -> dict[str, object]:
    """The version, and the starting-ratings choice: the club's setting for a first file,
    the event's own choice for a corrected one."""
    has_entries = event.entries.exists()
    start = event.newcomer_start if has_entries else event.club.newcomer_start
    return {**version_initial(event), "newcomer_start": start}


@require_POST
def event_upload(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = UploadForm(request.POST, request.FILES)
    if "file" not in request.FILES and _content_length(request) > results.MAX_UPLOAD_BYTES:
        # Above Django's in-memory limit the upload handler drops the file unread.
        messages.error(request, too_large_message(None))
        return _results_page(request, event, UploadForm(initial=_upload_initial(event)), None)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return _results_page(request, event, form, None)
    upload = form.cleaned_data["file"]
    received = flow.Received(
        data=upload.read(),
        filename=upload.name or "",
        fmt=form.cleaned_data["format"],
        event_name=form.cleaned_data["event"] or None,
        version=form.cleaned_data["version"],
        newcomer_start=form.cleaned_data["newcomer_start"] or None,
        source="file",
    )
    return _receive(request, event, received, form)


@require_POST
def event_paste(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    form = PasteForm(request.POST)
    if not form.is_valid():
        return _results_page(request, event, UploadForm(initial=_upload_initial(event)), form)
    received = flow.Received(
        data=form.cleaned_data["text"].encode("utf-8"),
        filename="",
        fmt="csv",
        event_name=None,
        version=form.cleaned_data["version"],
        newcomer_start=None,
        source="paste",
    )
    return _receive(request, event, received, form)


def _receive(
    request: AuthedRequest, event: Event, received: flow.Received, form: UploadForm | PasteForm
) -> HttpResponse:
    """Read the file here, or (a large one) have the worker read it; one at a time per account
    and per club either way."""
    paste_form: PasteForm | None = None
    if isinstance(form, PasteForm):
        upload_form, paste_form = UploadForm(initial=_upload_initial(event)), form
    else:
        upload_form = form
    try:
        upload = flow.begin(event, request.user, received)
    except flow.UploadBusy as busy:
        messages.error(request, busy.message)
        if paste_form is None:
            # A file cannot be shown again in a form anyway: the redirect spares this process
            # the page, so refusing a loop of large uploads costs it little more than reading.
            return redirect("event_results", slug=event.club.slug, event_id=event.pk)
        return _results_page(request, event, upload_form, paste_form, status=409)
    if upload.status != Upload.Status.READING:
        return redirect(_progress_url(event, upload.pk))
    try:
        imported, fmt = flow.read_received(received, event)
    except SeveralEventsError as error:
        flow.finish(upload)
        return _choose_event(request, event, received, error.events)
    except ImportFileError as error:
        flow.finish(upload)
        messages.error(request, error.message)
        return _results_page(request, event, upload_form, paste_form)
    try:
        return _store(request, event, flow.pending_for(event, received, imported, fmt))
    finally:
        flow.finish(upload)


def _choose_event(
    request: AuthedRequest,
    event: Event,
    received: flow.Received,
    events: Sequence[tuple[str, int]],
) -> HttpResponse:
    # The file is not kept: the director chooses the event and uploads it again.
    messages.error(request, several_events_message(events))
    initial = _upload_initial(event)
    initial["format"] = received.fmt
    if received.newcomer_start:
        initial["newcomer_start"] = received.newcomer_start
    return _results_page(request, event, UploadForm(initial=initial, events=events), None)


@require_safe
def event_upload_progress(
    request: AuthedRequest, slug: str, event_id: int, upload_id: int
) -> HttpResponse:
    """A large file being read: this page reloads itself until the worker is done, then
    shows what the upload would have shown (the names step, or a correction to confirm)."""
    event = event_for_director(request, slug, event_id)
    upload = get_object_or_404(Upload, pk=upload_id, club=event.club, event=event)
    if upload.status in Upload.IN_PROGRESS and Upload.objects.stale().filter(pk=upload.pk):
        flow.finish(upload)  # a worker that crashed or ran out of time: it never will be
        messages.error(request, flow.not_read_message())
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    if upload.status in Upload.IN_PROGRESS:
        context = {"club": event.club, "event": event, "reload_seconds": PROGRESS_RELOAD_SECONDS}
        return render(request, "directors/events/upload_progress.html", context)
    outcome = upload.outcome or {}
    flow.finish(upload)
    if upload.status == Upload.Status.FAILED:
        if outcome.get("events"):
            events = [(str(name), int(games)) for name, games in outcome["events"]]
            return _choose_event(request, event, flow.Received.from_row(upload), events)
        messages.error(request, str(outcome.get("error", "")))
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    pending = corrections.PendingCorrection.from_json(outcome["pending"])
    if outcome.get("applied"):
        return _stored(request, event, pending.imported, None)
    return _store(request, event, pending)


def _store(
    request: AuthedRequest, event: Event, pending: corrections.PendingCorrection
) -> HttpResponse:
    try:
        impact, _applied = confirmation.preview_or_apply(request, event, pending)
    except ImportFileError as error:
        messages.error(request, error.message)
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    except edits.PublishingError as error:
        messages.error(request, error.message)
        return redirect("event_results", slug=event.club.slug, event_id=event.pk)
    return _stored(request, event, pending.imported, None if impact is None else (pending, impact))


def _stored(
    request: AuthedRequest,
    event: Event,
    imported: ImportedEvent,
    to_confirm: tuple[corrections.PendingCorrection, LadderImpact] | None,
) -> HttpResponse:
    """The notes of a file read (warnings, its date), then the confirm page or the names step."""
    for warning in imported.warnings[:MAX_WARNINGS]:
        messages.warning(request, warning)
    left_out = imported.warnings[MAX_WARNINGS:]
    if left_out:
        # Not silently cut: the director learns how many more there are and where.
        lines = ", ".join(w.split(":")[0].removeprefix("Line ") for w in left_out)
        messages.warning(
            request,
            ngettext(
                "One more note about the file is not shown here: line %(lines)s.",
                "%(count)s more notes about the file are not shown here: lines %(lines)s.",
                len(left_out),
            )
            % {"count": len(left_out), "lines": lines},
        )
    if imported.date is not None and imported.date_source is not None:
        messages.info(request, event_date_note(imported.date, imported.date_source, event.date))
    if to_confirm is not None:
        return confirmation.confirm_page(request, event, *to_confirm)
    messages.success(request, confirmation.results_saved_message(imported))
    return redirect("event_names", slug=event.club.slug, event_id=event.pk)


def _results_page(
    request: AuthedRequest,
    event: Event,
    upload_form: UploadForm,
    paste_form: PasteForm | None,
    *,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "directors/events/results.html",
        {
            "club": event.club,
            "event": event,
            "upload_form": upload_form,
            "paste_form": paste_form or PasteForm(initial=version_initial(event)),
            "max_upload": results.MAX_UPLOAD_BYTES,
        },
        status=status,
    )


def event_grid(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = event_for_director(request, slug, event_id)
    rounds = sorted(set(event.games.values_list("round", flat=True)))
    whole = event.games.count() <= GRID_ALL_ROUNDS_MAX
    if request.method == "POST":
        formset = GridFormSet(request.POST, prefix="row")
        version_form = GridVersionForm(request.POST)
        round_no = bounded_int(request.POST.get("round"), 0, 0, results.MAX_ROUND) or None
        if formset.is_valid() and version_form.is_valid():
            version = version_form.cleaned_data["version"]
            try:
                imported = results.grid_to_imported(grid_rows_from(formset, round_no))
                pending = corrections.PendingCorrection(
                    event_id=event.pk,
                    version=version,
                    source="grid",
                    replace_entries=False,
                    round_no=round_no,
                    imported=imported,
                    next_url=_grid_url(event, round_no, blank=BLANK_ROWS * 3)
                    if "more" in request.POST
                    else reverse("event_names", kwargs={"slug": slug, "event_id": event.pk}),
                )
                submitted = confirmation.submit(request, event, pending)
            except edits.StaleEditError as error:
                messages.error(request, error.message)
                return redirect(_grid_url(event, round_no))
            except (ImportFileError, edits.PublishingError) as error:
                messages.error(request, error.message)
            else:
                if submitted.page is not None:
                    return submitted.page
                messages.success(request, _("The results are saved."))
                return redirect(pending.next_url)
        else:
            messages.error(request, _("The grid could not be read: reload the page and try again."))
    else:
        # A large event is shown one round at a time, the last round first.
        round_no = bounded_int(request.GET.get("round"), 0, 0, results.MAX_ROUND) or None
        if round_no is None and not whole:
            round_no = rounds[-1]
        blank = bounded_int(request.GET.get("blank"), BLANK_ROWS, 1, MAX_BLANK_ROWS)
        formset = GridFormSet(
            initial=grid_initial(results.grid_rows(event, round_no), blank), prefix="row"
        )
        version_form = GridVersionForm(initial={**version_initial(event), "round": round_no})
    names = sorted(
        {*event.entries.values_list("typed_name", flat=True)}
        | {*event.club.players.active().values_list("name", flat=True)},
        key=str.casefold,
    )
    return render(
        request,
        "directors/events/grid.html",
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
            "grid_keys": keys_json(),
            "key_legend": [
                (RESULT_LABELS[result].short, sequences)
                for result, sequences in keys_by_result().items()
            ],
        },
    )


def _grid_url(event: Event, round_no: int | None, blank: int | None = None) -> str:
    url = reverse("event_grid", kwargs={"slug": event.club.slug, "event_id": event.pk})
    query = "&".join(
        f"{key}={value}" for key, value in (("round", round_no), ("blank", blank)) if value
    )
    return f"{url}?{query}" if query else url


def _progress_url(event: Event, upload_id: int) -> str:
    kwargs = {"slug": event.club.slug, "event_id": event.pk, "upload_id": upload_id}
    return reverse("event_upload_progress", kwargs=kwargs)


def _content_length(request: HttpRequest) -> int:
    return bounded_int(request.META.get("CONTENT_LENGTH"), 0, 0, 2**62)
