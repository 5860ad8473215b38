"""A player's games summed up: head-to-head against each opponent, best win, and by kind.

Pure Python: no Django imports. The player page feeds every game it has read once, so
these summaries cost no query of their own; names are the shown names the caller
passes (decided by ladder.roster.display), never read here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field


@dataclass
class Tally:
    """Games played over the board (byes and forfeits apart, as in the lifetime record)."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    @property
    def games(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def score(self) -> float:
        return self.won + self.drawn / 2

    def add(self, mine: float, theirs: float) -> None:
        if mine > theirs:
            self.won += 1
        elif mine < theirs:
            self.lost += 1
        else:
            self.drawn += 1


@dataclass
class HeadToHead:
    opponent_id: int
    opponent: str  # the shown name
    tally: Tally = field(default_factory=Tally)


@dataclass(frozen=True)
class BestWin:
    opponent_id: int
    opponent: str  # the shown name
    opponent_rating: float  # the opponent's rating before the event
    event_id: int
    event: str
    date: dt.date


@dataclass
class KindSummary:
    kind: str  # an Event.Kind value
    events: set[int] = field(default_factory=set)
    tally: Tally = field(default_factory=Tally)
    count: int = 0  # the events, when read back from storage without their ids

    @property
    def event_count(self) -> int:
        return len(self.events) or self.count


@dataclass(frozen=True)
class PlayedGame:
    """One game of the player, as the summaries need it."""

    event_id: int
    kind: str
    opponent_id: int | None
    opponent: str
    over_the_board: bool  # played or an unrated result: not a bye, not a forfeit
    mine: float
    theirs: float
    counted: bool | None  # counted for this player's rating (None: not rated yet)
    opponent_rating: float | None


@dataclass
class GameSummaries:
    """Head-to-head, best win and per kind, built one game at a time."""

    opponents: dict[int, HeadToHead] = field(default_factory=dict)
    kinds: dict[str, KindSummary] = field(default_factory=dict)
    best: BestWin | None = None

    def add(self, game: PlayedGame, event_name: str, date: dt.date | None) -> None:
        """``date`` is None for an event the ladder has not rated yet (no best win there)."""
        kind = self.kinds.setdefault(game.kind, KindSummary(game.kind))
        kind.events.add(game.event_id)
        if not game.over_the_board:
            return
        kind.tally.add(game.mine, game.theirs)
        if game.opponent_id is None:
            return
        h2h = self.opponents.setdefault(
            game.opponent_id, HeadToHead(game.opponent_id, game.opponent)
        )
        h2h.tally.add(game.mine, game.theirs)
        rating = game.opponent_rating
        if game.counted and game.mine > game.theirs and rating is not None and date is not None:
            # The highest rating beaten; on a tie, the first time it was done.
            best = self.best
            if best is None or (rating, best.date) > (best.opponent_rating, date):
                self.best = BestWin(
                    game.opponent_id,
                    game.opponent,
                    rating,
                    game.event_id,
                    event_name,
                    date,
                )

    def head_to_head(self) -> list[HeadToHead]:
        """Most games first, then by name: the regular opponents lead."""
        return sorted(
            self.opponents.values(),
            key=lambda h: (-h.tally.games, h.opponent.casefold(), h.opponent_id),
        )

    def by_kind(self, order: list[str]) -> list[KindSummary]:
        """In the given order of kinds (the model's); any other kind last."""
        rank = {kind: n for n, kind in enumerate(order)}
        return sorted(self.kinds.values(), key=lambda k: (rank.get(k.kind, len(order)), k.kind))
