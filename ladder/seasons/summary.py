"""The season's honours from its stored results: the most improved, the most games, the best
event performances and the champion. Pure Python: no Django; players by id, names later.

- Most improved: the rating after the player's last rated event of the season less the rating
  before their first, among players with at least MIN_IMPROVED_GAMES rated games in it. The
  page prints both ratings as a breakdown prints a rating (ladder.explain.shown_rating)
  and the gain as their difference, so the list is ranked by that printed gain: a reader who
  subtracts the printed ratings gets the printed gain, and a higher row never shows less.
- Most games: games played over the board with a rated result (no bye, forfeit or game
  marked unrated) in the season's events that move the ladder, whether or not the rating
  counted them for both sides (the protection rule leaves out an established player's game
  against a provisional one).
- Best performances: an event's performance as its page shows it (ladder.performance), among
  players with at least MIN_PERFORMANCE_GAMES rated games in that event, so that one win is
  not "the performance of the season".
- Champion: the top established (not provisional) player of the ladder at the season's end.
Each list holds the first LIST_LENGTH; ties go to the player (then event) first stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from ladder.explain import shown_rating

MIN_IMPROVED_GAMES = 10
MIN_PERFORMANCE_GAMES = 3
LIST_LENGTH = 10


@dataclass(frozen=True)
class SeasonResult:
    """One player's stored rating arithmetic in one rated event of the season."""

    player_id: int
    event_id: int
    position: int  # the event's place in the rated history
    pre_rating: float
    post_rating: float
    games_counted: int


@dataclass(frozen=True)
class Improvement:
    player_id: int
    change: float  # full precision, as season_summary prints it
    games: int
    start: Decimal  # the rating before the first event, as the page prints it
    end: Decimal  # the rating after the last event, as the page prints it

    @property
    def shown_change(self) -> Decimal:
        """The gain the page prints: the printed end less the printed start, exactly (never
        the full-precision change rounded on its own, which is 0.1 off in about one row in
        ten)."""
        return self.end - self.start


@dataclass(frozen=True)
class GamesPlayed:
    player_id: int
    games: int


@dataclass(frozen=True)
class Performance:
    player_id: int
    event_id: int
    performance: int


@dataclass(frozen=True)
class Honours:
    most_improved: list[Improvement]
    most_games: list[GamesPlayed]
    best_performances: list[Performance]


def most_improved(results: Iterable[SeasonResult]) -> list[Improvement]:
    first: dict[int, SeasonResult] = {}
    last: dict[int, SeasonResult] = {}
    games: dict[int, int] = {}
    for row in sorted(results, key=lambda r: r.position):
        first.setdefault(row.player_id, row)
        last[row.player_id] = row
        games[row.player_id] = games.get(row.player_id, 0) + row.games_counted
    improved = [
        Improvement(
            player,
            last[player].post_rating - first[player].pre_rating,
            count,
            shown_rating(first[player].pre_rating),
            shown_rating(last[player].post_rating),
        )
        for player, count in games.items()
        if count >= MIN_IMPROVED_GAMES
    ]
    improved.sort(key=lambda i: (-i.shown_change, -i.change, -i.games, i.player_id))
    return improved[:LIST_LENGTH]


def most_games(games: Mapping[int, int]) -> list[GamesPlayed]:
    """From the games each player played, by player id."""
    played = [GamesPlayed(player, count) for player, count in games.items() if count > 0]
    played.sort(key=lambda g: (-g.games, g.player_id))
    return played[:LIST_LENGTH]


def best_performances(
    results: Iterable[SeasonResult], performances: dict[tuple[int, int], int | None]
) -> list[Performance]:
    """`performances` by (event id, player id), as the event pages compute them."""
    best = []
    for row in results:
        value = performances.get((row.event_id, row.player_id))
        if value is not None and row.games_counted >= MIN_PERFORMANCE_GAMES:
            best.append((row.position, Performance(row.player_id, row.event_id, value)))
    best.sort(key=lambda p: (-p[1].performance, p[0], p[1].player_id))
    return [p for _position, p in best[:LIST_LENGTH]]


def champion(provisional: Iterable[bool]) -> int | None:
    """The champion's place on the ladder at the season's end, from each row's provisional
    flag in ladder order: the first established row (None when there is none)."""
    return next((index for index, flag in enumerate(provisional) if not flag), None)


def honours(
    results: Sequence[SeasonResult],
    games: Mapping[int, int],
    performances: dict[tuple[int, int], int | None],
) -> Honours:
    return Honours(
        most_improved(results), most_games(games), best_performances(results, performances)
    )
