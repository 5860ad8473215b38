"""Forms of the event screens (details, names, actions): they read input; the modules they
name (drafts.py, directors/events/names.py, publishing.py) decide what it means.
The results screens' forms are results_forms.py."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django import forms
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from clubs.models import Event
from directors.events import names_html as names_html
from directors.events.drafts import EventDetails
from directors.events.names import Action, NameDecision, NameReview, NameRoster
from directors.events.names_table import Bulk, PlayerDetails
from matching import clean_name


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


# How the director says whether uploaded results are a round robin (Event.round_robin): the
# choice's values, and its words here, on the confirm page and in the audit log.
SWISS, ROUND_ROBIN = "swiss", "roundrobin"
SYSTEM_LABEL = _("Pairing system")
SYSTEM_CHOICES = (
    (SWISS, _("Swiss or another paired system")),
    (ROUND_ROBIN, _("Round robin (all-play-all)")),
)


class EventEditForm(EventDetailsForm):
    """The details of an event; for uploaded results, also whether they are a round robin,
    which decides how byes and forfeits count in the tie-breaks (FIDE C.07 art. 16 is a
    Swiss's). A club night's pairing system says it, so its form has no such choice and
    refuses one posted."""

    version = VersionField()
    round_robin = forms.ChoiceField(
        label=SYSTEM_LABEL,
        choices=SYSTEM_CHOICES,
        widget=forms.RadioSelect,
        # Not posted (a page opened before the choice was offered): left as it is.
        required=False,
        help_text=_(
            "It decides the tie-breaks: in a Swiss a bye or an unplayed game counts as one "
            "against a dummy opponent, in a round robin it does not. Games that happen to meet "
            "everyone once do not make a round robin. Uploading a file that states its type "
            "sets this again."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pairing_system:
            del self.fields["round_robin"]
        else:
            self.initial["round_robin"] = ROUND_ROBIN if self.instance.round_robin else SWISS

    def clean(self) -> dict[str, Any]:
        super().clean()
        if "round_robin" not in self.fields and "round_robin" in self.data:
            raise forms.ValidationError(
                _("A club night is ranked by the system it was paired with, which stays.")
            )
        return self.cleaned_data

    def details(self) -> EventDetails:
        chosen = self.cleaned_data.get("round_robin")
        return replace(super().details(), round_robin=chosen == ROUND_ROBIN if chosen else None)


class ActionForm(forms.Form):
    """The buttons that publish, unpublish, delete or restore: only the version."""

    version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # Several of these sit on one page: hidden inputs without ids, so no id repeats.
        kwargs.setdefault("auto_id", False)
        super().__init__(*args, **kwargs)


class BulkNamesForm(forms.Form):
    """A bulk button of the names table: which one, the version, and the filter to return to."""

    version = VersionField()
    action = forms.ChoiceField(choices=[(b.value, b.value) for b in Bulk])
    show = forms.CharField(required=False, max_length=20, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", False)  # two of these sit on the page
        super().__init__(*args, **kwargs)


class PlayerNameField(forms.CharField):
    """A typed player name, read through `matching.clean_name`: a zero-width space or a
    no-break space would otherwise be stored and shown, looking like another name."""

    def to_python(self, value: Any) -> str:
        return clean_name(super().to_python(value) or "")  # CharField answers a str


class AddEntryForm(forms.Form):
    typed_name = PlayerNameField(label=_("Name"), max_length=120)
    version = VersionField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "add_%s")
        super().__init__(*args, **kwargs)


_PICKED = re.compile(r"#(\d+)\s*$")
_PLAYER_CHOICE = re.compile(r"p([0-9]+)")

# One field of each kind reads every row: three Django fields a typed name cost half a
# second to build for 2,000 entrants (and their widgets a second more to render), while the
# cleaning and its messages are the same for every row.
_DECISION = forms.ChoiceField(required=False)
_OTHER = forms.CharField(required=False)
_START = forms.IntegerField(required=False, min_value=0, max_value=4000)


def roster_label(player_id: int, name: str) -> str:
    """How a roster player is offered in the "another player" list (and read back)."""
    return f"{name} #{player_id}"


class NamesForm(forms.Form):
    """One choice per typed name: a suggested player, another player, a new one, or none.

    The initial choice is the confirmed player, else a preselect suggestion, else "no
    player" for an entrant who played no game and "new player" for a name without any likely
    candidate (none, or weak ones only); nothing counts until the director submits the form.

    Each typed name has the inputs `decision_<entry>` (a select: `p<player>`, "other", "new",
    "none" for an entrant without a played game, or "" to decide later), `other_<entry>` (a
    roster player typed or picked from the list) and `start_<entry>` (a new player's starting
    rating). They are read in `clean` rather than declared as fields, and the page writes
    them from `rows_html`. A `p<player>` choice names any active player of the roster, the
    same ones "another player" may name: a submitted form is read without computing the
    suggestions again (reviews without candidates), and publishing refuses one player for two
    names.
    """

    version = VersionField()

    def __init__(
        self, *args: Any, reviews: list[NameReview], roster: NameRoster, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.reviews = reviews
        self.roster = roster

    def _id_for(self, name: str) -> str:
        # This form keeps Django's default auto_id, "id_%s".
        return str(self.auto_id) % name

    def _initial(self, review: NameReview) -> tuple[str, str]:
        if review.player_id is not None:
            # The table offers the linked player even when no suggestion names them.
            return f"p{review.player_id}", ""
        if review.preselected is not None:
            return f"p{review.preselected.player_id}", ""
        if review.played_no_game and not review.scored:
            # A no-show without points: no player. One whose only points are a bye or a
            # forfeit win is offered like anyone else, as import_event decides it, so that the
            # standings keep their points unless the director chooses "no player".
            return "none", ""
        if not any(not c.weak for c in review.candidates):
            return "new", ""
        return "", ""

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        for review in self.reviews:
            pk = review.entry_id
            self._read(data, f"decision_{pk}", lambda raw, r=review: self._decision(r, raw))
            self._read(data, f"other_{pk}", _OTHER.clean)
            self._read(data, f"start_{pk}", _START.clean)
            choice = data.get(f"decision_{pk}") or ""
            other = clean_name(data.get(f"other_{pk}") or "")
            if choice == "" and other:
                choice = data[f"decision_{pk}"] = "other"
            if choice == "other":
                player_id = self._player_for(other)
                if player_id is None:
                    self._error(f"other_{pk}", [_("pick the other player from the roster list.")])
                else:
                    data[f"decision_{pk}"] = f"p{player_id}"
        return data

    def _read(self, data: dict[str, Any], name: str, clean: Any) -> None:
        try:
            data[name] = clean(self.data.get(name))
        except forms.ValidationError as error:
            self._error(name, error.messages)

    def _error(self, name: str, messages: list[Any]) -> None:
        # As Form.add_error would for a declared field.
        self.errors.setdefault(
            name, self.error_class(renderer=self.renderer, field_id=self._id_for(name))
        ).extend(messages)
        self.cleaned_data.pop(name, None)

    def _decision(self, review: NameReview, raw: Any) -> str:
        value: str = _DECISION.to_python(raw)
        player = _PLAYER_CHOICE.fullmatch(value)
        if (
            value in {"", "other", "new"}
            or (value == "none" and review.played_no_game)
            or (player is not None and int(player.group(1)) in self.roster)
        ):
            return value
        raise forms.ValidationError(
            _DECISION.error_messages["invalid_choice"], params={"value": value}
        )

    def _player_for(self, text: str) -> int | None:
        picked = _PICKED.search(text)
        if picked and int(picked.group(1)) in self.roster:
            return int(picked.group(1))
        return self.roster.player_named(text)

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
        found: list[str] = []
        for name, errors in self.errors.items():
            review = self._review_of(name)
            for error in errors:
                found.append(f"{review.typed_name}: {error}" if review else str(error))
        return found

    def _review_of(self, field: str) -> NameReview | None:
        match = re.search(r"_(\d+)$", field)
        if match is None:
            return None
        return next((r for r in self.reviews if r.entry_id == int(match.group(1))), None)

    def rows_html(
        self, reviews: list[NameReview], details: Mapping[int, PlayerDetails]
    ) -> SafeString:
        """Every shown typed name's table row (directors/events/names_html.py), as a browser shows
        the
        form: the submitted values of a bound form, else the initial ones. `reviews` are the
        suggestions to offer (a bound form was read without them), `details` their players'
        ladder standing."""
        words = names_html.row_words()
        # Safe: every typed, roster or translated text in a row goes through escape().
        return mark_safe(
            "".join(
                names_html.row_html(review, self._row_state(review), details, words)
                for review in reviews
            )
        )

    def _row_state(self, review: NameReview) -> names_html.RowState:
        pk = review.entry_id
        names = {kind: f"{kind}_{pk}" for kind in ("decision", "other", "start")}
        if self.is_bound:
            return names_html.RowState(
                decision=_DECISION.to_python(self.data.get(names["decision"])),
                other=self.data.get(names["other"]) or "",
                start=self.data.get(names["start"]) or "",
                errors={kind: self.errors.get(name) for kind, name in names.items()},
            )
        decision, other = self._initial(review)
        return names_html.RowState(decision, other, "", {})
