"""Which name a page shows for a player: one rule for every page and export.

Pure Python: no Django imports. A club shows full names or initials; a junior
is shown by initials unless the family agreed to the full name; a director of
the club always sees full names. After that one rule, a second pass keeps two
players who would look the same apart ("J. B." and "J. B. (2)").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import NamedTuple, Protocol

INITIALS = "initials"  # Club.NameDisplay.INITIALS


class NamedPlayer(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def junior(self) -> bool: ...
    @property
    def full_name_consent(self) -> bool: ...


class NameSetting(Protocol):
    @property
    def name_display(self) -> str: ...


class NameFacts(NamedTuple):
    """The little a page needs to decide a player's shown name."""

    id: int
    name: str
    junior: bool
    full_name_consent: bool


def initials(name: str) -> str:
    """ "Jan Bakker" -> "J. B."; "Anna-Lena van Dijk" -> "A.-L. v. D."."""
    words = name.replace(",", " ").replace(".", " ").split()
    return " ".join("-".join(_initial(part) for part in word.split("-") if part) for word in words)


def _initial(part: str) -> str:
    # The first letter with any combining marks after it (Devanagari vowel signs, accents).
    letter = ""
    for char in part:
        if not letter:
            if char.isalnum():
                letter = char
        elif unicodedata.category(char).startswith("M"):
            letter += char
        else:
            break
    return f"{letter or part[0]}."


def shown_name(player: NamedPlayer, club: NameSetting, viewer_is_director: bool) -> str:
    """The name this viewer may see, before telling look-alikes apart."""
    if viewer_is_director:
        return player.name
    if club.name_display == INITIALS or (player.junior and not player.full_name_consent):
        return initials(player.name)
    return player.name


def shown_names(
    players: Iterable[NameFacts], club: NameSetting, viewer_is_director: bool
) -> dict[int, str]:
    """Every player's shown name, with " (2)", " (3)" … added where names coincide.

    Numbers go by player id, so a player keeps the same label on every page as
    long as the club's roster is the same; pass the club's whole roster.
    """
    shown: dict[int, str] = {}
    groups: dict[str, list[int]] = {}
    for player in players:
        name = shown_name(player, club, viewer_is_director)
        shown[player.id] = name
        groups.setdefault(name.casefold(), []).append(player.id)
    for ids in groups.values():
        if len(ids) > 1:
            for number, player_id in enumerate(sorted(ids)[1:], start=2):
                shown[player_id] = f"{shown[player_id]} ({number})"
    return shown
