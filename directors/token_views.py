"""The directors' API token screens (issue 37) at manage/<slug>/tokens/: the club's tokens with
their scope and when each was last used, a new one (its text shown on the answer to the form
and never again: only its hash is kept) and a revocation. The rules are clubs.tokens', which
the api_token command reaches without a form."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from clubs.access import NOT_FOUND, AuthedRequest, club_for_director
from clubs.models import ApiToken, Club
from clubs.tokens import NAME_MAX_LENGTH, NewToken, TokenRefused, create_token, revoke_token


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=NAME_MAX_LENGTH,
        help_text=gettext_lazy("Who or what will use it, for example “Swiss-Manager laptop”."),
    )
    scope = forms.ChoiceField(
        label=gettext_lazy("What it may do"),
        choices=[
            (ApiToken.Scope.READ, gettext_lazy("read the club's data")),
            (ApiToken.Scope.PUBLISH, gettext_lazy("publish results (and read)")),
        ],
    )


def token_list(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    if request.method == "POST":
        form = TokenForm(request.POST)
        if form.is_valid():
            try:
                made = create_token(
                    club, form.cleaned_data["name"], form.cleaned_data["scope"], request.user
                )
            except TokenRefused as error:
                form.add_error("name", error.message)
            else:
                return _page(request, club, TokenForm(), made)
    else:
        form = TokenForm()
    return _page(request, club, form, None)


@require_POST
def token_revoke(request: AuthedRequest, slug: str, token_id: int) -> HttpResponse:
    club = club_for_director(request, slug)
    # Another club's token id is the same 404 as one that does not exist.
    token = ApiToken.objects.filter(club=club, pk=token_id).first()
    if token is None:
        raise Http404(NOT_FOUND)
    if token.is_active:
        revoke_token(club, token.name, request.user)
        messages.success(request, _("The token “%(name)s” is revoked.") % {"name": token.name})
    return redirect("token_list", slug=club.slug)


def _page(
    request: AuthedRequest, club: Club, form: TokenForm, made: NewToken | None
) -> HttpResponse:
    tokens = ApiToken.objects.filter(club=club).order_by("revoked_at", "name")
    response = render(
        request,
        "directors/tokens/list.html",
        {"club": club, "tokens": tokens, "form": form, "made": made},
    )
    # The new token's text is on this page alone: no cache, no back button may keep it.
    response["Cache-Control"] = "no-store"
    return response
