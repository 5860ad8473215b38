from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Event, Player
from matching import normalize

if TYPE_CHECKING:  # the stubs' name for a str or a lazy translation (dev dependency only)
    from django_stubs_ext import StrOrPromise


# Addresses no club may take: they read as the site's own, and "not available" for one of
# these looks just like "not available" for a club nobody may see.
RESERVED_SLUGS = frozenset(
    {"admin", "api", "help", "login", "manage", "new", "signup", "staff", "static", "www"}
)


class ClubCreateForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "slug", "language")
        help_texts = {"slug": _("Part of the club page's address: letters, digits and hyphens.")}

    def clean_name(self) -> str:
        # As a player's name: NFC, no invisible or bidi characters, plain spaces. A name of
        # only such characters comes out blank, which the model refuses.
        return normalize.clean_name(self.cleaned_data["name"])

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"].lower()
        # The same words for a reserved address and for any club's, public or hidden, so the
        # answer never confirms that a directors-only or unlisted club exists.
        if slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("This address is not available; please choose another."))
        return slug


class InviteDirectorForm(forms.Form):
    """Only the address: whether it has an account, or already directs the club, is never
    checked here, so the owner's page cannot tell (clubs/accounts/invitations.py)."""

    email = forms.EmailField(label=_("E-mail address of the new director"), max_length=254)

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"]
        return email.strip().lower()


class AuditFilterForm(forms.Form):
    """The audit log's GET filters: one player (merged records included) and one event
    (deleted ones included), each of this club only."""

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.ModelChoiceField(
            queryset=Player.objects.filter(club=club).order_by("name", "id"),
            label=_("Player"),
            required=False,
        )
        self.fields["event"] = forms.ModelChoiceField(
            queryset=Event.objects.filter(club=club).order_by("-date", "-order_in_day", "-id"),
            label=_("Event"),
            required=False,
        )


# The rating policies' own labels are English (they are pure modules); these are the shown
# ones, on the rating settings form (directors/rating_settings_views.py) and in the audit log.
POLICY_LABELS: dict[str, StrOrPromise] = {
    "ladder": _("Club ladder (Elo with two K values)"),
    "hsb": _("HSB junior rating"),
}
FIELD_LABELS: dict[str, StrOrPromise] = {
    "start_rating": _("Start rating for newcomers"),
    "k_high": _("K for new players"),
    "k_low": _("K for established players"),
    "k_threshold": _("Rated games before the lower K"),
    "provisional_below": _("Provisional games"),
    "junior_k_rule": _("Juniors keep the higher K"),
    "junior_k_max_rating": _("… while their rating is under"),
    "bonus": _("Bonus per event played"),
}
FIELD_HELP: dict[str, StrOrPromise] = {
    "k_threshold": _(
        "A player rates with the K for new players until they have this many rated games."
    ),
    "provisional_below": _(
        "A player is provisional until they have this many rated games; an established "
        "player's rating does not move in a game against a provisional one."
    ),
    "bonus": _("Added to the change of every player with a rated game in an event."),
}
