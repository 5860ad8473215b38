"""Sign-in throttling: after repeated failures an account is locked for a cool-off period.

An authentication backend, so the directors' login form and the staff admin's
login are throttled alike.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone

from clubs.models import LoginThrottle


def account_hash(username: str) -> str:
    normalised = username.strip().lower().encode()
    return hmac.new(settings.SECRET_KEY.encode(), normalised, hashlib.sha256).hexdigest()


def locked_until(username: str) -> dt.datetime | None:
    row = LoginThrottle.objects.filter(
        account_hash=account_hash(username), locked_until__gt=timezone.now()
    ).first()
    return row.locked_until if row else None


def record_failure(username: str) -> None:
    now = timezone.now()
    with transaction.atomic():
        row, _created = LoginThrottle.objects.select_for_update().get_or_create(
            account_hash=account_hash(username)
        )
        if row.last_failure_at < now - dt.timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS):
            row.failures = 0  # old failures are forgiven
        row.failures += 1
        row.last_failure_at = now
        if row.failures >= settings.LOGIN_FAILURE_LIMIT:
            row.locked_until = now + dt.timedelta(seconds=settings.LOGIN_LOCKOUT_SECONDS)
            row.failures = 0
        row.save()


def clear_failures(username: str) -> None:
    LoginThrottle.objects.filter(account_hash=account_hash(username)).delete()


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
        if locked_until(username) is not None:
            # PermissionDenied stops Django from trying any other backend.
            raise PermissionDenied("This account is locked for a while after failed sign-ins.")
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_failure(username)
        else:
            clear_failures(username)
        return user
