"""The directors' roster, its own writes: add a player, rename one, offer "First Last" for
names that arrived as "Last,First", delete an empty one.

Thin views: the access helpers answer 404 to outsiders and directors.roster.players makes every
change (and refuses, with a message, what it must not do).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.access import AuthedRequest, club_for_director, player_for_director
from clubs.models import Player
from directors.events.forms import PlayerNameField
from directors.roster.merging import RosterChangeError
from directors.roster.players import (
    MAX_BULK_RENAMES,
    add_player,
    delete_player,
    release_player,
    rename_first_last,
    rename_player,
)


class AddPlayerForm(forms.Form):
    name = PlayerNameField(label=gettext_lazy("Name"), max_length=120)
    junior = forms.BooleanField(label=gettext_lazy("Junior"), required=False)
    start_rating = forms.FloatField(
        label=gettext_lazy("Starting estimate (empty: the club's start rating)"),
        required=False,
        min_value=0,
        max_value=4000,
    )


class RenameForm(forms.Form):
    name = PlayerNameField(label=gettext_lazy("New name"), max_length=120)


@require_http_methods(["GET", "HEAD", "POST"])
def player_add(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = AddPlayerForm(request.POST if request.method == "POST" else None)
    problem = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            added = add_player(
                club,
                data["name"],
                junior=data["junior"],
                start_rating=data["start_rating"],
                user=request.user,
            )
        except RosterChangeError as refused:
            problem = refused.message
        else:
            messages.success(request, _("%(name)s is on the roster.") % {"name": added.name})
            _warn_if_shared(request, added)
            return redirect("roster_player", slug=club.slug, player_id=added.pk)
    return render(
        request,
        "directors/roster/add.html",
        {"club": club, "form": form, "problem": problem},
        status=400 if form.is_bound else 200,
    )


@require_POST
def player_rename(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    found = player_for_director(request, slug, player_id)
    form = RenameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the new name, at most 120 characters."))
        return redirect("roster_player", slug=slug, player_id=found.pk)
    old = found.name
    try:
        renamed = rename_player(found, form.cleaned_data["name"], request.user)
    except RosterChangeError as refused:
        messages.error(request, refused.message)
    else:
        if renamed:
            found.refresh_from_db(fields=["name"])
            messages.success(
                request,
                _("%(old)s is now %(new)s; the old spelling is kept as another spelling.")
                % {"old": old, "new": found.name},
            )
            _warn_if_shared(request, found)
    return redirect("roster_player", slug=slug, player_id=found.pk)


@require_POST
def player_first_last(request: AuthedRequest, slug: str) -> HttpResponse:
    """Rename the checked "Last,First" names (the roster's filter) or one (a player's page)."""
    club = club_for_director(request, slug)
    ids = [int(v) for v in request.POST.getlist("player")[:MAX_BULK_RENAMES] if v.isdigit()]
    renamed = rename_first_last(club, ids, request.user)
    if renamed:
        messages.success(
            request,
            ngettext(
                "%(count)d name is now written first name first.",
                "%(count)d names are now written first name first.",
                renamed,
            )
            % {"count": renamed},
        )
    else:
        messages.error(request, _("No name was renamed: none of them is written Last,First."))
    if request.POST.get("back") == "player" and len(ids) == 1:
        return redirect("roster_player", slug=club.slug, player_id=ids[0])
    return redirect(reverse("roster_players", args=[club.slug]) + "?last_first=on")


@require_POST
def player_delete(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    found = player_for_director(request, slug, player_id)
    try:
        delete_player(found, request.user)
    except RosterChangeError as refused:
        messages.error(request, refused.message)
        return redirect("roster_player", slug=slug, player_id=found.pk)
    messages.success(request, _("%(name)s is no longer on the roster.") % {"name": found.name})
    return redirect("roster_players", slug=slug)


@require_POST
def player_release(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    """A held player (met in a draft) on the club's pages now: the director's explicit act."""
    found = player_for_director(request, slug, player_id)
    if release_player(found, request.user):
        messages.success(request, _("%(name)s is on the club page now.") % {"name": found.name})
    return redirect("roster_player", slug=slug, player_id=found.pk)


def _warn_if_shared(request: HttpRequest, player: Player) -> None:
    """Two people may share a name, so it is allowed, but the director should know."""
    shared = (
        Player.objects.filter(club_id=player.club_id, name__iexact=player.name)
        .active()
        .exclude(pk=player.pk)
        .exists()
    )
    if shared:
        messages.warning(
            request,
            _(
                "Another player on the roster is also called %(name)s. If they are the same "
                "person, merge them."
            )
            % {"name": player.name},
        )
