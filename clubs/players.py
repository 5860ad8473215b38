"""A director's writes to one player's own details (the roster's player page).

Merges, undos and re-pointed entries are clubs/merging.py; erasure is clubs/erasure.py.
"""

from __future__ import annotations

from django.db import transaction

from clubs import audit
from clubs.models import Player, User
from ladder.changes import club_changed


def update_player_details(
    player: Player,
    *,
    junior: bool,
    full_name_consent: bool,
    start_rating: float | None,
    user: User | None,
) -> list[str]:
    """Record a player's junior flag, the family's consent and a starting estimate.

    Returns the names of the fields that changed. The junior flag (the junior K
    rule) and the starting estimate are ladder inputs and replay the ladder;
    consent only changes how the name is shown.
    """
    new = {"junior": junior, "full_name_consent": full_name_consent, "start_rating": start_rating}
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        changed = sorted(field for field, value in new.items() if getattr(locked, field) != value)
        if not changed:
            return []
        Player.objects.filter(pk=player.pk).update(**{f: new[f] for f in changed})
        audit.record(
            locked.club_id,
            user,
            "player.edited",
            player_id=player.pk,
            changed={f: [getattr(locked, f), new[f]] for f in changed},
        )
        inputs = bool({"junior", "start_rating"} & set(changed))
        # The junior flag and consent decide how the name is shown, at once, not
        # after the replay.
        shown = bool({"junior", "full_name_consent"} & set(changed))
        if inputs or shown:
            club_changed(locked.club_id, inputs=inputs, shown=shown)
    return changed
