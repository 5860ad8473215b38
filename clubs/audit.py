"""The club's audit log: call record() inside the transaction that makes the change."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from clubs.models import AuditEntry, Club, User

# Who made a change: a signed-in user, or None for a command. AnonymousUser is accepted (and
# logged as None) because the admin's requests are typed with it.
Actor = User | AnonymousUser | None


def record(club: Club | int, user: Actor, action: str, **details: object) -> AuditEntry:
    """Log one change by a director, staff member or command (user None).

    `details` must be JSON-serialisable ids and short values; never a player's
    personal data beyond the name the change concerns.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit.record() must run inside the change's transaction")
    club_id = club if isinstance(club, int) else club.pk
    actor = user if isinstance(user, User) and user.is_authenticated else None
    return AuditEntry.objects.create(club_id=club_id, user=actor, action=action, details=details)
