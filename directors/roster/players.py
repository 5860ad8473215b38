"""A director's writes to one player: adding, renaming, deleting, and their own details.

Merges, undos and re-pointed entries are merging.py beside it; erasure is erasure.py.
Each write runs in one transaction with its audit entry and `club_changed`; a refused
one raises RosterChangeError with a message for the director.
"""

from __future__ import annotations

from collections.abc import Collection

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.models import Club, Ladder, Merge, Player, PlayerAlias, User
from directors.edits import max_length
from directors.roster.erasure import placeholder_name
from directors.roster.merging import RosterChangeError
from ladder.changes import Both, LadderInput, OnPages, club_changed, combined
from ladder.roster.ladders import has_start, set_start, starts_of
from matching import clean_name, first_last, name_key

MAX_NAME_LENGTH = max_length(Player, "name")
MAX_BULK_RENAMES = 1000


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
        # The estimate is the club's first ladder's (the roster screen sets that one).
        first = Ladder.objects.first_of(locked.club_id)
        assert first is not None  # every club has a first ladder
        old = {
            "junior": locked.junior,
            "full_name_consent": locked.full_name_consent,
            "start_rating": starts_of(first.pk, [locked.pk])[locked.pk][0],
        }
        changed = sorted(field for field, value in new.items() if old[field] != value)
        if not changed:
            return []
        columns = {f: new[f] for f in changed if f != "start_rating"}
        if columns:
            Player.objects.filter(pk=player.pk).update(**columns)
        if "start_rating" in changed:
            set_start(first.pk, locked.pk, start_rating)
        audit.record(
            locked.club_id,
            user,
            "player.edited",
            player_id=player.pk,
            changed={f: [old[f], new[f]] for f in changed},
        )
        inputs = bool({"junior", "start_rating"} & set(changed))
        # The junior flag and consent decide how the name is shown, at once, not
        # after the replay.
        shown = bool({"junior", "full_name_consent"} & set(changed))
        change = combined(LadderInput() if inputs else None, OnPages() if shown else None)
        if change is not None:
            club_changed(locked.club_id, change)
    return changed


def add_player(
    club: Club,
    name: str,
    *,
    junior: bool,
    start_rating: float | None,
    user: User | None,
    held: bool = False,
) -> Player:
    """A new player on the roster, before any event: a member who has not played yet.

    `held` (a club night's newcomer, met in a draft): on no club page until an event of
    theirs is published or a director adds them on the roster screen (`release_player`)."""
    name = _checked_name(name)
    with transaction.atomic():
        player = Player.objects.create(
            club=club,
            name=name,
            name_key=name_key(name),
            junior=junior,
            held=held,
        )
        if start_rating is not None:
            first = Ladder.objects.first_of(club)
            assert first is not None  # every club has a first ladder
            set_start(first.pk, player.pk, start_rating)
        details = {"held": True} if held else {}
        audit.record(club, user, "player.added", player_id=player.pk, name=name, **details)
        # A starting estimate is a ladder input (the replay writes the player's rating from
        # it); without one there is nothing to rate until the first event. A held player
        # changes no page.
        change = combined(
            LadderInput() if start_rating is not None else None, None if held else OnPages()
        )
        if change is not None:
            club_changed(club.pk, change)
    return player


def release_player(player: Player, user: User | None) -> bool:
    """A director adds a held player to the club's pages now, before any event of theirs is
    published. Returns False when the player was not held."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if not locked.held:
            return False
        Player.objects.filter(pk=locked.pk).update(held=False)
        audit.record(locked.club_id, user, "player.added", player_id=locked.pk, name=locked.name)
        club_changed(locked.club_id, OnPages())
    return True


def rename_player(player: Player, name: str, user: User | None) -> bool:
    """Give a player a new spelling; the old one becomes an alias, so a file that still
    writes it finds this player. Returns False when the name is already this one."""
    name = _checked_name(name)
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        renamed = _rename(locked, name, user)
        if renamed:
            club_changed(locked.club_id, OnPages())
    return renamed


def rename_first_last(club: Club, player_ids: Collection[int], user: User | None) -> int:
    """Rename each of these active players written "Last,First" to "First Last"; the
    names are worked out here, never taken from the request. Returns how many changed."""
    ids = list(player_ids)[:MAX_BULK_RENAMES]
    with transaction.atomic():
        players = club.players.active().filter(pk__in=ids).select_for_update().order_by("pk")
        renamed = 0
        for player in players:
            offer = first_last(player.name)
            if offer is not None and len(offer) <= MAX_NAME_LENGTH:
                renamed += _rename(player, offer, user)
        if renamed:
            club_changed(club.pk, OnPages())
    return renamed


def delete_player(player: Player, user: User | None) -> None:
    """Remove a player who has no entries (one left empty by a re-point, say) and was in
    no merge; anyone with a result stays, so the ladder's history stays whole."""
    with transaction.atomic():
        locked = Player.objects.select_for_update().get(pk=player.pk)
        events = locked.entries.values("event").distinct().count()
        if events:
            raise RosterChangeError(
                ngettext(
                    "%(name)s is entered in %(count)d event, so the player stays. Re-point "
                    "that entry or merge the player into another one instead.",
                    "%(name)s is entered in %(count)d events, so the player stays. Re-point "
                    "those entries or merge the player into another one instead.",
                    events,
                )
                % {"name": locked.name, "count": events}
            )
        if Merge.objects.filter(Q(kept=locked) | Q(merged=locked)).exists():
            raise RosterChangeError(
                _(
                    "%(name)s is part of a merge, which keeps the player for its undo. "
                    "See the merges page."
                )
                % {"name": locked.name}
            )
        # A starting state puts the player on the ladder without a game: a ladder input.
        inputs = has_start(locked.pk)
        audit.record(locked.club_id, user, "player.deleted", player_id=locked.pk, name=locked.name)
        locked.delete()
        club_changed(locked.club_id, Both(LadderInput(), OnPages()) if inputs else OnPages())


def _rename(locked: Player, name: str, user: User | None) -> bool:
    """Rename a player locked by the caller, who calls `club_changed` once for all."""
    if locked.merged_into_id is not None:
        raise RosterChangeError(_("This player is merged into another one: rename that one."))
    old = locked.name
    if name == old:
        return False
    Player.objects.filter(pk=locked.pk).update(name=name, name_key=name_key(name))
    aliases = list(locked.aliases.all())
    # The new spelling is the name now, not also an alias.
    PlayerAlias.objects.filter(pk__in=[a.pk for a in aliases if _same(a.name, name)]).delete()
    # An erased player's placeholder is no spelling anyone types; a change of capitals
    # only is one the matching already ignores.
    keep_old = old != placeholder_name(locked.pk) and not _same(old, name)
    if keep_old and not any(_same(a.name, old) for a in aliases):
        PlayerAlias.objects.create(player=locked, name=old, name_key=name_key(old))
    audit.record(locked.club_id, user, "player.renamed", player_id=locked.pk, old=old, new=name)
    locked.name = name
    return True


def _checked_name(name: str) -> str:
    name = clean_name(name)
    if not name:
        raise RosterChangeError(_("Give the player's name."))
    if len(name) > MAX_NAME_LENGTH:
        raise RosterChangeError(_("The name is too long."))
    return name


def _same(one: str, other: str) -> bool:
    return one.casefold() == other.casefold()
