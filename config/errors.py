"""The site's 500 handler: a fault is a 500, but a database that is away is a 503.

A PostgreSQL restart or fail-over takes seconds. A request whose view meets it is waited for
by config.middleware.RetryLostConnection; what fails outside a view (a middleware reading the
session, the 404 page looking up its club) reaches this handler with the database error as
the exception being handled, and a visitor (or a monitor, or a crawler) is told to come back
in a few seconds rather than shown a fault that reads as a bug.
"""

from __future__ import annotations

import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.views import defaults


def server_error(request: HttpRequest) -> HttpResponse:
    if isinstance(sys.exc_info()[1], OperationalError | InterfaceError):
        return database_unavailable()
    return defaults.server_error(request)


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
