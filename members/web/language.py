"""The language of a club page: the visitor's own choice, then their browser, then the club's.

Django's LocaleMiddleware already picks the switcher's cookie or a supported
Accept-Language; it cannot know a club's default, so club pages call
use_club_language() once they have the club.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation


def accepted_languages(header: str) -> list[str]:
    """Language tags of an Accept-Language header, most preferred first; q=0 dropped."""
    weighted: list[tuple[float, int, str]] = []
    for position, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        tag = tag.strip()
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(weighted)]


def _supported(code: str) -> str | None:
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def visitor_language(request: HttpRequest) -> str | None:
    """The switcher's choice, else the first of the browser's languages that we offer."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen and (supported := _supported(chosen)):
        return supported
    for tag in accepted_languages(request.META.get("HTTP_ACCEPT_LANGUAGE", "")):
        if tag != "*" and (supported := _supported(tag)):
            return supported
    return None


def use_club_language(request: HttpRequest, club_language: str) -> None:
    """Show the page in the club's language unless the visitor has a language of their own."""
    if visitor_language(request) is None and _supported(club_language):
        translation.activate(club_language)
        request.LANGUAGE_CODE = translation.get_language()
