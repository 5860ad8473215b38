"""The names of a roster file that are close to roster players, and what a director said of
each (pure: plain values in and out, no Django).

The roster import links nothing silently. A file's name that is not written exactly as a
roster player's but is close to some (the suggestions the names step and the club night's
newcomer check read: accents, capitals, a typo, a nickname, the other order, an old spelling
kept as an alias; a candidate only alike as text is weak, and starting_ladder asks about no
name with only weak ones) waits until the director says it is a new person or the same as
one of those players. A name that differs from a roster name (or alias) only by
accents, capitals or spacing is always among them, whatever the suggestions rank first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from matching import PreparedRoster, Reason, clean_name, is_weak, suggest_prepared
from matching.normalize import fold, plain

SHOWN = 5  # close players shown for one name, as at the club night
NEW_PERSON = "new"  # the choice "a new person"; any other choice is a roster player's id

Choice = int | str  # a player id, or NEW_PERSON


@dataclass(frozen=True)
class CloseCandidate:
    """A roster player a file's name may be."""

    player_id: int
    name: str  # the player's name on the roster
    matched: str  # the roster name or alias that matched
    reason: Reason
    same_name: bool  # the same name but for accents, capitals or spacing
    taken: bool = False  # another name of the file is this player already: not to be chosen

    @property
    def weak(self) -> bool:
        """Only alike as text: shown as weak, never as likely."""
        return is_weak(self.reason)


def folded(name: str) -> str:
    """A name without capitals, accents or extra spaces: "ZOË  van Dijk" -> "zoe van dijk"."""
    return " ".join(plain(fold(word)) for word in clean_name(name).split())


def folded_owners(roster: PreparedRoster, owners: Sequence[int]) -> dict[str, list[int]]:
    """Each folded roster name (names and aliases) and the players it belongs to."""
    found: dict[str, list[int]] = {}
    for name, owner in zip(roster.names, owners, strict=True):
        players = found.setdefault(folded(name), [])
        if owner not in players:
            players.append(owner)
    return found


def close_candidates(
    typed: str,
    roster: PreparedRoster,
    owners: Sequence[int],
    names: Mapping[int, str],
    *,
    same_folded: Mapping[str, Sequence[int]],
    taken: Collection[int] = (),
    limit: int = SHOWN,
) -> tuple[CloseCandidate, ...]:
    """The roster players `typed` may be: those the same but for accents, capitals and
    spacing first (every one of them, always), then the suggestions best first, at most
    `limit` in all. `names`: the active players' roster names by id (a suggestion of anyone
    else is left out). `taken`: the players other names of the file are already; one is
    shown (marked taken, not to be chosen) only when it is the same but for accents and
    capitals, so that such a name is never imported without a director's word."""
    key = folded(typed)
    always = [pk for pk in same_folded.get(key, ()) if pk in names]
    found: dict[int, CloseCandidate] = {
        pk: CloseCandidate(pk, names[pk], names[pk], Reason.SAME_NAME, True, pk in taken)
        for pk in always
    }
    for suggestion in suggest_prepared(typed, roster, limit=limit + len(taken) + len(always)):
        pk = owners[suggestion.index]
        if pk not in names or (pk in taken and pk not in found):
            continue
        matched = roster.names[suggestion.index]
        same = pk in found or folded(matched) == key
        candidate = CloseCandidate(pk, names[pk], matched, suggestion.reason, same, pk in taken)
        if pk in found or len(found) < limit:
            # For one already found, the suggestion's reason says more (accents, an alias).
            found[pk] = candidate
    return tuple(sorted(found.values(), key=lambda c: not c.same_name))


class ChoiceRefused(ValueError):
    """A posted choice the page did not offer (a forged form): nothing is stored."""


class ChosenTwice(ValueError):
    """Two names of the file said to be the same roster player."""

    def __init__(self, fields: tuple[str, str], player_id: int) -> None:
        super().__init__(fields, player_id)
        self.fields = fields
        self.player_id = player_id


def read_choices(
    posted: Mapping[str, str], offered: Mapping[str, Sequence[CloseCandidate]]
) -> dict[str, Choice]:
    """The choice posted in each of `offered`'s fields (field -> the candidates it offered):
    NEW_PERSON or an offered player's id; a field left empty is not in the answer. Raises
    ChoiceRefused for a value the field did not offer, ChosenTwice for one roster player
    chosen for two names."""
    chosen: dict[str, Choice] = {}
    by_player: dict[int, str] = {}
    for field, candidates in offered.items():
        value = posted.get(field, "").strip()
        if not value:
            continue
        if value == NEW_PERSON:
            chosen[field] = NEW_PERSON
            continue
        player_id = int(value) if value.isascii() and value.isdigit() else None
        offered_ids = {c.player_id for c in candidates if not c.taken}
        if player_id is None or player_id not in offered_ids:
            raise ChoiceRefused(field)
        if player_id in by_player:
            raise ChosenTwice((by_player[player_id], field), player_id)
        by_player[player_id] = field
        chosen[field] = player_id
    return chosen
