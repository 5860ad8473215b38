"""The club's audit log: record() (call it inside the transaction that makes the change) and
ACTIONS here. Every writer records, the engine's admin too, so it sits with the data; the
log read as sentences is the directors' (directors/audit/).
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from clubs.models import AuditEntry, Club, User

# Who made a change: a signed-in user, or None for a command. AnonymousUser is accepted (and
# logged as None) because the admin's requests are typed with it.
Actor = User | AnonymousUser | None

# Every action the log knows, named one way: the thing changed, a dot, what happened to it
# (a past participle). A change made by staff in the admin carries by="staff" in its details
# rather than a name of its own. Renaming one means a data migration for the stored entries
# (see clubs/migrations/0011_audit_action_names.py).
ACTIONS = frozenset(
    {
        "club.created",
        "club_secret.rotated",
        "page_settings.changed",
        "rating_settings.changed",
        "director.invited",
        "invitation.revoked",
        "director.added",
        "director.removed",
        "event.created",
        "event.updated",
        "event.published",
        "event.unpublished",
        "event.deleted",
        "event.restored",
        "share_link.rotated",
        "results.saved",
        "names.decided",
        "entry.added",
        "entry.removed",
        "entry.repointed",
        "player.added",
        "roster.imported",
        "player.renamed",
        "player.edited",
        "player.deleted",
        "player.erased",
        "held_players.removed",
        "players.merged",
        "merge.undone",
        "duplicate.dismissed",
        "ladder.rebuilt",
        "club_night.started",
        "seed.moved",
        "entrant.withdrawn",
        "entrant.returned",
        "entrant.moved",
        "night_rules.changed",
        "bye.requested",
        "bye.cancelled",
        "bye_settings.changed",
        "round.paired",
        "round.unpaired",
        "board_result.entered",
        "board_report.received",
        "board_report.confirmed",
        "board_report.disputed",
        "tiebreak_order.changed",
        "embed_origins.changed",
        "never_pair.added",
        "never_pair.removed",
        "board.changed",
        "ladder.added",
        "ladder.renamed",
        "ladder_kind.moved",
        "series.created",
        "series.changed",
        "series.deleted",
        "schedule_entry.added",
        "schedule_entry.changed",
        "schedule_entry.deleted",
        "schedule_date.cancelled",
        "schedule_date.reinstated",
        "api_token.created",
        "api_token.revoked",
    }
)


def record(club: Club | int, user: Actor, action: str, **details: object) -> AuditEntry:
    """Log one change by a director, staff member or command (user None).

    `details` must be JSON-serialisable ids and short values; never a player's
    personal data beyond the name the change concerns.
    """
    if action not in ACTIONS:
        raise ValueError(f"unknown audit action {action!r}: add it to clubs.audit.ACTIONS")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit.record() must run inside the change's transaction")
    club_id = club if isinstance(club, int) else club.pk
    actor = user if isinstance(user, User) and user.is_authenticated else None
    return AuditEntry.objects.create(club_id=club_id, user=actor, action=action, details=details)
