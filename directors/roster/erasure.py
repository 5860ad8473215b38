"""Removing a player's personal data while keeping the ladder consistent."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from clubs import audit
from clubs.models import AuditEntry, Entry, Player, PlayerAlias, User
from ladder.changes import OnPages, club_changed
from matching.normalize import parse_name


def placeholder_name(player_id: int) -> str:
    return f"Erased player {player_id}"


@transaction.atomic
def erase_player(player: Player, user: User | None) -> None:
    """Replace the name and every spelling of it with a neutral placeholder, everywhere.

    Results stay, so the ladder and other players' records are unchanged; a
    record merged into this one is the same person and is erased too.
    """
    people = [player, *Player.objects.filter(merged_into=player)]
    names = set()
    for person in people:
        names.add(person.name)
        names.update(person.aliases.values_list("name", flat=True))
        names.update(Entry.objects.filter(player=person).values_list("typed_name", flat=True))
    for person in people:
        PlayerAlias.objects.filter(player=person).delete()
        placeholder = placeholder_name(person.pk)
        Entry.objects.filter(player=person).update(typed_name=placeholder)
        Player.objects.filter(pk=person.pk).update(name=placeholder, name_key="")
    # A draft's names are not linked yet: one spelt like the erased player would otherwise
    # be offered as "a new player named …" and published again.
    unlinked = _unlinked_spellings(player.club_id, names)
    names.update(unlinked.values())
    Entry.objects.filter(pk__in=unlinked).update(typed_name=placeholder_name(player.pk))
    # The audit log may quote a name in its details: scrub those quotes too.
    for entry in AuditEntry.objects.filter(club=player.club_id):
        details = _scrub(entry.details, names, placeholder_name(player.pk))
        if details != entry.details:
            AuditEntry.objects.filter(pk=entry.pk).update(details=details)
    audit.record(player.club_id, user, "player.erased", player_id=player.pk)
    club_changed(player.club_id, OnPages())


def _unlinked_spellings(club_id: int, names: set[str]) -> dict[int, str]:
    """Entries of the club linked to no player whose typed name is one of `names`, as
    written or with the same words in any order and case ("Bos, Henk", "henk bos"): their
    ids and typed names."""
    # A name of no letters (a dash, say) has no words and must match nothing.
    spellings = {_words(name) for name in names} - {()}
    found = {}
    entries = Entry.objects.filter(event__club_id=club_id, player__isnull=True)
    for entry_id, typed in entries.values_list("id", "typed_name"):
        if typed in names or _words(typed) in spellings:
            found[entry_id] = typed
    return found


def _words(name: str) -> tuple[str, ...]:
    return tuple(sorted(parse_name(name).written))


def _scrub(value: Any, names: set[str], placeholder: str) -> Any:
    if isinstance(value, str):
        for name in sorted(names, key=len, reverse=True):
            if name:
                value = value.replace(name, placeholder)
        return value
    if isinstance(value, list):
        return [_scrub(v, names, placeholder) for v in value]
    if isinstance(value, dict):
        return {k: _scrub(v, names, placeholder) for k, v in value.items()}
    return value
