"""The 404 page, with a way back to the club whose page was not found.

A missing player or event of a club the visitor may see links to that club's front page;
for a club the visitor may not see, the page is the same as any other 404 (clubs.access
decides, so a 404 tells nobody more than before).
"""

from __future__ import annotations

import re

from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotFound, JsonResponse
from django.template import loader

from clubs.access import club_for_visitor

API_PATH = "/api/"

# /c/<slug>/… and /c/<slug>/s/<secret>/… (members.web.page_urls)
CLUB_PATH = re.compile(r"^/c/(?P<slug>[-a-zA-Z0-9_]+)/(?:s/(?P<secret>[-\w]+)/)?")


def club_home(request: HttpRequest) -> tuple[str, str] | None:
    """The front page and name of the club the missing page was under, if the visitor
    may see that club."""
    found = CLUB_PATH.match(request.path)
    if found is None:
        return None
    try:
        club = club_for_visitor(request, found["slug"], found["secret"])
    except Http404:
        return None
    secret = found["secret"]
    if secret is not None and secret != club.secret:
        secret = None  # a director under a wrong secret: the plain address works for them
    return (f"/c/{club.slug}/s/{secret}/" if secret else f"/c/{club.slug}/"), club.name


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith(API_PATH):
        # An address of the read API no operation holds (or one no page lives at: a control
        # character in it): the API's own 404 (members.api.routes), in JSON, never the page.
        return JsonResponse({"detail": "Not found."}, status=404)
    try:
        home = club_home(request)
    except DatabaseError:
        home = None  # the database is away (restarting): the 404 without the way back
    template = loader.get_template("404.html")
    return HttpResponseNotFound(template.render({"club_home": home}, request))
