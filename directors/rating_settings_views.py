"""The directors' rating settings of one ladder: the policy and its numbers, shown with their
effect first (the club's first ladder at the old address, every ladder at its own).

Directors may change them, as they may the page settings (every director already changes
ratings by correcting results); the audit log records who did. One screen, two steps: the
form posts to itself and is answered with what the new settings would move (an in-memory
replay of the ladder's history, ladder/impact/what_if.py), and a confirmation that carries the same
values saves them through the one door.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs import audit
from clubs.access import AuthedRequest, ladder_for_director
from clubs.models import Ladder, Player
from directors.forms import FIELD_HELP, FIELD_LABELS, POLICY_LABELS
from directors.ladders.changes import shown_name
from ladder.changes import LadderInput, club_changed
from ladder.fingerprint import settings_fingerprint
from ladder.impact.compare import LadderImpact
from ladder.impact.what_if import settings_impact
from ladder.policies import POLICIES, Policy, get_policy
from ladder.policies.base import PolicySettings, SettingError

MOVES_SHOWN = 25


class RatingSettingsForm(forms.Form):
    """One policy's settings, with fields made from its settings dataclass (a new policy gets
    a form without a line here); the policy's own parse_settings decides what is allowed."""

    policy = forms.CharField(widget=forms.HiddenInput)
    # What the settings were when the form was shown: a save over someone else's newer
    # settings is refused rather than made blindly.
    based_on = forms.CharField(widget=forms.HiddenInput)

    def __init__(
        self,
        data: Mapping[str, Any] | None,
        *,
        policy: Policy,
        initial: PolicySettings,
        ladder: Ladder,
    ) -> None:
        super().__init__(
            data,
            initial={
                "policy": policy.name,
                "based_on": current_fingerprint(ladder),
                **policy.settings_to_dict(initial),
            },
        )
        self.rating_policy = policy
        self.settings: PolicySettings | None = None
        for field in dataclasses.fields(policy.default_settings()):
            default = getattr(policy.default_settings(), field.name)
            label = FIELD_LABELS.get(field.name, field.name)
            help_text = FIELD_HELP.get(field.name, "")
            if isinstance(default, bool):
                self.fields[field.name] = forms.BooleanField(
                    label=label, help_text=help_text, required=False
                )
            elif isinstance(default, int):
                self.fields[field.name] = forms.IntegerField(label=label, help_text=help_text)
            else:
                self.fields[field.name] = forms.FloatField(
                    label=label,
                    help_text=help_text,
                    widget=forms.NumberInput(attrs={"step": "any"}),
                )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        raw = {name: cleaned[name] for name in self.fields if name not in ("policy", "based_on")}
        try:
            self.settings = self.rating_policy.parse_settings(raw)
        except SettingError as error:
            self.add_error(error.field if error.field in self.fields else None, _refusal(error))
        except ValueError:
            self.add_error(None, _("These settings are not allowed."))
        return cleaned


def _refusal(error: SettingError) -> str:
    """The policy's refusal in the director's language."""
    if error.at_least is not None:
        other = FIELD_LABELS.get(error.at_least, error.at_least)
        return _("This must be at least “%(other)s”.") % {"other": other}
    if error.low is not None and error.high is not None:
        return _("Enter a value from %(low)s to %(high)s.") % {
            "low": _bound(error.low),
            "high": _bound(error.high),
        }
    return _("This value is not allowed.")


def _bound(value: float) -> str:
    """4000, not 4000.0; 0.5 with the language's decimal mark."""
    return number_format(int(value) if float(value).is_integer() else value)


def current_fingerprint(ladder: Ladder) -> str:
    return settings_fingerprint(ladder.rating_policy, dict(ladder.rating_settings))


def rating_settings(request: AuthedRequest, slug: str, ladder: str | None = None) -> HttpResponse:
    """`ladder` None: the club's first ladder (the screen's address before there were more)."""
    found = ladder_for_director(request, slug, ladder)
    club = found.club
    data = request.POST if request.method == "POST" else None
    name = (data or request.GET).get("policy") or found.rating_policy
    if name not in POLICIES:
        # Only a forged form or a hand-typed address names a policy that does not exist.
        messages.error(request, _("There is no such rating policy: nothing was saved."))
        name, data = found.rating_policy, None
    policy = get_policy(name)
    form = RatingSettingsForm(
        data, policy=policy, initial=_shown_settings(found, policy), ladder=found
    )
    impact = None
    if data is not None and form.is_valid():
        assert form.settings is not None  # set by a valid form's clean()
        if form.cleaned_data["based_on"] != current_fingerprint(found):
            messages.error(
                request,
                _(
                    "The rating settings were changed by someone else since you opened the "
                    "page, so nothing was saved. The page now shows the current settings."
                ),
            )
            return _back(found, ladder)
        if "confirm" in data:
            _save(request, found, policy, form.settings)
            return _back(found, ladder)
        impact = settings_impact(club, policy, form.settings, found)
    return render(
        request,
        "directors/rating_settings.html",
        {
            "club": club,
            "ladder": found,
            "ladder_name": shown_name(found.name),
            "several": Ladder.objects.for_club(club.pk).count() > 1,
            "form": form,
            "policy_name": name,
            "policies": [(key, POLICY_LABELS.get(key, p.label)) for key, p in POLICIES.items()],
            "impact": impact,
            "moves": _named_moves(impact) if impact is not None else [],
            "unchanged": impact is not None and _same(found, policy, form.settings),
            "confirm_values": _as_hidden(policy, form.settings) if impact is not None else [],
        },
    )


def _back(ladder: Ladder, asked: str | None) -> HttpResponse:
    """To the address the director came by."""
    if asked is None:
        return redirect("rating_settings", slug=ladder.club.slug)
    return redirect("ladder_rating_settings", slug=ladder.club.slug, ladder=ladder.slug)


def _shown_settings(ladder: Ladder, policy: Policy) -> PolicySettings:
    """The ladder's settings for its own policy; another policy's defaults."""
    if policy.name == ladder.rating_policy:
        return policy.parse_settings(ladder.rating_settings)
    return policy.default_settings()


def _same(ladder: Ladder, policy: Policy, settings: PolicySettings | None) -> bool:
    return (
        settings is not None
        and policy.name == ladder.rating_policy
        and policy.settings_to_dict(settings)
        == policy.settings_to_dict(policy.parse_settings(ladder.rating_settings))
    )


def _save(request: AuthedRequest, ladder: Ladder, policy: Policy, settings: PolicySettings) -> None:
    if _same(ladder, policy, settings):
        messages.info(request, _("These are the settings the club has already: nothing changed."))
        return
    old_policy = get_policy(ladder.rating_policy)
    old = old_policy.settings_to_dict(old_policy.parse_settings(ladder.rating_settings))
    new = policy.settings_to_dict(settings)
    changes: dict[str, list[object]] = {}
    if policy.name != ladder.rating_policy:
        changes["rating_policy"] = [ladder.rating_policy, policy.name]
    for key in sorted(old.keys() | new.keys()):
        if old.get(key) != new.get(key):
            changes[key] = [old.get(key), new.get(key)]
    club = ladder.club
    # The log names the ladder once the club has more than one (the sentence says which).
    named = {}
    if Ladder.objects.for_club(club.pk).count() > 1:
        named = {"ladder": ladder.slug, "ladder_name": ladder.name}
    with transaction.atomic():
        # Only these columns: a whole-row save would write back versions read earlier.
        Ladder.objects.filter(pk=ladder.pk).update(rating_policy=policy.name, rating_settings=new)
        # Which events the ladder rates is unchanged, their ratings all move: from the first.
        club_changed(club.pk, LadderInput.of_ladders([ladder.pk]))
        audit.record(club, request.user, "rating_settings.changed", changes=changes, **named)
    messages.success(
        request,
        _("The rating settings are saved; the ladder is being recalculated with them."),
    )


def _as_hidden(policy: Policy, settings: PolicySettings | None) -> list[tuple[str, str]]:
    """The previewed values as the confirmation re-posts them (unlocalised, so 1200.5 is
    never written as 1200,5; booleans as the words BooleanField reads)."""
    if settings is None:
        return []
    return [
        (key, ("true" if value else "false") if isinstance(value, bool) else str(value))
        for key, value in policy.settings_to_dict(settings).items()
    ]


def _named_moves(impact: LadderImpact) -> list[dict[str, object]]:
    shown = impact.moves[:MOVES_SHOWN]
    names = dict(
        Player.objects.filter(pk__in=[m.player_id for m in shown]).values_list("id", "name")
    )
    return [{"name": names.get(m.player_id, ""), "move": m} for m in shown]
