"""The club's roster, the start of every club page, and the ladder read from it.

The roster (one query) gives the shown names, which are decided over the whole roster so
look-alikes stay apart, and the ladder numbers. Built rosters are kept per process.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from clubs.models import Club, Ladder
from ladder.page_texts import half_up
from ladder.policies import get_policy
from ladder.roster.display import NameFacts, shown_names
from ladder.store import dated

ACTIVE_DAYS = 365
T = TypeVar("T")
# What a page built from a kept roster keeps with it (Roster.kept), the oldest dropped first:
# a table's row texts per language and club address (under 1 MB for 2,284 players), an order
# of its list (references only), ladder.json's players. Room for every language and address
# of both tables beside their orders, so a visitor's sort never drops the rows' texts.
KEPT_PER_ROSTER = 32


@dataclass(slots=True)
class RosterPlayer:
    id: int
    name: str  # the shown name
    rating: float | None
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    last_change: float | None

    @property
    def on_ladder(self) -> bool:
        return self.rated_games > 0 and self.rating is not None

    @property
    def rating_whole(self) -> int | None:
        return None if self.rating is None else half_up(self.rating)


@dataclass(frozen=True)
class Roster:
    players: list[RosterPlayer]  # in ladder order, players not on the ladder included
    names: dict[int, str]
    # The whole ladder's rows, made the first time they are asked for: a roster is kept per
    # process, and its ladder is every ladder page's and download's start (issue 34).
    _whole_ladder: list[LadderRow] = field(default_factory=list, compare=False, repr=False)
    _by_name: list[RosterPlayer] = field(default_factory=list, compare=False, repr=False)
    _kept: OrderedDict[Hashable, Any] = field(
        default_factory=OrderedDict, compare=False, repr=False
    )

    def kept(self, key: Hashable, build: Callable[[], T]) -> T:
        """What `build` makes of this roster, made once and kept with it (issue 34): the
        roster is kept on the versions of everything it shows (load_roster), so what is
        made of it alone is never stale either. `key` names what is made and all it depends
        on besides the roster (the language, the club's address, ...). The value is shared
        by every later caller: a caller must not change it."""
        with _rosters_lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]  # type: ignore[no-any-return]
        value = build()
        with _rosters_lock:
            self._kept[key] = value
            while len(self._kept) > KEPT_PER_ROSTER:
                self._kept.popitem(last=False)
        return value

    def keeper(self, *prefix: Hashable) -> Keeper:
        """kept() with `prefix` before every key: for a caller that knows one part of it."""
        return lambda key, build: self.kept((*prefix, key), build)

    def ladder(self, active_since: dt.date | None = None) -> list[LadderRow]:
        """Established players by rating, then provisional ones; no one without a rated game."""
        if active_since is None and self._whole_ladder:
            return list(self._whole_ladder)  # a copy: a caller may sort or cut its list
        if active_since is not None:
            # Kept too: the active ladder's rows are the ones its kept table rows are of.
            return list(
                self.kept(("active ladder", active_since), lambda: self._ladder(active_since))
            )
        return self._ladder(None)

    def _ladder(self, active_since: dt.date | None) -> list[LadderRow]:
        rows = [
            p
            for p in self.players
            if p.on_ladder
            and (active_since is None or (p.last_played and p.last_played >= active_since))
        ]
        ladder = [LadderRow(rank, p) for rank, p in enumerate(rows, start=1)]
        if active_since is None:
            self._whole_ladder[:] = ladder
        return ladder

    def ladder_on(
        self,
        club: Club,
        day: dt.date,
        active_since: dt.date | None = None,
        ladder: Ladder | None = None,
    ) -> list[LadderRow]:
        """`ladder` (the club's first if None) as it stood at the end of `day`
        (ladder.store.dated.ladder_on), for the players this roster holds (no held one) under
        its shown names, by ladder()'s rules."""
        players = [
            RosterPlayer(pid, self.names[pid], *summary)
            for pid, summary in dated.ladder_on(club, day, ladder)
            if pid in self.names
        ]
        return Roster(players, self.names).ladder(active_since)

    def by_name(self) -> list[RosterPlayer]:
        if not self._by_name and self.players:
            self._by_name[:] = sorted(self.players, key=lambda p: (p.name.casefold(), p.id))
        return list(self._by_name)  # a copy, as ladder()'s

    def rank_of(self, player_id: int) -> int | None:
        for row in self.ladder():
            if row.player.id == player_id:
                return row.rank
        return None

    def get(self, player_id: int) -> RosterPlayer | None:
        return next((p for p in self.players if p.id == player_id), None)


@dataclass(frozen=True)
class LadderRow:
    rank: int
    player: RosterPlayer


# Roster.keeper's: kept(key, build) with a part of the key already given.
Keeper = Callable[[Hashable, Callable[[], Any]], Any]


def provisional_below(club: Club, ladder: Ladder | None = None) -> int | None:
    """Rated games a player needs to be established under the ladder's policy (the club's
    first ladder by default); None when the policy has no provisional period (hsb) or its
    settings do not parse (the replay says so to the directors; the page then leaves the
    count out)."""
    ladder = ladder or club.first_ladder()
    try:
        settings = get_policy(ladder.rating_policy).parse_settings(ladder.rating_settings)
    except (KeyError, ValueError):
        return None
    below = getattr(settings, "provisional_below", None)
    return below if isinstance(below, int) else None


def active_since(today: dt.date) -> dt.date:
    return today - dt.timedelta(days=ACTIVE_DAYS)


# Rosters this process built lately, by everything a roster depends on: any change to a
# name, a rating or who is on the roster bumps one of the club's versions, so an entry
# is never stale, only unused. Every page of a club starts from its roster, and a page not
# in the page cache (a player's, say) then costs a third less.
_ROSTERS_KEPT = 64
_rosters: OrderedDict[tuple[Any, ...], Roster] = OrderedDict()
_rosters_lock = threading.Lock()


def load_roster(club: Club, viewer_is_director: bool, ladder: Ladder | None = None) -> Roster:
    """The club's players with their standing on `ladder` (the club's first by default)."""
    ladder = ladder or club.first_ladder()
    key = (
        club.pk,
        club.secret,  # a new club that got a deleted one's id (tests, restores) has a new secret
        club.name_display,
        ladder.pk,
        ladder.data_version,
        ladder.built_version,
        club.pages_version,
        viewer_is_director,
    )
    with _rosters_lock:
        roster = _rosters.get(key)
        if roster is not None:
            _rosters.move_to_end(key)
            return roster
    roster = _build_roster(club, viewer_is_director, ladder)
    with _rosters_lock:
        _rosters[key] = roster
        while len(_rosters) > _ROSTERS_KEPT:
            _rosters.popitem(last=False)
    return roster


def forget_rosters() -> None:
    """For tests, whose rolled-back databases hand out the same ids and versions again."""
    with _rosters_lock:
        _rosters.clear()


def _build_roster(club: Club, viewer_is_director: bool, ladder: Ladder) -> Roster:
    # public(): a player first met in a draft is on no club page, not even a director's
    # (the roster screen under /manage/ shows them), and numbers no look-alike "(2)".
    rows = list(
        club.players.active()
        .public()
        .rated_on(ladder)
        .in_ladder_order()
        .values_list(
            "id",
            "name",
            "junior",
            "full_name_consent",
            "rating",
            "rated_games",
            "provisional",
            "last_played",
            "last_change",
        )
    )
    names = shown_names((NameFacts(*row[:4]) for row in rows), club, viewer_is_director)
    players = [
        RosterPlayer(pid, names[pid], rating, games, provisional, last_played, last_change)
        for pid, _n, _j, _c, rating, games, provisional, last_played, last_change in rows
    ]
    return Roster(players, names)
