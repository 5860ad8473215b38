"""Abuse limits: attempts counted per key in fixed windows, in the database.

In the database, not a per-process cache, so the three web workers share one count.
Each attempt is counted with one UPDATE (or, the key's first, an INSERT) and read back in
the same transaction, before the work it guards: the UPDATE holds the row until commit, so
parallel tries each get their own number and only as many as the limit get through. A
window starts with the first attempt and ends a fixed time later, whatever happens in it: a
busy school network is not locked for ever by a steady trickle, and an attacker cannot
extend a lock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Q, Value, When
from django.http import HttpRequest
from django.utils import timezone

from clubs.accounts.client_address import client_address
from clubs.models import LoginThrottle


def key_hash(*parts: str) -> str:
    """A keyed hash, so the table holds no e-mail or network address in plain text."""
    text = "\x1f".join(parts).encode()
    return hmac.new(settings.SECRET_KEY.encode(), text, hashlib.sha256).hexdigest()


def normalised_email(email: str) -> str:
    return email.strip().lower()


def count_attempt(key: str, window_seconds: int) -> int:
    """Count one attempt against `key`; the attempts in its current window, this one included."""
    now = timezone.now()
    over = Q(window_start__lt=now - dt.timedelta(seconds=window_seconds))
    counted = LoginThrottle.objects.filter(key_hash=key)
    with transaction.atomic():
        # One UPDATE: the row stays locked by it until commit, so a parallel try waits,
        # then counts on from this one's number (or starts the new window only once).
        bumped = counted.update(
            attempts=Case(When(over, then=Value(1)), default=F("attempts") + 1),
            window_start=Case(When(over, then=Value(now)), default=F("window_start")),
        )
        if not bumped:
            try:
                with transaction.atomic():
                    LoginThrottle.objects.create(key_hash=key, attempts=1, window_start=now)
                return 1
            except IntegrityError:  # a parallel first try made the row: count on it
                counted.update(attempts=F("attempts") + 1)
        return counted.values_list("attempts", flat=True).get()


def undo_attempt(key: str) -> None:
    """Take back one counted attempt (it turned out to be the rightful owner's)."""
    LoginThrottle.objects.filter(key_hash=key, attempts__gt=0).update(attempts=F("attempts") - 1)


def forget(key: str) -> None:
    LoginThrottle.objects.filter(key_hash=key).delete()


def request_address(request: HttpRequest | None) -> str:
    """The client's network address: REMOTE_ADDR, or behind our proxy X-Forwarded-For's
    right-most hop that is not one of our proxies (clubs/accounts/client_address.py)."""
    meta = request.META if request is not None else {}
    return client_address(
        meta.get("REMOTE_ADDR"),
        meta.get("HTTP_X_FORWARDED_FOR"),
        behind_proxy=settings.BEHIND_TLS_PROXY,
        trusted_proxies=settings.TRUSTED_PROXIES,
    )


def address_limit_key(action: str, address: str) -> str:
    return key_hash("address", action, address)


def address_allows(request: HttpRequest | None, action: str) -> bool:
    """Count one `action` request from this network address; False once over the limit.

    Each action ("sign-up", "password-reset", "club-create", "director-invite") has its own
    count, so a burst of sign-ups does not stop a new club from being made from the same
    office. Sign-in counts its own way, failures only (clubs/accounts/auth.py).
    """
    key = address_limit_key(action, request_address(request))
    attempts = count_attempt(key, settings.ADDRESS_RATE_WINDOW_SECONDS)
    return attempts <= settings.ADDRESS_RATE_LIMIT


def mail_allowed(email: str, kind: str) -> bool:
    """Count one mail of `kind` to this e-mail address; False once over ACCOUNT_MAIL_LIMIT."""
    key = key_hash("mail", kind, normalised_email(email))
    attempts = count_attempt(key, settings.ADDRESS_RATE_WINDOW_SECONDS)
    return attempts <= settings.ACCOUNT_MAIL_LIMIT
