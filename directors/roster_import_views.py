"""The directors' roster import: a CSV of name,rating,games[,junior] (the file `import_roster`
reads), uploaded or pasted, shown as a preview, then saved all or nothing.

Thin views: the access helper answers 404 to outsiders; directors.roster.starting_ladder reads
the file, plans the import and saves it. The preview's form carries the rows it showed,
signed for this club: a forged or outdated one is refused, and a save over a roster that
changed since the preview is refused by the save itself.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core import signing
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import AuthedRequest, club_for_director
from clubs.models import Club, Ladder
from directors.events.results import MAX_UPLOAD_BYTES
from directors.events.results_forms import MAX_PASTE_CHARS
from directors.roster.starting_ladder import (
    LineProblem,
    RosterImportPlan,
    StartingLadderError,
    StartingLadderRow,
    plan_roster_import,
    read_starting_ladder,
    save_roster_import,
)

# The preview's form carries every row back: a roster larger than this is imported with the
# `import_roster` command, so that no form grows past settings.DATA_UPLOAD_MAX_MEMORY_SIZE.
MAX_IMPORT_ROWS = 5000
PREVIEW_MAX_AGE = 60 * 60  # seconds a preview can be saved from
_SALT = "directors.roster_import"


class RosterImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("CSV file"), required=False)
    text = forms.CharField(
        label=gettext_lazy("Or paste the CSV"),
        required=False,
        max_length=MAX_PASTE_CHARS,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ladders = Ladder.objects.for_club(club.pk)
        self.fields["ladder"] = forms.ModelChoiceField(
            queryset=ladders,
            empty_label=None,
            required=False,  # the club's first without one
            initial=ladders.first(),
            label=gettext_lazy("Starting ratings for the ladder"),
            error_messages={"invalid_choice": gettext_lazy("Choose one of the club's ladders.")},
        )
        if ladders.count() == 1:
            self.fields["ladder"].widget = forms.HiddenInput()

    def clean_file(self) -> UploadedFile | None:
        upload: UploadedFile | None = self.cleaned_data.get("file")
        if upload is not None and (upload.size or 0) > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                _("The file is %(size)s, larger than the %(limit)s a roster file may be.")
                % {
                    "size": filesizeformat(upload.size or 0),
                    "limit": filesizeformat(MAX_UPLOAD_BYTES),
                }
            )
        return upload

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and bool(data.get("file")) == bool(data.get("text", "").strip()):
            raise forms.ValidationError(_("Upload a CSV file or paste one, not both."))
        return data

    def content(self) -> bytes:
        upload: UploadedFile | None = self.cleaned_data.get("file")
        if upload is not None:
            return bytes(upload.read())
        return str(self.cleaned_data["text"]).encode()


@require_http_methods(["GET", "HEAD", "POST"])
def roster_import(request: AuthedRequest, slug: str) -> HttpResponse:
    """The form; posted, the preview of what the file would do (nothing is stored)."""
    club = club_for_director(request, slug)
    if request.method != "POST":
        return _page(request, club, RosterImportForm(club=club))
    form = RosterImportForm(request.POST, request.FILES, club=club)
    if not form.is_valid():
        return _page(request, club, form, status=400)
    read = read_starting_ladder(form.content())
    if len(read.rows) + len(read.problems) > MAX_IMPORT_ROWS:
        problem = _(
            "The file has more than %(max)d rows: import a roster this large with the "
            "import_roster command."
        ) % {"max": MAX_IMPORT_ROWS}
        return _page(request, club, form, problem=problem, status=400)
    ladder = form.cleaned_data["ladder"] or club.first_ladder()
    plan = plan_roster_import(club, read.rows, ladder, read.problems)
    if not plan.can_save:
        return _page(request, club, form, plan=plan)
    payload = signing.dumps(
        {
            "club": club.pk,
            "ladder": plan.ladder_id,
            "fingerprint": plan.fingerprint,
            "rows": [[r.line, r.name, r.rating, r.games, r.junior] for r in plan.rows],
        },
        salt=_SALT,
        compress=True,
    )
    return _page(request, club, form, plan=plan, payload=payload)


@require_POST
def roster_import_save(request: AuthedRequest, slug: str) -> HttpResponse:
    """Save the previewed import, all or nothing, if the preview is this club's, unaltered and
    the roster still reads as it did."""
    club = club_for_director(request, slug)
    previewed = _previewed(club, request.POST.get("payload", ""))
    if previewed is None:
        problem = _(
            "This preview cannot be saved: it is not this club's, was altered, or is more than "
            "an hour old. Nothing was imported; upload the file again."
        )
        return _page(request, club, RosterImportForm(club=club), problem=problem, status=400)
    try:
        rows, ladder, fingerprint = previewed
        done = save_roster_import(
            club, rows, ladder, request.user, previewed=fingerprint, source="web"
        )
    except StartingLadderError as refused:
        problem = f"{refused} " + _("Upload the file again to see what it would do now.")
        return _page(request, club, RosterImportForm(club=club), problem=problem, status=409)
    messages.success(
        request,
        ngettext(
            "Imported %(created)d new player", "Imported %(created)d new players", done.created
        )
        % {"created": done.created}
        + "; "
        + ngettext(
            "%(updated)d player on the roster updated.",
            "%(updated)d players on the roster updated.",
            done.updated,
        )
        % {"updated": done.updated},
    )
    return redirect("roster_players", slug=club.slug)


def _previewed(club: Club, payload: str) -> tuple[list[StartingLadderRow], Ladder, str] | None:
    """The rows, ladder and fingerprint the preview showed; None for a payload that is not an
    unaltered, recent preview of this club's."""
    try:
        data = signing.loads(payload, salt=_SALT, max_age=PREVIEW_MAX_AGE)
        if data["club"] != club.pk:
            return None
        ladder = Ladder.objects.filter(club=club, pk=int(data["ladder"])).first()
        rows = [
            StartingLadderRow(str(name), float(rating), int(games), bool(junior), int(line))
            for line, name, rating, games, junior in data["rows"]
        ]
        fingerprint = str(data["fingerprint"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None
    return None if ladder is None else (rows, ladder, fingerprint)


def _page(
    request: AuthedRequest,
    club: Club,
    form: RosterImportForm,
    *,
    plan: RosterImportPlan | None = None,
    payload: str = "",
    problem: str = "",
    status: int = 200,
) -> HttpResponse:
    problems: list[LineProblem] = list(plan.problems) if plan is not None else []
    return render(
        request,
        "directors/roster/import.html",
        {
            "club": club,
            "form": form,
            "plan": plan,
            "problems": problems,
            "payload": payload,
            "problem": problem,
            "max_upload": MAX_UPLOAD_BYTES,
        },
        status=status,
    )
