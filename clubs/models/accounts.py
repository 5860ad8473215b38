"""Records that keep accounts safe: sign-in throttles, one-time sign-in links and director
invitations.

Part of the clubs app's models (clubs/models/__init__.py imports them so Django registers them);
kept apart because they are about accounts, not about chess.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
import secrets
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models
from django.utils import timezone

if TYPE_CHECKING:
    from clubs.models import User

SIGN_IN_LINK_SECONDS = 30 * 60
_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]{1,64}")


class LoginThrottle(models.Model):
    """Attempts per key in a fixed window: sign-ins per account and browser (or network
    address), per account from unknown browsers, and requests per network address.

    Keyed by a keyed hash (clubs/accounts/throttle.py), so no address, e-mail or password is
    stored in plain text. Counted with one atomic upsert, so parallel tries cannot all
    slip under a limit.
    """

    key_hash = models.CharField(max_length=64, unique=True)
    attempts = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.key_hash[:8]}… ({self.attempts})"


class ClubInvitation(models.Model):
    """An owner's invitation to direct the club, sent as a signed link (accounts/invitations.py).

    Holds a keyed hash of the invited address, not the address itself: nobody but the
    mailbox's owner needs to read it, and the accepting account is matched against it.
    Used once: `accepted_at` is set in the transaction that creates the director role.
    """

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="invitations")
    email_hash = models.CharField(max_length=64)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    accepted_at = models.DateTimeField(null=True, blank=True)
    # Set when the owner withdraws it: its link then says so rather than work.
    revoked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.club}"


def _digest(verifier: str) -> str:
    # The verifier is 256 random bits, so a plain SHA-256 cannot be reversed by guessing.
    return hashlib.sha256(verifier.encode()).hexdigest()


class SignInLinkQuerySet(models.QuerySet["SignInLink"]):
    def issue(self, user: User) -> str:
        """A new one-time link token for `user`: "selector.verifier"; only the verifier's
        hash is stored, so a copy of the table signs nobody in."""
        self.filter(user=user).exclude(used_at=None).delete()
        self.filter(user=user, created_at__lt=_oldest_valid()).delete()
        selector, verifier = secrets.token_urlsafe(12), secrets.token_urlsafe(32)
        self.create(user=user, selector=selector, verifier_hash=_digest(verifier))
        return f"{selector}.{verifier}"

    def usable(self, token: str) -> SignInLink | None:
        """The unused, unexpired link this token opens, or None (forged, spent or too old)."""
        selector, _, verifier = token.partition(".")
        if not _TOKEN_PART.fullmatch(selector) or not _TOKEN_PART.fullmatch(verifier):
            return None  # nothing a link we sent could hold, such as a NUL, reaches a query
        link = (
            self.filter(selector=selector, used_at=None, created_at__gte=_oldest_valid())
            .select_related("user")
            .first()
        )
        if link is None or not hmac.compare_digest(link.verifier_hash, _digest(verifier)):
            return None
        return link if link.user.is_active else None

    def redeem(self, token: str) -> User | None:
        """Spend the link: its account, or None when it was not usable. One UPDATE marks
        it used, so the same link followed twice at once signs in only one browser."""
        link = self.usable(token)
        if link is None:
            return None
        spent = self.filter(pk=link.pk, used_at=None).update(used_at=timezone.now())
        return link.user if spent == 1 else None


def _oldest_valid() -> dt.datetime:
    return timezone.now() - dt.timedelta(seconds=SIGN_IN_LINK_SECONDS)


class SignInLink(models.Model):
    """A one-time sign-in link mailed when an account is over its failure limit and a browser
    it never used asks to sign in (clubs/accounts/auth.py). Valid SIGN_IN_LINK_SECONDS, once."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    selector = models.CharField(max_length=32, unique=True)
    verifier_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)
    used_at = models.DateTimeField(null=True, blank=True)

    objects = SignInLinkQuerySet.as_manager()

    def __str__(self) -> str:
        return f"sign-in link {self.pk}"
