"""Sign-in throttling, as an authentication backend so the directors' login form and the
staff admin's login are throttled alike.

Each try is counted before the password is checked (clubs/accounts/throttle.py), so parallel tries
cannot all slip under a limit; a successful sign-in takes its try back, so every limit
counts failures only. A browser that signed in to this account before carries a signed
`signin_device` cookie and meets one limit only, its own count (LOGIN_FAILURE_LIMIT): what
strangers do, from any address, never locks it. Any other browser meets three:

- per network address (ADDRESS_RATE_LIMIT): one address failing on many accounts is
  slowed; twenty pupils signing in correctly behind one school address block nobody;
- per account and network address (LOGIN_FAILURE_LIMIT);
- per account (LOGIN_ACCOUNT_FAILURE_LIMIT, higher): tries spread over many addresses.

Over either per-account limit such a browser is not told to wait only: the sign-in page
mails the account a one-time sign-in link (clubs/accounts/views.py), so a crowd of
addresses can slow an account down but never lock its owner out.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from clubs.accounts.throttle import (
    address_limit_key,
    count_attempt,
    forget,
    key_hash,
    normalised_email,
    request_address,
    undo_attempt,
)

DEVICE_COOKIE = "signin_device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600
_DEVICE_SALT = "clubs.auth.device"  # as before the move: cookies already out stay valid


# Why a try was refused, read by the sign-in form and page (request.sign_in_refused).
REFUSED_ADDRESS = "address"
REFUSED_DEVICE = "account"  # a known browser over its own count: it waits the window out
REFUSED_NEW_BROWSER = "new-browser"  # over a per-account limit: a mailed link lets it in


@dataclass(frozen=True)
class SignInAttempt:
    browser_key: str
    # None for a known browser, which skips the address and account-wide counts
    address_key: str | None
    account_key: str | None


def _account_tag(account: str) -> str:
    return key_hash("device-account", account)[:32]


def new_device_cookie(username: str) -> str:
    """A signed token marking this browser as one that signed in to this account."""
    data = {"a": _account_tag(normalised_email(username)), "d": secrets.token_urlsafe(16)}
    return signing.dumps(data, salt=_DEVICE_SALT)


def known_device(request: HttpRequest | None, username: str) -> str | None:
    """This browser's own id when it signed in to this account before, else None."""
    raw = request.COOKIES.get(DEVICE_COOKIE) if request is not None else None
    if not raw:
        return None
    try:
        data = signing.loads(raw, salt=_DEVICE_SALT, max_age=DEVICE_COOKIE_AGE)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("a") != _account_tag(normalised_email(username)):
        return None
    return str(data.get("d"))


def _refuse(request: HttpRequest | None, reason: str) -> None:
    # The sign-in form reads this to say why; PermissionDenied stops any other backend.
    if request is not None:
        request.sign_in_refused = reason  # type: ignore[attr-defined]
    raise PermissionDenied("Too many sign-in attempts.")


def _over(key: str, window_seconds: int, limit: int) -> bool:
    return count_attempt(key, window_seconds) > limit


def start_sign_in(request: HttpRequest | None, username: str) -> SignInAttempt:
    """Count this try against every limit before the password is checked, or refuse it."""
    username = normalised_email(username)
    lockout = settings.LOGIN_LOCKOUT_SECONDS
    device = known_device(request, username)
    if device is not None:
        browser_key = key_hash("sign-in", username, "device", device)
        if _over(browser_key, lockout, settings.LOGIN_FAILURE_LIMIT):
            _refuse(request, REFUSED_DEVICE)
        return SignInAttempt(browser_key, None, None)
    address = request_address(request)
    address_key = address_limit_key("sign-in", address)
    if _over(address_key, settings.ADDRESS_RATE_WINDOW_SECONDS, settings.ADDRESS_RATE_LIMIT):
        _refuse(request, REFUSED_ADDRESS)
    browser_key = key_hash("sign-in", username, "address", address)
    account_key = key_hash("sign-in-account", username)
    # `or`: an address already over its own count adds nothing to the account-wide one.
    if _over(browser_key, lockout, settings.LOGIN_FAILURE_LIMIT) or _over(
        account_key, lockout, settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    ):
        _refuse(request, REFUSED_NEW_BROWSER)
    return SignInAttempt(browser_key, address_key, account_key)


def signed_in(attempt: SignInAttempt) -> None:
    """The right password: forget this browser's failures and take the try back from the
    address and account counts, which therefore hold failures only."""
    forget(attempt.browser_key)
    for key in (attempt.address_key, attempt.account_key):
        if key is not None:
            undo_attempt(key)


def remember_device(response: HttpResponse, username: str) -> None:
    response.set_cookie(
        DEVICE_COOKIE,
        new_device_cookie(username),
        max_age=DEVICE_COOKIE_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


class ThrottledModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None or password is None:
            return None
        attempt = start_sign_in(request, username)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            signed_in(attempt)
        return user
