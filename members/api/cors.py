"""Cross-site reads of the API by the club's own website (issue 37): a browser script on a
site the club lists (Club.embed_origins) may read that club's answers; any other site's
script may not (the browser withholds the answer), and a program outside a browser reads
as before, since CORS binds browsers only.

Only simple reads are asked for (GET without headers of the script's own), so there is no
preflight to answer; no cookies either (no Allow-Credentials): a script on the club's site
reads what any visitor without a session reads.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from clubs.embed_origins import allowed_origin
from clubs.models import Club

# What a script may read of the answer beyond the simple headers: the validator to ask
# again with, and whether the numbers are current.
EXPOSED_HEADERS = "ETag, X-Ladder-Status"


def allow_club_sites(request: HttpRequest, response: HttpResponse, club: Club) -> None:
    """Allow the request's Origin to read `response` when the club lists it."""
    if not club.embed_origins:
        return  # the same answer whatever the Origin: nothing to vary on
    # A shared cache must keep one answer per Origin: the header differs between them.
    patch_vary_headers(response, ("Origin",))
    origin = allowed_origin(request.headers.get("Origin"), club.embed_origins)
    if origin is not None:
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
