"""The forms of the club-night screens (directors/night/views.py, directors/night/round_views.py).

They only read and check what was posted; every rule about the evening is in
directors/night/evening.py and directors/night/rounds.py, which answer a refusal with a message.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from clubs.models import Event, FirstColour, MissedRounds, PairingBye, PairingSystem, RequestedBye
from clubs.results import Result
from directors.events.drafts import MAX_EVENT_NAME_LENGTH
from directors.night import split as splits
from directors.night.evening import BY_LOT
from directors.night.pairs import NO_RESULT_YET, Shown
from directors.roster.players import MAX_NAME_LENGTH
from ladder import tiebreaks
from ladder.labels.tiebreaks import TIEBREAK_LABELS


def tiebreak_label(tiebreak: tiebreaks.Tiebreak) -> dict[str, Any]:
    """A tie-break's code, column heading and full name (ladder/labels/tiebreaks.py)."""
    short, name = TIEBREAK_LABELS.get(tiebreak, (tiebreak.value, tiebreak.value))
    return {"code": tiebreak.value, "short": short, "name": name}


# What a start form's buttons ask for: only "start" creates the evening. "newperson"
# adds a newcomer whose name is close to roster players, after the director said so;
# "pick:<id>" ticks one of those roster players instead.
SEARCH, NEWCOMER, NEW_PERSON, START = "search", "newcomer", "newperson", "start"
PICK = "pick:"


class StartNightForm(forms.Form):
    """The evening's details and who is ticked; the roster rows are drawn by the template
    (filtered by the search), so `players` is read as ids and checked against the club."""

    name = forms.CharField(label=_("Name"), max_length=MAX_EVENT_NAME_LENGTH)
    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=Event.Kind.choices)
    rated = forms.BooleanField(label=_("Rated"), required=False)
    system = forms.ChoiceField(
        label=_("Pairing system"), choices=PairingSystem.choices, widget=forms.RadioSelect
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        required=False,
        min_value=1,
        max_value=settings.EVENT_MAX_ROUNDS,
        help_text=_("For a Swiss. A round robin has as many rounds as its players need."),
    )
    pairing_bye = forms.ChoiceField(
        label=_("The bye for an odd number of players scores"),
        # Blank: a Swiss's bye scores 1, a round robin's (the game against the dummy) 0.
        choices=[("", _("1 point in a Swiss, 0 in a round robin")), *PairingBye.choices],
        widget=forms.RadioSelect,
        required=False,
    )
    first_colour = forms.ChoiceField(
        label=_("Seed 1 in round 1 plays"),
        choices=[
            (BY_LOT, _("Drawn by lot")),
            (FirstColour.WHITE, _("White")),
            (FirstColour.BLACK, _("Black")),
        ],
        widget=forms.RadioSelect,
        required=False,  # blank: by lot
    )
    accelerated = forms.BooleanField(
        label=_("Accelerated pairings"),
        required=False,
        help_text=_("Swiss only: the Baku method (FIDE C.04.5.1) for a large field."),
    )
    # One check-in, then sections (directors/night/split.py); blank: one section, as always.
    split = forms.ChoiceField(
        label=_("Sections"),
        choices=[
            (splits.ONE, _("One section")),
            (splits.BY_RATING, _("By rating")),
            (splits.BY_AGE, _("Juniors apart from adults")),
            (splits.BY_CHOICE, _("Chosen per player: move them on the evening page")),
        ],
        widget=forms.RadioSelect,
        required=False,
    )
    thresholds = forms.CharField(
        label=_("Ratings where a section starts"),
        required=False,
        max_length=60,
        help_text=_("By rating: 1600 makes 1600 and up, then below 1600; several with commas."),
    )
    section_names = forms.CharField(
        label=_("Section names, highest first"),
        required=False,
        max_length=300,
        help_text=_("Separated by commas, such as Open, Minor; empty: A, B … (Adults, Juniors)."),
    )
    players = forms.TypedMultipleChoiceField(coerce=int, required=False)
    # The schedule's date this evening runs (directors.schedule.ScheduledDay.reference), or
    # blank: the schedule checks it, so a forged one is refused there.
    scheduled = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)
    q = forms.CharField(label=_("Find a player"), required=False, max_length=MAX_NAME_LENGTH)
    newcomer_name = forms.CharField(
        label=_("Newcomer's name"), required=False, max_length=MAX_NAME_LENGTH
    )
    newcomer_junior = forms.BooleanField(label=_("Junior"), required=False)
    action = forms.ChoiceField(choices=[(SEARCH, SEARCH), (NEWCOMER, NEWCOMER), (START, START)])

    def __init__(self, *args: Any, roster_ids: set[int], **kwargs: Any) -> None:
        # The defaults, under what a search or a newcomer carried over (the page's address).
        kwargs["initial"] = {
            "date": timezone.localdate(),
            "kind": Event.Kind.STANDARD,
            "rated": True,
            "system": PairingSystem.SWISS,
            "pairing_bye": "",
            "first_colour": BY_LOT,
            **(kwargs.get("initial") or {}),
        }
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(pk, pk) for pk in roster_ids]
        field.error_messages["invalid_choice"] = _("Every player must be on this club's roster.")

    def clean_thresholds(self) -> list[int]:
        pieces = [p.strip() for p in self.cleaned_data["thresholds"].split(",") if p.strip()]
        if not all(piece.isascii() and piece.isdigit() for piece in pieces):
            raise forms.ValidationError(
                _("Write the ratings as whole numbers separated by commas, such as 1200, 1600.")
            )
        return [int(piece) for piece in pieces]

    def clean_section_names(self) -> list[str]:
        return [name for name in self.cleaned_data["section_names"].split(",") if name.strip()]

    def ticked(self) -> list[int]:
        """The ticked ids of a bound form, valid or not (the page keeps them ticked)."""
        if self.is_bound and self.is_valid():
            return list(self.cleaned_data["players"])
        raw = self.data.getlist("players") if hasattr(self.data, "getlist") else []
        by_text = {str(pk): pk for pk, _label in self.fields["players"].choices}  # type: ignore[attr-defined]
        return [by_text[v] for v in raw if v in by_text]


class EntrantForm(forms.Form):
    """One entrant of the evening (move seed, withdraw, bye): the service checks the id."""

    entry = forms.IntegerField(min_value=1)
    seed = forms.IntegerField(required=False, min_value=1)
    round = forms.IntegerField(required=False, min_value=1)
    back = forms.BooleanField(required=False)
    cancel = forms.BooleanField(required=False)
    # The bye's worth as its TRF letter; blank: a half-point bye (a form from before issue 36).
    bye = forms.ChoiceField(choices=RequestedBye.choices, required=False)


class SectionRulesForm(forms.Form):
    """A section's own system, rounds and bye score, before its first round."""

    system = forms.ChoiceField(choices=PairingSystem.choices)
    rounds = forms.IntegerField(required=False, min_value=1, max_value=settings.EVENT_MAX_ROUNDS)
    pairing_bye = forms.ChoiceField(choices=[("", ""), *PairingBye.choices], required=False)


class MoveForm(forms.Form):
    """An entrant and the section (an event of the same evening) they move to."""

    entry = forms.IntegerField(min_value=1)
    section = forms.IntegerField(min_value=1)


class LateArrivalForm(forms.Form):
    """A roster player (by id) or a newcomer (by name) joins before the next round."""

    player = forms.IntegerField(required=False, min_value=1)
    newcomer_name = forms.CharField(required=False, max_length=MAX_NAME_LENGTH)
    newcomer_junior = forms.BooleanField(required=False)
    # The director said this name, close to roster players, is a new person.
    new_person = forms.BooleanField(required=False)
    # What the rounds already paired score for them; blank: the club's setting.
    missed = forms.ChoiceField(choices=MissedRounds.choices, required=False)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:  # a field's own message (a name too long, a forged id) says it better
            return cleaned
        if not cleaned.get("player") and not (cleaned.get("newcomer_name") or "").strip():
            raise forms.ValidationError(_("Choose a player or type a newcomer's name."))
        return cleaned


class RoundForm(forms.Form):
    """Pair the next round (`expected`) or pair the last one again (`round`)."""

    expected = forms.IntegerField(required=False, min_value=1)
    round = forms.IntegerField(required=False, min_value=1)
    # The director was told the never-pair list cannot be kept this round, and pairs anyway.
    without_never_pair = forms.BooleanField(required=False)
    # The second step of a publish with rounds left, or of pairing a round with hand
    # changes again: what the confirmation page showed (the rounds paired, the pairing).
    confirm = forms.BooleanField(required=False)
    paired = forms.IntegerField(required=False, min_value=0)
    pairing = forms.IntegerField(required=False, min_value=0, max_value=2**31 - 1)


class ByesForm(forms.Form):
    """The byes players may ask for (a club's default or one evening's), and for a club what a
    late entrant's missed rounds score by default."""

    byes = forms.MultipleChoiceField(
        label=_("Byes a player may ask for"),
        choices=RequestedBye.choices,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Allow at least one bye: 0, ½ or 1 point.")},
    )
    missed = forms.ChoiceField(
        label=_("A late entrant's missed rounds"),
        choices=MissedRounds.choices,
        widget=forms.RadioSelect,
        required=False,
        help_text=_("The default when a player joins after round 1; chosen again each time."),
    )


class BoardResultForm(forms.Form):
    """One tap: the result, and the pair and pairing version the screen showed
    (directors/night/pairs.py refuses it once the board holds another pair); the result the
    screen showed, to refuse it once the board holds another; and, sent by the offline
    script only, the tap's key (directors/night/taps.py applies a key once)."""

    result = forms.ChoiceField(choices=[(r.value, r.value) for r in Result])
    white = forms.IntegerField(min_value=1)
    black = forms.IntegerField(min_value=1)
    pairing = forms.IntegerField(min_value=0)
    based_on = forms.ChoiceField(
        choices=[(NO_RESULT_YET, NO_RESULT_YET)] + [(r.value, r.value) for r in Result],
        required=False,
    )
    key = forms.UUIDField(required=False)

    def based_on_result(self) -> str | None:
        """The result the screen showed (NO_RESULT_YET for none), or None: not said."""
        return self.cleaned_data["based_on"] or None

    def result_value(self) -> Result:
        return Result(self.cleaned_data["result"])

    def shown(self) -> Shown:
        data = self.cleaned_data
        return Shown(data["pairing"], data["white"], data["black"])


class TiebreakOrderForm(forms.Form):
    """The club's tie-breaks in order: one choice per place, blanks at the end dropped;
    ladder.tiebreaks.parse_order decides what is allowed (no tie-break twice)."""

    def __init__(self, *args: Any, current: tuple[tiebreaks.Tiebreak, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("(none)"))] + [
            (t.value, tiebreak_label(t)["name"]) for t in tiebreaks.Tiebreak
        ]
        for place in range(1, len(tiebreaks.Tiebreak) + 1):
            self.fields[f"place{place}"] = forms.ChoiceField(
                label=_("Tie-break %(place)d") % {"place": place},
                choices=choices,
                required=place == 1,
                initial=current[place - 1].value if place <= len(current) else "",
            )
        self.order: tuple[tiebreaks.Tiebreak, ...] = ()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        codes = [cleaned[name] for name in self.fields if cleaned.get(name)]
        try:
            self.order = tiebreaks.parse_order(codes)
        except ValueError:
            raise forms.ValidationError(_("Choose each tie-break at most once.")) from None
        return cleaned
