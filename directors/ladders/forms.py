"""The ladders screen's forms. They refuse what a person typed wrong with the field's own
message; directors/ladders/changes.py checks the same again, as the add_ladder command reaches
it without a form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Ladder
from clubs.models.club import RATABLE_KINDS
from directors.forms import POLICY_LABELS
from directors.ladders.changes import (
    KIND_LABELS,
    LadderRefused,
    assignment,
    check_kinds,
    check_name,
    check_slug,
    shown_name,
)
from ladder.policies import POLICIES


def kind_choices() -> list[tuple[str, Any]]:
    return [(kind, KIND_LABELS[kind]) for kind in RATABLE_KINDS]


def policy_choices() -> list[tuple[str, Any]]:
    return [(key, POLICY_LABELS.get(key, policy.label)) for key, policy in POLICIES.items()]


class _Refusals(forms.Form):
    def _checked(self, name: str, check: Any, *args: Any) -> Any:
        try:
            return check(*args)
        except LadderRefused as refused:
            raise forms.ValidationError(str(refused)) from None


class AddLadderForm(_Refusals):
    name = forms.CharField(label=_("Name of the ladder"), max_length=80)
    slug = forms.CharField(
        label=_("Short name"),
        max_length=30,
        help_text=_("Part of the ladder's address: lower-case letters, digits and hyphens."),
    )
    policy = forms.ChoiceField(label=_("Rating policy"), choices=policy_choices)
    kinds = forms.MultipleChoiceField(
        label=_("Event kinds it rates"),
        choices=kind_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("A kind another ladder rates moves to this one; both are recalculated."),
    )
    based_on = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, data: Mapping[str, Any] | None, *, club: Club) -> None:
        super().__init__(
            data, initial={"policy": "ladder", "based_on": assignment(club)}, auto_id="id_add_%s"
        )
        self.club = club

    def clean_name(self) -> str:
        return str(self._checked("name", check_name, self.cleaned_data["name"]))

    def clean_slug(self) -> str:
        return str(self._checked("slug", check_slug, self.club, self.cleaned_data["slug"]))

    def clean_kinds(self) -> tuple[str, ...]:
        # The raw list, not the cleaned one: a kind sent twice is a forged form, refused.
        raw: Sequence[str] = self.data.getlist("kinds") if hasattr(self.data, "getlist") else []
        return tuple(self._checked("kinds", check_kinds, list(raw) or self.cleaned_data["kinds"]))


class RenameLadderForm(_Refusals):
    name = forms.CharField(label=_("New name"), max_length=80)

    def clean_name(self) -> str:
        return str(self._checked("name", check_name, self.cleaned_data["name"]))


class MoveKindForm(forms.Form):
    """One kind to one ladder; `based_on` is the assignment the page showed, so a move over
    someone else's newer change is refused rather than made blindly."""

    kind = forms.ChoiceField(label=_("Event kind"), choices=kind_choices)
    to = forms.ChoiceField(label=_("To the ladder"))
    based_on = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(
        self, data: Mapping[str, Any] | None, *, club: Club, ladders: Sequence[Ladder]
    ) -> None:
        super().__init__(data, initial={"based_on": assignment(club)}, auto_id="id_move_%s")
        self.ladders = {ladder.slug: ladder for ladder in ladders}
        field = self.fields["to"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(ladder.slug, shown_name(ladder.name)) for ladder in ladders]

    def clean_kind(self) -> str:
        raw = self.data.getlist("kind") if hasattr(self.data, "getlist") else []
        if len(raw) > 1:
            raise forms.ValidationError(_("Choose one kind to move."))
        return str(self.cleaned_data["kind"])

    @property
    def target(self) -> Ladder:
        return self.ladders[self.cleaned_data["to"]]
