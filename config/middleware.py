"""Project middleware."""

from __future__ import annotations

import logging
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
        if request.method not in ("GET", "HEAD") or not self._kept.get(id(request)):
            return None  # Django calls the view as usual
        watch = _FirstStatement()
        try:
            with connection.execute_wrapper(watch):
                response: HttpResponse = view(request, *args, **kwargs)
                return response
        except (OperationalError, InterfaceError) as error:
            if not watch.failed_reading or connection.in_atomic_block:
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
