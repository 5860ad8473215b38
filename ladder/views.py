"""The ladder as members see it, and the directors' rebuild button."""

from __future__ import annotations

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.access import club_for_director, club_for_visitor
from clubs.models import Club
from ladder.changes import request_full_rebuild


def club_page(request: HttpRequest, slug: str, secret: str | None = None) -> HttpResponse:
    club = club_for_visitor(request, slug, secret)
    is_director = club.is_directed_by(request.user)
    noindex = club.visibility != Club.Visibility.PUBLIC
    if not club.page_is_active() and not is_director:
        # Nothing is deleted: subscribing again brings the page back as it was.
        response = render(request, "ladder/inactive.html", {"club": club, "noindex": noindex})
    else:
        players = club.players.on_ladder().in_ladder_order()
        response = render(
            request,
            "ladder/ladder.html",
            {"club": club, "players": players, "noindex": noindex, "is_director": is_director},
        )
    if club.visibility != Club.Visibility.PUBLIC:
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
    return response


@require_POST
def rebuild(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    with transaction.atomic():
        request_full_rebuild(club.pk)
    messages.success(request, _("The ladder is being rebuilt from the first event."))
    return redirect("club_manage", slug=club.slug)
