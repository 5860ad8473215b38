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

from config.errors import database_unavailable
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
    importers' to read (directors/importers/base.py refuses NUL, cleans every field)."""

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
    """A page whose database went away under it (a PostgreSQL restart or fail-over, a backend
    terminated, a proxy's idle timeout) is built again once the database answers, instead of
    answering 500.

    CONN_HEALTH_CHECKS (settings) already tests a kept connection before a request's first
    query; this covers the rest, and only where building the page again cannot do anything
    twice:
    - no statement ran (the connection was refused, as while PostgreSQL restarts): nothing
      was read or written, whatever the method;
    - a GET or HEAD whose statements so far were all reads.
    The request waits for the database (up to DATABASE_WAIT_SECONDS) and the view runs once
    more on a new connection. A request that wrote, or that met the error inside a
    transaction, fails as before: the 500 handler (config.errors) answers a database error
    with a 503 and Retry-After. Last in MIDDLEWARE, so every other middleware's process_view
    ran and the view is all that runs again.
    """

    def __init__(self, get_response: View) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> HttpResponse | None:
        watch = _Statements()
        try:
            with connection.execute_wrapper(watch):
                response: HttpResponse = view(request, *args, **kwargs)
                return response
        except (OperationalError, InterfaceError) as error:
            read_only = request.method in ("GET", "HEAD") and not watch.wrote
            if connection.in_atomic_block or not (watch.statements == 0 or read_only):
                raise
            return self._when_the_database_is_back(request, view, args, kwargs, error)

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
            "The database connection was lost or refused (%s); building %s again once it "
            "answers (waiting up to %s s)",
            type(error).__name__,
            request.path,
            DATABASE_WAIT_SECONDS,
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


class _Statements:
    """An execute wrapper counting the statements a view ran and noting whether any of them
    could have written (anything but a SELECT)."""

    def __init__(self) -> None:
        self.statements = 0
        self.wrote = False

    def __call__(self, execute: Callable[..., Any], sql: str, *rest: Any) -> Any:
        self.statements += 1
        if not sql.lstrip().upper().startswith("SELECT"):
            self.wrote = True
        return execute(sql, *rest)
