"""Club pages kept whole for visitors who are not signed in: in each process, and with
Redis (REDIS_URL) also there, shared by every process and host (see SHARED_PREFIX).

Such a visitor's page is a function of the club's row (its settings and secret, and the
versions changes bump: pages_version for names, consent and the like), the built_version
of each of its ladders (each replay moves its ladder's), the page's language, its path and
query, whether the page is open, and today's date (the "active in the last 12 months"
filter). The key is made of exactly these, so nothing ever has to find and delete a stale
page: a change moves a version, the old pages are never asked for again and age out of
the cache.

A change to a ladder input (data_version) does not retire the HTML pages: until the replay
moves built_version they keep showing the last good numbers, as the spec allows, and gain
the "being recalculated" notice in the region members/web/status.html marks. Downloads say
whether the ladder is current in their content, so they are keyed on data_version too.

Pages are kept gzip-compressed (a tenth of their size) and sent as kept to every browser
that takes gzip: the 102 KB page of a player in 3,000 events travels as 9 KB. Nothing a
visitor can choose is echoed into a kept page (only ?active=1, fixed sort and kind words,
?after=<round number>, ?year=<year> and ?on=<date> are allowed), so the compression cannot
become an oracle for the club's secret in its links (BREACH).

Signed-in users (directors see full names and their own controls) and visitors with a
session or pending messages always get a freshly built page.

The page's HTTP validator is a hash of what it shows (its body and its own headers),
computed once when the page is kept, so a CDN in front of many web hosts (or a browser) can
ask "still this?" and get a 304 for the price of the club row and a cache look-up. It is
never made from the key: the versions in the key move with any activity in the club, and
an ETag that moved with them would tell anyone holding one event's link that the club is
playing tonight. A page byte for byte the same keeps its ETag across every version bump.
A host that does not keep the page builds it to answer. A public club's pages may be kept
by a shared cache for SHARED_MAX_AGE seconds; an unlisted club's pages (the secret is in
their links) and everything per-visitor only by the visitor's own browser, which must ask
again.
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import hashlib
import logging
import re
from collections.abc import Container
from pathlib import Path
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.core.cache import BaseCache, caches
from django.core.cache.backends.redis import RedisCache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from redis.exceptions import RedisError

from clubs.models import Club, Event, Ladder
from config import redis_client
from members.pages.list_options import DIRECTIONS, LADDER_COLUMNS, ROSTER_COLUMNS, parse_day

logger = logging.getLogger(__name__)

CACHE_ALIAS = "pages"
# "hit" or "miss" on every page that could be shared: for operators and the load bench.
STATUS_HEADER = "X-Page-Cache"
# Headers a club page sets itself; the middleware adds the rest to every response.
KEPT_HEADERS = ("Content-Type", "Content-Disposition", "X-Ladder-Status")
# How long a shared cache may serve a public club's page without asking: a result entered
# shows everywhere within a minute, and a busy page costs each host one request a minute.
SHARED_MAX_AGE = 60


class _Days(Container[str]):
    """The dates ?on= may ask for (members.pages.list_options.parse_day): digits and dashes of
    a real date, never a visitor's text, so as safe to keep as a year."""

    def __contains__(self, value: object) -> bool:
        try:
            return isinstance(value, str) and bool(parse_day(value))
        except ValueError:
            return False


# The queries a club page reads and the values it may keep a page for: ?active=1 on the
# ladder and its exports, ?on=<date> on the ladder and its exports, and the ladder's and
# roster's sort links (fixed words, see members.pages.list_options). A search (?q=) is never
# kept: it would echo a visitor's text into a compressed page; the roster it filters is kept
# per process, so it stays cheap. Any other
# query, or another value, gets a fresh page (which falls back to the default) rather than
# filling the cache with copies.
PAGE_QUERY_VALUES: dict[str, Container[str]] = {
    "active": frozenset({"1"}),
    "sort": frozenset({*LADDER_COLUMNS, *ROSTER_COLUMNS}),
    "dir": frozenset(DIRECTIONS),
    "kind": frozenset(Event.Kind.values),  # the events list's filter
    # The event page's standings after a round: a number of ours, never a visitor's text.
    "after": frozenset(str(n) for n in range(1, 100)),
    # One round of an event's rounds page, and a page of a large event's rows (issue 27).
    "round": frozenset(str(n) for n in range(1, 100)),
    "page": frozenset(str(n) for n in range(1, 100)),
    # A player's page of one year (members.web.views.player_page): a year, never a visitor's text.
    "year": frozenset(str(n) for n in range(1900, 2201)),
    # A club night's live page that reloads itself, as the visitor asked (members.web.live_views).
    "follow": frozenset({"1"}),
    # The first N rows of a ladder's embed (members.web.embed_views): a number of ours.
    "top": frozenset(str(n) for n in range(1, 201)),
    # The ladder as it stood at the end of a day (members.web.dated): a date, never a visitor's
    # text; each date is its own page, keyed and retired like today's.
    "on": _Days(),
}
ACCEPTS_GZIP = re.compile(r"\bgzip\b")

# The gzip-compressed page, its own headers and its ETag (made from both, uncompressed).
Kept = tuple[bytes, list[tuple[str, str]], str]


def may_use_cache(request: HttpRequest) -> bool:
    """A visitor with no session (so not signed in) and no message waiting to be shown."""
    return (
        request.method in ("GET", "HEAD")
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and CookieStorage.cookie_name not in request.COOKIES
        and all(
            name in PAGE_QUERY_VALUES and len(values) == 1 and values[0] in PAGE_QUERY_VALUES[name]
            for name, values in request.GET.lists()
        )
    )


def normal_path(request: HttpRequest) -> str:
    """The path with its (cacheable) query in one order, so ?dir=desc&sort=rating and
    ?sort=rating&dir=desc are one kept page."""
    query = urlencode(sorted(request.GET.items()))
    return f"{request.path}?{query}" if query else request.path


def page_key(
    club: Club, *, path: str, language: str, page_open: bool, today: dt.date, download: bool
) -> str:
    # Every ladder's versions: a page may show any of them (the front page the first, a
    # player's page each one they played on, an event page the one it fed). Read with the
    # club when the visit did (ClubQuerySet.with_ladders).
    if club.ladders_built is not None:
        ladders: tuple[object, ...] = (
            club.ladders_count,
            club.ladders_newest,
            club.ladders_data if download else None,
            club.ladders_built,
        )
    else:
        versions = Ladder.objects.for_club(club.pk).values_list("built_version", "data_version")
        ladders = (
            len(versions),
            max(Ladder.objects.for_club(club.pk).values_list("pk", flat=True), default=None),
            sum(data for _built, data in versions) if download else None,
            sum(built for built, _data in versions),
        )
    parts = (
        club.pk,
        club.secret,
        club.slug,
        club.name,
        club.visibility,
        club.name_display,
        club.language,
        club.season_start_month,  # which dates each season page covers
        ladders,
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


def etag(content: bytes, headers: list[tuple[str, str]]) -> str:
    """The validator of a page: a hash of its plain body and its own headers (a download's
    X-Ladder-Status among them), nothing else. Weak: the gzip-encoded and the plain body
    are the same page, not the same bytes."""
    digest = hashlib.sha256(repr(headers).encode())
    digest.update(content)
    return 'W/"' + digest.hexdigest()[:32] + '"'


def status_tag(tag: str, status: str) -> str:
    """The validator of a kept page (ETag `tag`) sent with the notice `status` put in: a hash
    of both, so that a visitor asking "still this?" while the ladder is being recalculated
    gets a 304 without the page being decompressed, filled in and hashed again."""
    digest = hashlib.sha256(f"{tag}\n{status}".encode())
    return 'W/"' + digest.hexdigest()[:32] + '"'


def asks_whether_it_exists(request: HttpRequest) -> bool:
    """`If-None-Match: *`: "any version you have". Answered from the page as built now, never
    from a kept copy, so a page that no longer exists (a deleted event) is a 404."""
    return "*" in parse_etags(request.META.get("HTTP_IF_NONE_MATCH", ""))


def not_modified(request: HttpRequest, tag: str) -> bool:
    """Whether the visitor's If-None-Match names `tag` (weak comparison, as RFC 9110 asks)."""
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return False
    tags = parse_etags(header)
    return "*" in tags or tag.removeprefix("W/") in {t.removeprefix("W/") for t in tags}


def share(response: HttpResponse, tag: str, *, public: bool) -> None:
    """Validator and cache rules of a page that is the same for every visitor without a
    session. The language cookie and a session change the page, hence Vary: Cookie."""
    response["ETag"] = tag
    if public:
        patch_cache_control(response, public=True, max_age=SHARED_MAX_AGE)
    else:
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie"))


def not_shared(response: HttpResponse) -> None:
    """One visitor's page: only their own browser keeps it, and it asks again first."""
    patch_cache_control(response, private=True, no_cache=True)


def shareable(request: HttpRequest, response: HttpResponse) -> bool:
    """A plain 200 page that is the same for every visitor without a session."""
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        # A page that asked for a CSRF token is one visitor's page.
        and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def cached_page(key: str) -> Kept | None:
    """The page kept under `key`: this process's copy, else the one another process or host
    kept in Redis (then copied here, as its key never names other content)."""
    local = caches[CACHE_ALIAS]
    kept: Kept | None = local.get(key)
    if kept is None:
        kept = _shared_get(key)
        if kept is not None:
            local.set(key, kept)
    return kept


def keep_page(key: str, request: HttpRequest, response: HttpResponse) -> Kept | None:
    """Keep a plain 200 page that is the same for every visitor without a session."""
    if not shareable(request, response) or len(response.content) > settings.PAGE_CACHE_MAX_BYTES:
        return None
    if caches[CACHE_ALIAS].default_timeout == 0:  # PAGE_CACHE_SECONDS=0: nothing is kept
        return None
    headers = own_headers(response)
    # Level 1: about a millisecond for the largest page, nearly the size of level 9.
    compressed = gzip.compress(response.content, compresslevel=1, mtime=0)
    kept = (compressed, headers, etag(response.content, headers))
    caches[CACHE_ALIAS].set(key, kept)
    _shared_set(key, kept)
    return kept


# With REDIS_URL, a kept page is also put in Redis, so a page rebuilt after a change is
# built once for every web process and host, not once in each (a deploy's web processes
# start with what the others kept, too). Each process keeps its own copy in front of Redis
# (the local cache above): a key names one content forever (it holds every version a change
# moves), so the copies can never disagree. Redis is never needed: when it fails (down,
# hung: each call waits REDIS_*_TIMEOUT_SECONDS at most) the failure is logged, this process
# leaves Redis alone for REDIS_RETRY_AFTER_SECONDS (the breaker the queue uses too), and
# pages are built per request and kept locally as without Redis. Keys are namespaced
# (SHARED_PREFIX) beside the queue's, and expire after PAGE_CACHE_SECONDS as local ones do.
SHARED_PREFIX = "clubpages"


def _shared_get(key: str) -> Kept | None:
    store = _shared_store()
    if store is None:
        return None
    try:
        kept: Kept | None = store.get(key)
    except RedisError as error:
        _shared_failed(error)
        return None
    return kept


def _shared_set(key: str, kept: Kept) -> None:
    store = _shared_store()
    if store is None:
        return
    try:
        store.set(key, kept)
    except RedisError as error:
        _shared_failed(error)


def _shared_store() -> BaseCache | None:
    """The Redis page cache of settings.REDIS_URL; None without Redis, or while the breaker
    says it failed moments ago."""
    url = settings.REDIS_URL
    if url is None or not redis_client.breaker.allows(url):
        return None
    timeout = caches[CACHE_ALIAS].default_timeout
    return _redis_cache(
        url, settings.REDIS_CONNECT_TIMEOUT_SECONDS, settings.REDIS_READ_TIMEOUT_SECONDS, timeout
    )


@functools.cache
def _redis_cache(url: str, connect: float, read: float, timeout: float | None) -> BaseCache:
    # One client (and connection pool) per process and settings, as redis_client keeps.
    params = {
        "TIMEOUT": timeout,
        "KEY_PREFIX": f"{SHARED_PREFIX}:{code_version()}",
        "OPTIONS": {"socket_connect_timeout": connect, "socket_timeout": read},
    }
    return RedisCache(url, params)


# What a page is made of besides the data its key names: code, templates, translations.
CODE_FOLDERS = (
    "billing",
    "clubs",
    "config",
    "directors",
    "ladder",
    "matching",
    "members",
    "templates",
    "locale",
)
CODE_SUFFIXES = (".py", ".html", ".txt", ".mo")


@functools.cache
def code_version() -> str:
    """A hash of this deploy's code, templates and translations (about 40 ms, once a
    process): in the shared keys, so that a deploy that changes how a page looks never
    serves pages an earlier version kept in Redis (each process's own cache starts empty
    anyway), and during a rolling deploy each version keeps its own pages."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in CODE_FOLDERS:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in CODE_SUFFIXES and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def forget_shared_pages() -> int:
    """Delete every page kept in Redis (tests, whose databases repeat ids and versions; an
    edit made straight in the database, see the runbook in docs/operations.md). The number
    deleted."""
    store = _shared_store()
    if store is None:
        return 0
    client = redis_client.connection(str(settings.REDIS_URL))
    keys = list(client.scan_iter(match=f"{SHARED_PREFIX}:*", count=1000))
    for start in range(0, len(keys), 1000):
        client.delete(*keys[start : start + 1000])
    _redis_cache.cache_clear()
    return len(keys)


def _shared_failed(error: Exception) -> None:
    url = settings.REDIS_URL
    assert url is not None  # only asked for with Redis configured
    redis_client.breaker.failed(url, settings.REDIS_RETRY_AFTER_SECONDS)
    logger.warning("Page cache in Redis unavailable (%s); pages are built here", error)


def own_headers(response: HttpResponse) -> list[tuple[str, str]]:
    return [(name, response[name]) for name in KEPT_HEADERS if response.has_header(name)]


def accepts_gzip(request: HttpRequest) -> bool:
    return bool(ACCEPTS_GZIP.search(request.META.get("HTTP_ACCEPT_ENCODING", "")))


def kept_response(request: HttpRequest, kept: Kept, status: str | None) -> tuple[HttpResponse, str]:
    """A kept page as this visitor takes it, and its ETag: gzip-encoded as kept, or
    decompressed, with the "being recalculated" `status` put in when the ladder is behind
    (then the tag is that of the page as sent)."""
    compressed, headers, tag = kept
    if status is None and accepts_gzip(request):
        response = HttpResponse(compressed)
        response["Content-Encoding"] = "gzip"
    else:
        content = gzip.decompress(compressed)
        if status:
            content = with_status(content, status)
            tag = status_tag(tag, status)
        response = HttpResponse(content)
    for name, value in headers:
        response[name] = value
    return response, tag
