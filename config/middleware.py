"""Project middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

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
