from __future__ import annotations

import re

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from clubs.accounts.auth import REFUSED_ADDRESS, REFUSED_DEVICE, REFUSED_NEW_BROWSER


def too_many_from_address() -> forms.ValidationError:
    return forms.ValidationError(
        _("Too many attempts from your network. Please try again later."), code="throttled"
    )


class ThrottledLoginForm(AuthenticationForm):
    """Says plainly when sign-ins are cooling off instead of "wrong password"."""

    def clean(self) -> dict[str, object]:
        try:
            return super().clean()
        except forms.ValidationError:
            # accounts/auth.py marks the request when it refused the try before any password check.
            reason = getattr(self.request, "sign_in_refused", None)
            if reason == REFUSED_ADDRESS:
                raise too_many_from_address() from None
            if reason == REFUSED_NEW_BROWSER:
                # The same words whether or not the address has an account.
                raise forms.ValidationError(
                    _(
                        "This account has had many failed sign-ins, so a browser it has not "
                        "signed in from before needs a one-time link. If the address belongs to "
                        "an account, we have e-mailed a sign-in link to it. Or try again in "
                        "15 minutes."
                    ),
                    code="link_sent",
                ) from None
            if reason == REFUSED_DEVICE:
                raise forms.ValidationError(
                    _("Too many failed sign-ins for this account. Please try again in 15 minutes."),
                    code="locked",
                ) from None
            raise


# The invitation a sign-up just asked to join, kept in the new session until its page
# (clubs/accounts/views.py sets it, the invitation's page in directors/views.py reads it).
JOIN_AFTER_SIGNUP = "join_after_signup"


class SignUpForm(forms.Form):
    """Only the address and a name: the password is chosen from the link in the mail, so the
    answer reads the same whether or not the address has an account (clubs/accounts/views.py)."""

    email = forms.EmailField(label=_("e-mail address"), max_length=254)
    name = forms.CharField(label=_("name"), max_length=150, required=False)
    # An invitation's link token, carried to the account's first page (checked there).
    invitation = forms.CharField(widget=forms.HiddenInput, required=False, max_length=500)

    def clean_invitation(self) -> str:
        """A signed link token, or nothing: anything else is dropped, not carried."""
        token: str = self.cleaned_data.get("invitation", "")
        return token if re.fullmatch(r"[A-Za-z0-9_:.-]+", token) else ""

    def clean_email(self) -> str:
        email: str = self.cleaned_data["email"]
        return email.strip().lower()
