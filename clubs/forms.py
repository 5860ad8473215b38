from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, User


class SignUpForm(forms.Form):
    """Only the address and a name: the password is chosen from the link in the mail, so the
    answer reads the same whether or not the address has an account (clubs/account_views.py)."""

    email = forms.EmailField(label=_("e-mail address"), max_length=254)
    name = forms.CharField(label=_("name"), max_length=150, required=False)

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()


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

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].lower()
        # The same words for a reserved address and for any club's, public or hidden, so the
        # answer never confirms that a directors-only or unlisted club exists.
        if slug in RESERVED_SLUGS or Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("This address is not available; please choose another."))
        return slug


class AddDirectorForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address of an existing account"))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_email(self) -> User:
        email = self.cleaned_data["email"].strip().lower()
        user = User.objects.filter(email__iexact=email, is_active=True).first()
        if user is None:
            raise forms.ValidationError(
                _("No account uses this address. Ask them to sign up first, then add them.")
            )
        if self.club.roles.filter(user=user).exists():
            raise forms.ValidationError(_("This person already directs the club."))
        return user
