"""Who a name typed at a club night is, so that a regular is never entered twice.

The check-in search, the late-arrival search, "add a newcomer" and the start_event
command all read a typed name the way the roster's name suggestions do
(directors.roster.merging.prepared_roster and matching.suggest_prepared, aliases included): a name
that is exactly one roster player or alias after normalisation is that player; a name
close to roster players shows them, and a new player is made only when the director
says, explicitly, that this is a new person.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Q

from clubs.models import Club, Player
from directors.roster.merging import prepared_roster
from matching import suggest_prepared

SHOWN = 5  # close players shown for one typed name


@dataclass(frozen=True)
class NameMatch:
    """What a typed name is on the roster: `exact` when it is one player (by a name or an
    alias, after normalisation), and the players whose names are close to it, best first."""

    exact: Player | None = None
    close: list[Player] = field(default_factory=list)


def match_name(club: Club, typed: str, *, limit: int = SHOWN) -> NameMatch:
    roster, owners = prepared_roster(club)
    ranked = suggest_prepared(typed, roster, limit=limit + 1)
    exact_id = next((owners[s.index] for s in ranked if s.preselect), None)
    ids = [owners[s.index] for s in ranked]
    found = Player.objects.filter(club=club).active().in_bulk(ids)
    return NameMatch(
        exact=found.get(exact_id) if exact_id is not None else None,
        close=[found[pk] for pk in ids if pk in found and pk != exact_id][:limit],
    )


def players_named(club: Club, names: Sequence[str]) -> tuple[list[Player], list[str]]:
    """The roster player each name is, read as the roster's suggestions read it (an alias
    counts); and the names that are no roster player or more than one. One player per
    name, in the names' order (a player named twice comes twice)."""
    roster, owners = prepared_roster(club)
    chosen_ids: list[int] = []
    problems: list[str] = []
    for name in names:
        exact = [owners[s.index] for s in suggest_prepared(name, roster, limit=3) if s.preselect]
        if len(exact) == 1:
            chosen_ids.append(exact[0])
        else:
            problems.append(name)
    found = Player.objects.filter(club=club).active().in_bulk(chosen_ids)
    return [found[pk] for pk in chosen_ids if pk in found], problems


def find_players(club: Club, query: str, *, limit: int) -> list[Player]:
    """Active roster players for a search at check-in or a late arrival: the one the query
    is exactly (a name or an alias), those whose name or an alias holds it, then those
    whose names are close to it (a typo, a nickname, the other order), at most `limit`."""
    query = query.strip()
    if not query:
        return []
    match = match_name(club, query)
    holding = list(
        Player.objects.filter(club=club)
        .active()
        .filter(Q(name__icontains=query) | Q(aliases__name__icontains=query))
        .distinct()
        .order_by("name")[:limit]
    )
    found: dict[int, Player] = {}
    for player in [*([match.exact] if match.exact else []), *holding, *match.close]:
        found.setdefault(player.pk, player)
    return list(found.values())[:limit]


@dataclass(frozen=True)
class NewcomerCheck:
    """What "add a newcomer" does with a typed name: tick the roster player it is
    (`existing`), show the close ones and wait for the director (`close`), or make a new
    player (neither)."""

    existing: Player | None = None
    close: list[Player] = field(default_factory=list)


def check_newcomer(club: Club, typed: str, *, new_person: bool) -> NewcomerCheck:
    """A typed name that is a roster player or alias is that player, whatever the director
    chose; a name close to players waits until the director says it is a new person."""
    match = match_name(club, typed)
    if match.exact is not None:
        return NewcomerCheck(existing=match.exact)
    if match.close and not new_person:
        return NewcomerCheck(close=match.close)
    return NewcomerCheck()
