"""The directors' roster import: a CSV of name,rating,games[,junior] (the file `import_roster`
reads), uploaded or pasted, shown as a preview, then saved all or nothing.

Thin views: the access helper answers 404 to outsiders; directors.roster.starting_ladder reads
the file, plans the import and saves it. The preview's form carries the rows it showed and
the director's choices for the names close to roster players (directors.roster.close_names),
signed for this club: a forged or outdated one is refused, a choice the page did not offer
is refused, and a save over a roster that changed since the preview is refused by the save
itself. Nothing is saved until every close name has a choice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
from directors.roster.close_names import (
    NEW_PERSON,
    Choice,
    ChoiceRefused,
    ChosenTwice,
    read_choices,
)
from directors.roster.starting_ladder import (
    LineProblem,
    RosterImportPlan,
    StartingLadderError,
    StartingLadderRow,
    UndecidedNames,
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
    plan = plan_roster_import(club, read.rows, ladder, read.problems, choices={})
    return _page(request, club, form, plan=plan)


@require_POST
def roster_import_choose(request: AuthedRequest, slug: str) -> HttpResponse:
    """The director's choices for the names close to roster players (a new person, or the
    same as one of the players offered), read into the preview, which then shows what they
    do and carries them, signed, to the save. With `change`, the choices are asked again."""
    club = club_for_director(request, slug)
    previewed = _previewed(club, request.POST.get("payload", ""))
    if previewed is None:
        return _refused(request, club)
    plan = previewed.plan(club)
    if plan.fingerprint != previewed.fingerprint:
        return _stale(
            request, club, _("The roster changed since this preview: nothing was imported.")
        )
    form = RosterImportForm(club=club, initial={"ladder": previewed.ladder})
    if request.POST.get("change"):
        return _page(request, club, form, plan=plan, choosing=True)
    try:
        said = read_choices(request.POST, {row.field: row.candidates for row in plan.close})
    except ChoiceRefused:
        return _refused(request, club)
    except ChosenTwice as twice:
        lines = {row.field: row.row.line for row in plan.close}
        names = {c.player_id: c.name for row in plan.close for c in row.candidates}
        problem = _(
            "Lines %(first)d and %(second)d cannot both be %(name)s: choose one of them, or "
            "say which is a new person. Nothing was imported."
        ) % {
            "first": lines[twice.fields[0]],
            "second": lines[twice.fields[1]],
            "name": names[twice.player_id],
        }
        return _page(request, club, form, plan=plan, problem=problem, choosing=True, status=400)
    names_of = {row.field: row.row.name for row in plan.close}
    choices = {names_of[field]: choice for field, choice in said.items()}
    plan = plan_roster_import(club, plan.rows, previewed.ladder, choices=choices)
    return _page(request, club, form, plan=plan)


@require_POST
def roster_import_save(request: AuthedRequest, slug: str) -> HttpResponse:
    """Save the previewed import, all or nothing, if the preview is this club's, unaltered,
    has the director's choice for every close name, and the roster still reads as it did."""
    club = club_for_director(request, slug)
    previewed = _previewed(club, request.POST.get("payload", ""))
    if previewed is None:
        return _refused(request, club)
    try:
        done = save_roster_import(
            club,
            previewed.rows,
            previewed.ladder,
            request.user,
            previewed=previewed.fingerprint,
            source="web",
            choices=previewed.choices,
        )
    except UndecidedNames as undecided:
        form = RosterImportForm(club=club, initial={"ladder": previewed.ladder})
        plan = previewed.plan(club)
        return _page(request, club, form, plan=plan, problem=str(undecided), status=400)
    except StartingLadderError as refused:
        return _stale(request, club, str(refused))
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


@dataclass(frozen=True)
class _Previewed:
    """What a signed preview carries: the file's rows, the ladder, the choices made for the
    close names, and the fingerprint of the plan they made."""

    rows: list[StartingLadderRow]
    ladder: Ladder
    fingerprint: str
    choices: dict[str, Choice]

    def plan(self, club: Club) -> RosterImportPlan:
        return plan_roster_import(club, self.rows, self.ladder, choices=self.choices)


def _previewed(club: Club, payload: str) -> _Previewed | None:
    """What the preview showed; None for a payload that is not an unaltered, recent preview
    of this club's."""
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
        choices = _choices(data["choices"])
    except (signing.BadSignature, KeyError, TypeError, ValueError, AttributeError):
        return None
    return None if ladder is None else _Previewed(rows, ladder, fingerprint, choices)


def _choices(data: Mapping[str, object]) -> dict[str, Choice]:
    return {
        str(name): NEW_PERSON if choice == NEW_PERSON else int(str(choice))
        for name, choice in data.items()
    }


def _payload(club: Club, plan: RosterImportPlan) -> str:
    """The preview's rows and the director's choices, signed for this club."""
    return signing.dumps(
        {
            "club": club.pk,
            "ladder": plan.ladder_id,
            "fingerprint": plan.fingerprint,
            "rows": [[r.line, r.name, r.rating, r.games, r.junior] for r in plan.rows],
            "choices": plan.choices,
        },
        salt=_SALT,
        compress=True,
    )


def _refused(request: AuthedRequest, club: Club) -> HttpResponse:
    problem = _(
        "This preview cannot be saved: it is not this club's, was altered, or is more than "
        "an hour old. Nothing was imported; upload the file again."
    )
    return _page(request, club, RosterImportForm(club=club), problem=problem, status=400)


def _stale(request: AuthedRequest, club: Club, reason: str) -> HttpResponse:
    problem = f"{reason} " + _("Upload the file again to see what it would do now.")
    return _page(request, club, RosterImportForm(club=club), problem=problem, status=409)


def _page(
    request: AuthedRequest,
    club: Club,
    form: RosterImportForm,
    *,
    plan: RosterImportPlan | None = None,
    problem: str = "",
    choosing: bool = False,
    status: int = 200,
) -> HttpResponse:
    """The import page; with a plan, its preview and the signed payload when the plan can be
    saved or asks about close names; `choosing` shows the close names' choices to make."""
    problems: list[LineProblem] = list(plan.problems) if plan is not None else []
    offers = plan is not None and (plan.can_save or plan.can_choose)
    return render(
        request,
        "directors/roster/import.html",
        {
            "club": club,
            "form": form,
            "plan": plan,
            "problems": problems,
            "payload": _payload(club, plan) if plan is not None and offers else "",
            "choosing": plan is not None and plan.can_choose and (choosing or bool(plan.undecided)),
            "new_person": NEW_PERSON,
            "problem": problem,
            "max_upload": MAX_UPLOAD_BYTES,
        },
        status=status,
    )
