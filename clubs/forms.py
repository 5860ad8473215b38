from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, User


class SignUpForm(BaseUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "name")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this e-mail address already exists."))
        return email


class ClubCreateForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ("name", "slug", "language")
        help_texts = {"slug": _("Part of the club page's address: letters, digits and hyphens.")}

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].lower()
        if Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("This address is taken; please choose another."))
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
