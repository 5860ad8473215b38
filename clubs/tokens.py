"""A club's API tokens (issue 37, part 4): made, revoked, and recognised on a request.

The directors' screens and the api_token command make and revoke them here; the read API
(members/api/) and the publish API (directors/api.py) recognise them with `bearer_token` and
`use_token`. A token's text is returned once by `create_token` and never stored (only its
SHA-256). Using a token counts it against API_TOKEN_RATE_LIMIT per minute in the sign-in
throttle's fixed windows, in the database, so every web worker shares one count.
"""

from __future__ import annotations

import datetime as dt
import hmac
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs import audit
from clubs.accounts.throttle import count_attempt, key_hash
from clubs.audit import Actor
from clubs.models import ApiToken, Club, LoginThrottle
from clubs.models.tokens import SHOWN_CHARACTERS, TOKEN_PREFIX, new_token_text, token_hash

RATE_WINDOW_SECONDS = 60
# last_used_at is written at most this often per token: a busy script must not turn every
# read into a write of its own.
LAST_USED_PRECISION = dt.timedelta(minutes=1)
NAME_MAX_LENGTH = ApiToken._meta.get_field("name").max_length or 60


class TokenRefused(Exception):
    """A token cannot be made or revoked as asked; the message says why, for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Throttled(Exception):
    """The token is over its requests for this minute: 429, try again after `retry_after`."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    text: str  # shown once, never stored


def create_token(club: Club, name: str, scope: str, user: Actor) -> NewToken:
    name = " ".join(name.split())
    if not name:
        raise TokenRefused(_("Give the token a name (the program or person who will use it)."))
    if len(name) > NAME_MAX_LENGTH:
        raise TokenRefused(
            _("A token's name can have at most %(max)s characters.") % {"max": NAME_MAX_LENGTH}
        )
    if scope not in ApiToken.Scope.values:
        raise TokenRefused(_("A token's scope is read or publish."))
    text = new_token_text()
    try:
        with transaction.atomic():
            token = ApiToken.objects.create(
                club=club,
                name=name,
                scope=scope,
                secret_hash=token_hash(text),
                shown_prefix=text[:SHOWN_CHARACTERS],
                created_by=user if user is not None and user.is_authenticated else None,
            )
            audit.record(club, user, "api_token.created", name=name, scope=scope)
    except IntegrityError:
        message = _("The club already has a token named “%(name)s”.") % {"name": name}
        raise TokenRefused(message) from None
    return NewToken(token, text)


def revoke_token(club: Club, name: str, user: Actor) -> ApiToken:
    with transaction.atomic():
        token = ApiToken.objects.active().select_for_update().filter(club=club, name=name).first()
        if token is None:
            raise TokenRefused(_("The club has no token named “%(name)s” in use.") % {"name": name})
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit.record(club, user, "api_token.revoked", name=token.name, scope=token.scope)
    return token


def bearer_token(request: HttpRequest) -> str | None:
    """The token text of an `Authorization: Bearer …` header; None without one."""
    header = str(request.META.get("HTTP_AUTHORIZATION", ""))
    kind, _space, text = header.partition(" ")
    if kind.lower() != "bearer":
        return None
    return text.strip()


def find_token(text: str) -> ApiToken | None:
    """The live token with this text, its club read with it; None for a forged, malformed or
    revoked one (all alike to the caller)."""
    if not text.startswith(TOKEN_PREFIX) or len(text) > 200:
        return None
    wanted = token_hash(text)
    token = ApiToken.objects.active().filter(secret_hash=wanted).select_related("club").first()
    # The index found the row by its hash; comparing again in constant time costs nothing and
    # keeps the check independent of how the database compares strings.
    if token is None or not hmac.compare_digest(token.secret_hash, wanted):
        return None
    return token


def use_token(token: ApiToken) -> None:
    """Count one request against the token (Throttled past the limit) and note when it was
    last used (at most once a minute)."""
    key = key_hash("api-token", str(token.pk))
    if count_attempt(key, RATE_WINDOW_SECONDS) > settings.API_TOKEN_RATE_LIMIT:
        raise Throttled(_seconds_left(key))
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now


def _seconds_left(key: str) -> int:
    started = LoginThrottle.objects.filter(key_hash=key).values_list("window_start", flat=True)
    start = started.first()
    if start is None:
        return RATE_WINDOW_SECONDS
    left = start + dt.timedelta(seconds=RATE_WINDOW_SECONDS) - timezone.now()
    return max(1, int(left.total_seconds() + 0.999))
