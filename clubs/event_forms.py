"""Forms of the event screens: they read input; clubs.publishing decides what it means."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.template.defaultfilters import filesizeformat
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clubs.models import Event
from clubs.publishing import (
    MAX_ROUND,
    MAX_UPLOAD_BYTES,
    Action,
    EventDetails,
    GridRow,
    NameDecision,
    NameReview,
)
from ladder.results import Result
from matching import clean_name

# The grid's short list, most common first.
RESULT_CHOICES: list[tuple[str, str | Promise]] = [
    (Result.WHITE_WIN.value, "1–0"),
    (Result.DRAW.value, "½–½"),
    (Result.BLACK_WIN.value, "0–1"),
    (Result.WHITE_FORFEIT_WIN.value, _("1–0 by forfeit")),
    (Result.BLACK_FORFEIT_WIN.value, _("0–1 by forfeit")),
    (Result.DOUBLE_FORFEIT.value, _("Double forfeit")),
    (Result.BYE_FULL.value, _("Bye, 1 point")),
    (Result.BYE_HALF.value, _("Bye, ½ point")),
    (Result.BYE_ZERO.value, _("Bye, 0 points")),
    (Result.BYE_PAIRING.value, _("Bye from the pairing (odd number)")),
    (Result.UNRATED_WHITE_WIN.value, _("1–0, not rated")),
    (Result.UNRATED_DRAW.value, _("½–½, not rated")),
    (Result.UNRATED_BLACK_WIN.value, _("0–1, not rated")),
    (Result.NO_RESULT.value, _("No result yet")),
]
RESULT_LABELS: dict[str, str | Promise] = dict(RESULT_CHOICES)

FORMAT_CHOICES = [
    ("auto", _("Recognise from the file")),
    ("trf", _("FIDE TRF (Swiss-Manager, Vega, pairing programs)")),
    ("pgn", _("PGN")),
    ("csv", _("CSV: round, white, black, result")),
]


class VersionField(forms.IntegerField):
    """The event's edit_version when the page was shown."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(min_value=0, **kwargs)


class EventDetailsForm(forms.ModelForm):
    class Meta:
        model = Event
        fields = ("name", "date", "order_in_day", "kind", "rated")
        labels = {
            "name": _("Name"),
            "date": _("Date"),
            "order_in_day": _("Order in the day"),
            "kind": _("Kind"),
            "rated": _("Rated"),
        }
        help_texts = {
            "order_in_day": _("For two events on one day: lower is earlier."),
            "rated": _("Untick for an event that must not change anyone's rating."),
        }
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def details(self) -> EventDetails:
        data = self.cleaned_data
        return EventDetails(
            name=data["name"],
            date=data["date"],
            order_in_day=data["order_in_day"],
            kind=data["kind"],
            rated=data["rated"],
        )


class EventEditForm(EventDetailsForm):
    version = VersionField()


class ActionForm(forms.Form):
    """The buttons that publish, unpublish, delete or restore: only the version."""

    version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Several of these sit on one page: hidden inputs without ids, so no id repeats.
        kwargs.setdefault("auto_id", False)
        super().__init__(*args, **kwargs)


class UploadForm(forms.Form):
    file = forms.FileField(label=_("Results file"))
    format = forms.ChoiceField(label=_("Format"), choices=FORMAT_CHOICES, initial="auto")
    event = forms.CharField(
        label=_("Event in the file"),
        required=False,
        max_length=200,
        help_text=_("Only for a PGN file holding several events: the name of the one to import."),
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
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_large_message(upload.size))
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


class PlayerNameField(forms.CharField):
    """A typed player name, read through `matching.clean_name`: a zero-width space or a
    no-break space would otherwise be stored and shown, looking like another name."""

    def to_python(self, value: Any) -> str:
        return clean_name(super().to_python(value))


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


class AddEntryForm(forms.Form):
    typed_name = PlayerNameField(label=_("Name"), max_length=120)
    version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "add_%s")
        super().__init__(*args, **kwargs)


_PICKED = re.compile(r"#(\d+)\s*$")


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    id: str
    checked: bool


@dataclass(frozen=True)
class NameRow:
    """One typed name's fields, with its radio choices spelt out: a names page has hundreds
    of rows, and rendering them in the template is far faster than one widget at a time."""

    review: NameReview
    decision: forms.BoundField
    other: forms.BoundField
    start: forms.BoundField
    choices: list[Choice]


def roster_label(player_id: int, name: str) -> str:
    """How a roster player is offered in the "another player" list (and read back)."""
    return f"{name} #{player_id}"


class NamesForm(forms.Form):
    """One choice per typed name: a suggested player, another player, a new one, or none.

    The initial choice is the confirmed player, else a preselect suggestion, else "new
    player" for a name without any candidate and "no player" for an entrant who played no
    game; nothing counts until the director submits the form.
    """

    version = VersionField()

    def __init__(
        self, *args: Any, reviews: list[NameReview], roster: Mapping[int, str], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.reviews = reviews
        self.roster = roster
        for review in reviews:
            self._add_fields(review)

    def _add_fields(self, review: NameReview) -> None:
        choices: list[tuple[str, Any]] = [
            (f"p{c.player_id}", _candidate_label(c.name, c.matched, c.reason_label))
            for c in review.candidates
        ]
        choices.append(("other", _("Another player of the roster (type below)")))
        choices.append(("new", _("A new player named “%(name)s”") % {"name": review.typed_name}))
        if review.played_no_game:
            choices.append(("none", _("No player: a placeholder or a no-show")))
        choices.append(("", _("Decide later")))
        initial, other = self._initial(review)
        pk = review.entry_id
        self.fields[f"decision_{pk}"] = forms.ChoiceField(
            label=review.typed_name,
            choices=choices,
            required=False,
            initial=initial,
            widget=forms.RadioSelect,
        )
        self.fields[f"other_{pk}"] = forms.CharField(
            label=_("Another player"),
            required=False,
            initial=other,
            widget=forms.TextInput(attrs={"list": "roster", "autocomplete": "off"}),
        )
        self.fields[f"start_{pk}"] = forms.IntegerField(
            label=_("Starting rating, for a new player (blank: the club's)"),
            required=False,
            min_value=0,
            max_value=4000,
        )

    def _initial(self, review: NameReview) -> tuple[str, str]:
        if review.player_id is not None:
            if any(c.player_id == review.player_id for c in review.candidates):
                return f"p{review.player_id}", ""
            return "other", roster_label(review.player_id, review.player_name or "")
        if review.preselected is not None:
            return f"p{review.preselected.player_id}", ""
        if review.played_no_game:
            return "none", ""
        if not review.candidates:
            return "new", ""
        return "", ""

    def rows(self) -> Iterator[NameRow]:
        for review in self.reviews:
            pk = review.entry_id
            decision = self[f"decision_{pk}"]
            current = str(decision.value() or "")
            choices = [
                Choice(str(value), str(label), f"{decision.auto_id}_{at}", str(value) == current)
                for at, (value, label) in enumerate(decision.field.choices)
            ]
            yield NameRow(review, decision, self[f"other_{pk}"], self[f"start_{pk}"], choices)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for review in self.reviews:
            pk = review.entry_id
            choice = data.get(f"decision_{pk}") or ""
            other = clean_name(data.get(f"other_{pk}") or "")
            if choice == "" and other:
                choice = data[f"decision_{pk}"] = "other"
            if choice == "other":
                player_id = self._player_for(other)
                if player_id is None:
                    self.add_error(f"other_{pk}", _("pick the other player from the roster list."))
                else:
                    data[f"decision_{pk}"] = f"p{player_id}"
        return data

    def _player_for(self, text: str) -> int | None:
        picked = _PICKED.search(text)
        if picked and int(picked.group(1)) in self.roster:
            return int(picked.group(1))
        same = [pid for pid, name in self.roster.items() if name.casefold() == text.casefold()]
        return same[0] if len(same) == 1 else None

    def decisions(self) -> list[NameDecision]:
        decisions = []
        for review in self.reviews:
            pk = review.entry_id
            choice = self.cleaned_data.get(f"decision_{pk}") or ""
            if choice.startswith("p"):
                decisions.append(NameDecision(pk, Action.LINK, int(choice[1:])))
            elif choice == "new":
                start = self.cleaned_data.get(f"start_{pk}")
                decisions.append(
                    NameDecision(pk, Action.NEW, start_rating=float(start) if start else None)
                )
            elif choice == "none":
                decisions.append(NameDecision(pk, Action.NONE))
        return decisions

    def error_messages(self) -> list[str]:
        """Every error, each naming the typed name it is about."""
        found = []
        for name, errors in self.errors.items():
            review = self._review_of(name)
            for error in errors:
                found.append(f"{review.typed_name}: {error}" if review else error)
        return found

    def _review_of(self, field: str) -> NameReview | None:
        match = re.search(r"_(\d+)$", field)
        if match is None:
            return None
        return next((r for r in self.reviews if r.entry_id == int(match.group(1))), None)


def _candidate_label(name: str, matched: str, reason: Any) -> str:
    if matched != name:
        return str(_("%(name)s (as “%(matched)s”) — %(reason)s")) % {
            "name": name,
            "matched": matched,
            "reason": reason,
        }
    return str(_("%(name)s — %(reason)s")) % {"name": name, "reason": reason}
