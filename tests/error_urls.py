"""The site's URLs plus a view that fails, for the 500 page's tests."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler404, handler500  # noqa: F401  (the site's own error pages)
from config.urls import urlpatterns as site_urlpatterns


def broken(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a fault the visitor must not see")


urlpatterns = [path("broken/", broken), *site_urlpatterns]
