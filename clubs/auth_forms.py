from __future__ import annotations

from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _


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
            # clubs.auth marks the request when it refused the try before any password check.
            reason = getattr(self.request, "sign_in_refused", None)
            if reason == "address":
                raise too_many_from_address() from None
            if reason == "account":
                raise forms.ValidationError(
                    _("Too many failed sign-ins for this account. Please try again in 15 minutes."),
                    code="locked",
                ) from None
            raise
