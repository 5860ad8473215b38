from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from clubs.auth import locked_until


class ThrottledLoginForm(AuthenticationForm):
    """Says plainly when an account is cooling off instead of "wrong password"."""

    def clean(self) -> dict[str, object]:
        username = self.cleaned_data.get("username")
        if username and locked_until(username) is not None:
            raise forms.ValidationError(
                _("Too many failed sign-ins for this account. Please try again in 15 minutes."),
                code="locked",
            )
        return super().clean()
