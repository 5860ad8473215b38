"""Project middleware."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.utils.cache import patch_cache_control

from matching import clean_sent_text

if TYPE_CHECKING:
    from django.http.request import _ImmutableQueryDict  # what request.GET and POST are

logger = logging.getLogger(__name__)

# Pages that are one user's own: directors' screens (billing included), sign-in, sign-up,
# password reset and club creation. Prefixes, so a new screen under them is covered too.
PRIVATE_PREFIXES = ("/manage/", "/accounts/", "/clubs/new/")


View = Callable[[HttpRequest], HttpResponse]


def private_pages(get_response: View) -> View:
    """`Cache-Control: private, no-store` on every per-user page and on everything built
    for a signed-in user (a director sees full names on the club pages), so no shared
    cache or browser history keeps them."""

    def middleware(request: HttpRequest) -> HttpResponse:
        response = get_response(request)
        if request.path.startswith(PRIVATE_PREFIXES) or _signed_in(request):
            patch_cache_control(response, private=True, no_store=True)
        return response

    return middleware


def _signed_in(request: HttpRequest) -> bool:
    # Looked at only with a session cookie: reading request.user loads the session, which
    # would add "Vary: Cookie" to every anonymous visitor's page.
    if settings.SESSION_COOKIE_NAME not in request.COOKIES:
        return False
    user = getattr(request, "user", None)
    return user is not None and user.is_authenticated


class CleanInput:
    """Every text a visitor or a director sends, cleaned before any view reads it: the query
    of every request and the fields of every form post lose NUL, the other control
    characters (tab and line breaks stay, for textareas) and the characters that show
    nothing (zero-width, bidi marks, BOM): `matching.clean_sent_text`. PostgreSQL refuses a
    NUL in a query (a 500), and an invisible or bidi character would be stored in a name and
    shown, reversing or hiding text around it. A path holding one is the address of no page.

    Passwords are left as typed (compared, never shown or queried; Django's forms refuse a
    NUL in them), and so are posts to views exempt from CSRF (the Stripe webhook): they
    read the raw body, which reading the form here would consume. Uploaded files are the
    importers' to read (clubs/importers/base.py refuses NUL, cleans every field)."""

    def __init__(self, get_response: View) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if clean_sent_text(request.path) != request.path:
            raise Http404("no page lives at such an address")
        request.GET = _cleaned(request.GET)
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        # After CsrfViewMiddleware: a post it refused never gets here.
        if request.method == "POST" and not getattr(view, "csrf_exempt", False):
            request.POST = _cleaned(request.POST)


def _cleaned(data: _ImmutableQueryDict) -> _ImmutableQueryDict:
    """The same fields with their names and values cleaned; `data` itself when nothing
    needed it (nearly always)."""
    sent = [(key, value) for key, values in data.lists() for value in values]
    clean = [
        (clean_sent_text(key), value if _as_typed(key) else clean_sent_text(value))
        for key, value in sent
    ]
    if clean == sent:
        return data
    return QueryDict(urlencode(clean), encoding="utf-8")


def _as_typed(field: str) -> bool:
    return "password" in field


class RetryLostConnection:
    """A page asked for on a database connection that died since the last request (a
    PostgreSQL restart, a backend terminated, a proxy's idle timeout) is built again on a new
    connection instead of answering 500.

    CONN_HEALTH_CHECKS (settings) already tests a kept connection before a request's first
    query; this covers what slips past that test (the server going away between the test and
    the query). Retried once, and only when nothing can have been written: a GET or HEAD
    whose first query, a SELECT, failed on a connection kept from an earlier request. A
    request that had a query answered, or that met the error inside a transaction, is left
    to fail as before. Last in MIDDLEWARE, so every other middleware's process_view ran and
    the view is all that runs again.

    A request that cannot reach the database at all (PostgreSQL restarting: the connection
    is refused before any statement runs) waits for it, up to DATABASE_WAIT_SECONDS, and
    is then built; past that it gets a 503 with Retry-After. Nothing ran, so this holds for
    every method.
    """

    def __init__(self, get_response: View) -> None:
        self.get_response = get_response
        self._kept: dict[int, bool] = {}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Whether this request started on a connection kept from an earlier one: the other
        # middleware ahead of this one read nothing yet (sessions and users load lazily).
        self._kept[id(request)] = connection.connection is not None
        try:
            return self.get_response(request)
        finally:
            self._kept.pop(id(request), None)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        watch = _FirstStatement()
        try:
            with connection.execute_wrapper(watch):
                response: HttpResponse = view(request, *args, **kwargs)
                return response
        except (OperationalError, InterfaceError) as error:
            if watch.statements == 0 and not connection.in_atomic_block:
                # No statement ran: the database could not be reached at all, so nothing was
                # read or written, whatever the method.
                return self._when_the_database_is_back(request, view, args, kwargs, error)
            if (
                request.method not in ("GET", "HEAD")
                or not self._kept.get(id(request))
                or not watch.failed_reading
                or connection.in_atomic_block
            ):
                raise
            logger.warning(
                "The database connection was lost since the last request (%s); building %s "
                "again on a new one",
                type(error).__name__,
                request.path,
            )
            connection.close()
            retried: HttpResponse = view(request, *args, **kwargs)
            return retried

    def _when_the_database_is_back(
        self,
        request: HttpRequest,
        view: Callable[..., Any],
        args: Any,
        kwargs: Any,
        error: Exception,
    ) -> HttpResponse:
        """Wait for a database that is restarting (PostgreSQL takes a second or three), then
        build the page; if it is still away after DATABASE_WAIT_SECONDS, say so with a 503
        and Retry-After rather than a 500 that reads as a bug."""
        logger.warning(
            "The database could not be reached (%s); waiting up to %s s to build %s",
            type(error).__name__,
            DATABASE_WAIT_SECONDS,
            request.path,
        )
        deadline = time.monotonic() + DATABASE_WAIT_SECONDS
        pause = 0.1
        while True:
            connection.close()
            try:
                connection.ensure_connection()
                break
            except (OperationalError, InterfaceError):
                if time.monotonic() + pause > deadline:
                    return database_unavailable()
                time.sleep(pause)
                pause = min(pause * 2, 1.0)
        response: HttpResponse = view(request, *args, **kwargs)
        return response


# Long enough for a PostgreSQL restart or a fail-over's switch, short enough that a web
# worker is not held near gunicorn's 30 s timeout while the database is really down.
DATABASE_WAIT_SECONDS = 8.0


def database_unavailable() -> HttpResponse:
    """A plain page (no template: a template's context may read the database) that tells a
    visitor the site is briefly unavailable, and a client when to try again."""
    response = HttpResponse(
        "<!doctype html><title>Back in a moment</title><h1>Back in a moment</h1>"
        "<p>The club pages cannot reach their database just now (it is probably"
        " restarting). Nothing you sent was stored: please try again in a few seconds.</p>",
        status=503,
    )
    response["Retry-After"] = "5"
    patch_cache_control(response, no_store=True)
    return response


class _FirstStatement:
    """An execute wrapper noting whether the first statement a view ran was a read that
    failed: then nothing before it was answered, and it changed nothing."""

    def __init__(self) -> None:
        self.statements = 0
        self.failed_reading = False

    def __call__(self, execute: Callable[..., Any], sql: str, *rest: Any) -> Any:
        self.statements += 1
        first = self.statements == 1
        self.failed_reading = False  # a later statement ran: the view went on after a failure
        try:
            return execute(sql, *rest)
        except (OperationalError, InterfaceError):
            self.failed_reading = first and sql.lstrip().upper().startswith("SELECT")
            raise
