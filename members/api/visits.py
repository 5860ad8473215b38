"""Who asks the API for which club, and what the answer may be kept as.

The club comes through clubs.access.club_for_visitor, the one door the pages use: a public
club at its plain address, an unlisted one only with its secret, a director-only one only to
its signed-in directors, and with an API token (Authorization: Bearer) its own club,
public or unlisted (clubs.access.club_for_token); every other "no" is the same 404.
An answer is built first, so a
404 is never hidden behind a 304; its ETag is members.web.page_cache's key of a download (the
club's row with its secret and pages_version, each ladder's built and data versions, the
language, the day, the path and the query), so it moves whenever what it shows may have.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone, translation

from clubs.access import club_for_token, club_for_visitor
from clubs.models import Club, Ladder
from clubs.tokens import bearer_token, find_token, use_token
from members.api import cors
from members.web import page_cache
from members.web.club_view import club_ladders
from members.web.language import use_club_language


@dataclass(frozen=True)
class ApiVisit:
    club: Club
    is_director: bool
    page_active: bool
    ladders: list[Ladder]
    page: str  # the club page's path as this caller may reach it (with the secret they gave)

    @property
    def page_open(self) -> bool:
        return self.page_active or self.is_director


class Inactive(Exception):
    """The club's subscription is off and the answer is not one the pages keep open (an
    event's are): 402, as ladder.json answers then."""


def visit(request: HttpRequest, slug: str, secret: str | None, *, free: bool = False) -> ApiVisit:
    """The club as this caller may read it (Http404 otherwise); Inactive for an answer that
    is not `free` while the club's page is off, as club_view shows visitors the notice."""
    text = bearer_token(request)
    if text is None:
        club = club_for_visitor(request, slug, secret)
    else:
        # A program with a token reads as a visitor with the club's link would: never with a
        # director's full names, whichever address it calls.
        token = find_token(text)
        if token is not None:
            use_token(token)  # counted even when it asks for another club: no free probing
        club = club_for_token(slug, token)
        secret = None  # the page path below: the token holder may not know the secret
    # Names a page translates (an unconfirmed entrant, …) read as on the club's pages.
    use_club_language(request, club.language)
    if secret is None:
        page = reverse("club_page", kwargs={"slug": club.slug})
    else:
        page = reverse("club_page_secret", kwargs={"slug": club.slug, "secret": secret})
    is_director = text is None and club.is_directed_by(request.user)
    found = ApiVisit(club, is_director, club.page_is_active(), club_ladders(club), page)
    if not (found.page_open or free):
        raise Inactive
    return found


def finish(request: HttpRequest, response: HttpResponse, found: ApiVisit) -> HttpResponse | None:
    """Cache headers on `response` (ninja's, which will carry the answer), as the pages send
    them; a 304 to send instead when the caller already holds this answer."""
    cors.allow_club_sites(request, response, found.club)
    if found.club.visibility != Club.Visibility.PUBLIC:
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
    response["X-Ladder-Status"] = "current" if found.club.ladder_is_current else "recalculating"
    if found.is_director or not _shared_answer(request):
        # A director's answer (full names of juniors) is theirs alone, as their pages are.
        page_cache.not_shared(response)
        return None
    tag = etag(request, found)
    page_cache.share(response, tag, public=found.club.visibility == Club.Visibility.PUBLIC)
    if not page_cache.not_modified(request, tag):
        return None
    unchanged = HttpResponse(status=304)
    for header in ("ETag", "Cache-Control", "Vary", "X-Ladder-Status"):
        unchanged[header] = response[header]
    cors.allow_club_sites(request, unchanged, found.club)
    return unchanged


def _shared_answer(request: HttpRequest) -> bool:
    """The same for every caller without a session (page_cache.may_use_cache, without its
    list of page queries: an API's query is part of the ETag, whatever it is), and without a
    token."""
    # A token's answers are its holder's: an unlisted club's data must not sit in a cache
    # that the next caller without the token reads from.
    return (
        settings.SESSION_COOKIE_NAME not in request.COOKIES
        and "HTTP_AUTHORIZATION" not in request.META
    )


def etag(request: HttpRequest, found: ApiVisit) -> str:
    """The answer's validator: weak (the same answer, not necessarily the same bytes)."""
    key = page_cache.page_key(
        found.club,
        path="api:" + page_cache.normal_path(request),
        language=translation.get_language(),
        page_open=found.page_open,
        today=timezone.localdate(),
        download=True,  # with the ladders' data versions: `current` is in the answer
    )
    return 'W/"' + key.removeprefix("page:")[:32] + '"'
