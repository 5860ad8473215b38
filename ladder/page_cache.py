"""Club pages kept whole, per process, for visitors who are not signed in.

Such a visitor's page is a function of the club's row (its settings and secret, and the
versions changes bump: built_version for each replay, pages_version for names, consent and
the like), the page's language, its path and query, whether the page is open, and today's
date (the "active in the last 12 months" filter). The key is made of exactly these, so
nothing ever has to find and delete a stale page: a change moves a version, the old pages
are never asked for again and age out of the cache.

A change to a ladder input (data_version) does not retire the HTML pages: until the replay
moves built_version they keep showing the last good numbers, as the spec allows, and gain
the "being recalculated" notice in the region ladder/status.html marks. Downloads say
whether the ladder is current in their content, so they are keyed on data_version too.

Pages are kept gzip-compressed (a tenth of their size) and sent as kept to every browser
that takes gzip: a 570 KB player page travels as 60 KB. Nothing a visitor can choose is
echoed into a kept page (only ?active=1 is allowed), so the compression cannot become an
oracle for the club's secret in its links (BREACH).

Signed-in users (directors see full names and their own controls) and visitors with a
session or pending messages always get a freshly built page.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import re

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse

from clubs.models import Club

CACHE_ALIAS = "pages"
# "hit" or "miss" on every page that could be shared: for operators and the load bench.
STATUS_HEADER = "X-Page-Cache"
# Headers a club page sets itself; the middleware adds the rest to every response.
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "X-Ladder-Status")


# The only query a club page reads (?active=1 on the ladder and its exports). Any other
# would only fill the cache with copies, or echo a visitor's text into a compressed page.
PAGE_QUERIES: tuple[dict[str, list[str]], ...] = ({}, {"active": ["1"]})
ACCEPTS_GZIP = re.compile(r"\bgzip\b")

Kept = tuple[bytes, list[tuple[str, str]]]  # the gzip-compressed page and its own headers


def may_use_cache(request: HttpRequest) -> bool:
    """A visitor with no session (so not signed in) and no message waiting to be shown."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
        and dict(request.GET.lists()) in PAGE_QUERIES
    )


def page_key(
    club: Club, *, path: str, language: str, page_open: bool, today: dt.date, download: bool
) -> str:
    parts = (
        club.pk,
        club.secret,
        club.slug,
        club.name,
        club.visibility,
        club.name_display,
        club.language,
        club.data_version if download else None,
        club.built_version,
        club.pages_version,
        language,
        page_open,
        today.isoformat(),
        path,
    )
    # Hashed: the secret must not sit in the cache in clear, and keys stay short.
    return "page:" + hashlib.sha256(repr(parts).encode()).hexdigest()


EMPTY_STATUS = b"<!--ladder-status--><!--/ladder-status-->"


def with_status(content: bytes, status: str) -> bytes:
    """A page kept while the ladder was current, with the notice it needs now."""
    return content.replace(EMPTY_STATUS, status.strip().encode(), 1)


def cached_page(key: str) -> Kept | None:
    kept: Kept | None = caches[CACHE_ALIAS].get(key)
    return kept


def keep_page(key: str, request: HttpRequest, response: HttpResponse) -> Kept | None:
    """Keep a plain 200 page that is the same for every visitor without a session."""
    if (
        response.status_code != 200
        or response.streaming
        or response.cookies
        # A page that asked for a CSRF token is one visitor's page.
        or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
        or len(response.content) > settings.PAGE_CACHE_MAX_BYTES
    ):
        return None
    headers = [(name, response[name]) for name in KEPT_HEADERS if response.has_header(name)]
    # Level 1: about a millisecond for the largest page, nearly the size of level 9.
    kept = (gzip.compress(response.content, compresslevel=1, mtime=0), headers)
    caches[CACHE_ALIAS].set(key, kept)
    return kept


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def kept_response(request: HttpRequest, kept: Kept, status: str | None) -> HttpResponse:
    """A kept page as this visitor takes it: gzip-encoded as kept, or decompressed, with the
    "being recalculated" `status` put in when the ladder is behind."""
    compressed, headers = kept
    if status is None and accepts_gzip(request):
        response = HttpResponse(compressed)
        response["Content-Encoding"] = "gzip"
    else:
        content = gzip.decompress(compressed)
        response = HttpResponse(with_status(content, status) if status else content)
    for name, value in headers:
        response[name] = value
    return response
