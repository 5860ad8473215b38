"""Sign-in throttling, as an authentication backend so the directors' login form and the
staff admin's login are throttled alike.

Three counts, each taken before the password is checked (clubs/throttle.py), so parallel
tries cannot all slip under a limit:

- per network address, all sign-ins (ADDRESS_RATE_LIMIT): one address trying many
  accounts is slowed;
- per account and browser (LOGIN_FAILURE_LIMIT): a browser that signed in to this account
  before carries a signed cookie and has a count of its own; any other try counts against
  the account and its network address. A stranger's wrong passwords therefore never lock
  the director out of their own browser, and a school's pupils sharing one address do not
  lock each other out;
- per account from browsers it never signed in from (LOGIN_ACCOUNT_FAILURE_LIMIT, higher):
  the slow back-off against tries spread over many addresses. Known browsers skip it.

A successful sign-in clears its browser's count and takes back its try from the others.
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

from clubs.throttle import (
    address_allows,
    count_attempt,
    forget,
    key_hash,
    normalised_email,
    request_address,
    undo_attempt,
)

DEVICE_COOKIE = "signin_device"
DEVICE_COOKIE_AGE = 365 * 24 * 3600
_DEVICE_SALT = "clubs.auth.device"


@dataclass(frozen=True)
class SignInAttempt:
    browser_key: str
    account_key: str | None  # None for a known browser, which skips the account-wide count


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


def start_sign_in(request: HttpRequest | None, username: str) -> SignInAttempt:
    """Count this try against every limit before the password is checked, or refuse it."""
    if not address_allows(request, "sign-in"):
        _refuse(request, "address")
    username = normalised_email(username)
    device = known_device(request, username)
    where = ("device", device) if device else ("address", request_address(request))
    browser_key = key_hash("sign-in", username, *where)
    if count_attempt(browser_key, settings.LOGIN_LOCKOUT_SECONDS) > settings.LOGIN_FAILURE_LIMIT:
        _refuse(request, "account")
    account_key = None
    if device is None:
        account_key = key_hash("sign-in-account", username)
        attempts = count_attempt(account_key, settings.LOGIN_LOCKOUT_SECONDS)
        if attempts > settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
            _refuse(request, "account")
    return SignInAttempt(browser_key, account_key)


def signed_in(attempt: SignInAttempt) -> None:
    forget(attempt.browser_key)
    if attempt.account_key is not None:
        undo_attempt(attempt.account_key)


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
