"""A club's API tokens and the publish API's idempotency keys (issue 37, part 4).

Part of the clubs app's models, re-exported from clubs/models/__init__.py. A token is kept
only as the SHA-256 of its text: the text is shown once, when it is made, and a stolen
table opens nothing. A token belongs to one club and reads (scope "read") or publishes and
reads (scope "publish"); revoking keeps the row so the list can say who used what when.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone

from clubs.models.club import Club, User
from clubs.models.events import Event

# Every token starts with this, so a leaked one is easy to recognise in a log or a repository
# (secret scanners look for such prefixes).
TOKEN_PREFIX = "cpt_"
# How much of a token the list shows, to tell tokens apart: the prefix and 6 random characters.
SHOWN_CHARACTERS = len(TOKEN_PREFIX) + 6


def new_token_text() -> str:
    """A fresh token: 32 random bytes, URL-safe, after the prefix."""
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def token_hash(text: str) -> str:
    """What the table keeps of a token. A plain SHA-256 (no salt) is enough: the token is 256
    random bits, not a password, and one unsalted hash lets a request find its row by index."""
    return hashlib.sha256(text.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        READ = "read", "read"
        PUBLISH = "publish", "publish"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    scope = models.CharField(max_length=10, choices=Scope.choices)
    secret_hash = models.CharField(max_length=64, unique=True)
    shown_prefix = models.CharField(max_length=SHOWN_CHARACTERS)
    created_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        constraints: ClassVar = [
            # A name says which program holds the token, so two live ones may not share it;
            # a revoked token's name may be used again.
            models.UniqueConstraint(
                fields=["club", "name"],
                condition=Q(revoked_at__isnull=True),
                name="api_token_name_unique_while_active",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.scope})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def may_publish(self) -> bool:
        return self.scope == self.Scope.PUBLISH


class IdempotencyKey(models.Model):
    """One publish request's Idempotency-Key: a retry with the same key and the same body is
    answered with the first answer (and makes no second event); another body is refused."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    body_hash = models.CharField(max_length=64)
    event = models.ForeignKey(Event, null=True, on_delete=models.SET_NULL, related_name="+")
    answer = models.JSONField()
    status = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["club", "key"], name="idempotency_key_unique"),
        ]

    def __str__(self) -> str:
        return self.key
