"""Records that keep accounts safe: sign-in throttles and director invitations.

Part of the clubs app's models (clubs/models.py imports them so Django registers them);
kept apart because they are about accounts, not about chess.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class LoginThrottle(models.Model):
    """Attempts per key in a fixed window: sign-ins per account and browser (or network
    address), per account from unknown browsers, and requests per network address.

    Keyed by a keyed hash (clubs/throttle.py), so no address, e-mail or password is
    stored in plain text. Counted with one atomic upsert, so parallel tries cannot all
    slip under a limit.
    """

    key_hash = models.CharField(max_length=64, unique=True)
    attempts = models.PositiveIntegerField(default=0)
    window_start = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.key_hash[:8]}… ({self.attempts})"


class ClubInvitation(models.Model):
    """An owner's invitation to direct the club, sent as a signed link (clubs/invitations.py).

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

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.club}"
