"""Forms of the results screens (a file, pasted CSV, the grid): they read input;
directors/events/results.py decides what it means."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import NewcomerStart
from directors.events.forms import PlayerNameField, VersionField
from directors.events.results import MAX_ROUND, MAX_UPLOAD_BYTES, GridRow

FORMAT_CHOICES = [
    ("auto", _("Recognise from the file")),
    ("trf", _("FIDE TRF (Swiss-Manager, Vega, pairing programs)")),
    ("pgn", _("PGN")),
    ("csv", _("CSV: round, white, black, result")),
]


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Results file"))
    format = forms.ChoiceField(label=_("Format"), choices=FORMAT_CHOICES, initial="auto")
    event = forms.CharField(
        label=_("Event in the file"),
        required=False,
        max_length=200,
        help_text=_("Only for a PGN file holding several events: the name of the one to import."),
    )
    # Not required: a form without it (an older page) keeps the event's choice.
    newcomer_start = forms.ChoiceField(
        label=_("New players start"),
        choices=NewcomerStart.choices,
        required=False,
        widget=forms.RadioSelect,
        help_text=_(
            "For names that become new players under Names. Either way they are provisional "
            "until they have played their first rated games."
        ),
    )
    version = VersionField()

    def __init__(self, *args: Any, events: Sequence[tuple[str, int]] = (), **kwargs: Any) -> None:
        """With `events` (a file holding several), the event becomes a choice among them."""
        kwargs.setdefault("auto_id", "upload_%s")
        super().__init__(*args, **kwargs)
        if events:
            self.fields["event"] = forms.ChoiceField(
                label=_("Event in the file"),
                choices=[(name, event_choice_label(name, games)) for name, games in events],
                help_text=_("The file holds several events: choose one and upload it again."),
            )

    def clean_file(self) -> UploadedFile:
        upload: UploadedFile = self.cleaned_data["file"]
        if (upload.size or 0) > MAX_UPLOAD_BYTES:  # Django sets the size of every upload
            raise forms.ValidationError(too_large_message(upload.size or 0))
        return upload


def event_choice_label(name: str, games: int) -> str:
    return ngettext("%(name)s (%(count)d game)", "%(name)s (%(count)d games)", games) % {
        "name": name,
        "count": games,
    }


def several_events_message(events: Sequence[tuple[str, int]]) -> str:
    return str(
        _(
            "This file holds games of %(count)d events: %(events)s. Choose the event to import "
            "below and upload the file again."
        )
    ) % {
        "count": len(events),
        "events": "; ".join(event_choice_label(name, games) for name, games in events),
    }


def too_large_message(size: int | None) -> str:
    limit = filesizeformat(MAX_UPLOAD_BYTES)
    if size is None:
        return str(_("The file is larger than %(limit)s, the most a results file may be.")) % {
            "limit": limit
        }
    return str(
        _(
            "The file is %(size)s, larger than the %(limit)s a results file may be. "
            "Is it the right file? A TRF, PGN or CSV of one event is far smaller."
        )
    ) % {"size": filesizeformat(size), "limit": limit}


# Pasted text travels URL-encoded inside settings.DATA_UPLOAD_MAX_MEMORY_SIZE (3 MiB); a
# larger CSV goes up as a file.
MAX_PASTE_CHARS = 2 * 1024 * 1024


class PasteForm(forms.Form):
    text = forms.CharField(
        label=_("CSV text"),
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false"}),
        help_text=_("A header row naming round, white, black and result, then one row a game."),
        max_length=MAX_PASTE_CHARS,
    )
    version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "paste_%s")
        super().__init__(*args, **kwargs)


class GridRowForm(forms.Form):
    """One board; every field is text so that the domain check can name the row."""

    round = forms.CharField(required=False, max_length=10)
    white = PlayerNameField(required=False, max_length=200)
    black = PlayerNameField(required=False, max_length=200)
    result = forms.CharField(required=False, max_length=10)
    # Sent back as the page showed it: the grid shows a variant and does not change it.
    variant = forms.CharField(required=False, max_length=40)


# Up to this many games the grid shows every round on one page; a larger event is typed and
# corrected one round at a time (a round has at most one row an entrant), so that no grid page
# is a form of tens of thousands of fields. settings.DATA_UPLOAD_MAX_NUMBER_FIELDS fits both.
GRID_ALL_ROUNDS_MAX = 1000
MAX_BLANK_ROWS = 200
MAX_GRID_ROWS = max(GRID_ALL_ROUNDS_MAX, settings.EVENT_MAX_ENTRANTS) + MAX_BLANK_ROWS
GridFormSet = forms.formset_factory(
    GridRowForm, extra=0, max_num=MAX_GRID_ROWS, absolute_max=MAX_GRID_ROWS, validate_max=True
)


def grid_initial(rows: list[GridRow], blank: int) -> list[dict[str, str]]:
    """Rows for the grid: the stored games, then `blank` empty rows carrying the last round."""
    last_round = rows[-1].round if rows else "1"
    filled = [
        {
            "round": r.round,
            "white": r.white,
            "black": r.black,
            "result": r.result,
            "variant": r.variant,
        }
        for r in rows
    ]
    empty = [{"round": last_round, "white": "", "black": "", "result": ""}] * blank
    return filled + empty


def grid_rows_from(formset: forms.BaseFormSet, round_no: int | None = None) -> list[GridRow]:
    """The typed rows; on the page of one round every row is in that round."""
    return [
        GridRow(
            number=number,
            round=str(round_no) if round_no is not None else form.cleaned_data.get("round", ""),
            white=form.cleaned_data.get("white", ""),
            black=form.cleaned_data.get("black", ""),
            result=form.cleaned_data.get("result", ""),
            variant=form.cleaned_data.get("variant", ""),
        )
        for number, form in enumerate(formset.forms, start=1)
    ]


class GridVersionForm(forms.Form):
    version = VersionField()
    # Set on the page of one round: the rows replace that round's games only.
    round = forms.IntegerField(
        required=False, min_value=1, max_value=MAX_ROUND, widget=forms.HiddenInput
    )
