"""What a season reads from the database: its events, its players' stored results and their
event performances, and which seasons have events.

Every read starts from `ladder_events`: the club's published events that feed its ladder (a
club has one ladder today, fed by every event). When a club keeps several ladders, the
ladder's filter goes there, once, and every season page and summary follows.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from clubs.models import Club, EventQuerySet, Game
from ladder import performance, tiebreaks
from ladder.models import PlayerEventResult
from ladder.results import Result
from ladder.seasons.dates import Season, season_of
from ladder.seasons.summary import SeasonResult


@dataclass(frozen=True)
class LadderLine:
    """A row of the ladder on a date: full-precision rating, rated games by then."""

    rank: int
    player_id: int
    rating: float
    games: int
    provisional: bool


# The slug of a club's one ladder (the migration to several ladders names it so).
MAIN_LADDER = "main"


def ladder_events(club: Club) -> EventQuerySet:
    """The club's published events (never a draft or a deleted one) of its one ladder."""
    return club.events.published()


def season_events(club: Club, season: Season) -> EventQuerySet:
    return ladder_events(club).filter(date__range=(season.first_day, season.last_day))


def season_results(club: Club, season: Season) -> list[SeasonResult]:
    """The stored results of the season's rated events, in the order they were rated."""
    rows = (
        PlayerEventResult.objects.filter(
            club=club, event__in=season_events(club, season).values("id")
        )
        .order_by("position", "player_id")
        .values_list(
            "player_id", "event_id", "position", "pre_rating", "post_rating", "games_counted"
        )
    )
    return [SeasonResult(*row) for row in rows]


def season_performances(
    results: list[SeasonResult],
) -> dict[tuple[int, int], int | None]:
    """Each player's performance in each rated event of `results`, by (event id, player id),
    computed as the event page computes it: over its standard games, against the opponents'
    ratings before the event (ladder.performance)."""
    before = {(r.event_id, r.player_id): r.pre_rating for r in results}
    games: dict[int, list[tiebreaks.Game]] = defaultdict(list)
    ratings: dict[int, dict[int, float | None]] = defaultdict(dict)
    player_of: dict[int, int] = {}
    rows = (
        Game.objects.filter(event_id__in={r.event_id for r in results}, variant="")
        .order_by("event_id", "round", "id")
        .values_list(
            "event_id",
            "round",
            "white_id",
            "black_id",
            "result",
            "white__player_id",
            "black__player_id",
        )
    )
    for event_id, round_no, white, black, code, white_player, black_player in rows:
        games[event_id].append(tiebreaks.Game(round_no, white, black, Result(code)))
        for entry, player in ((white, white_player), (black, black_player)):
            if entry is not None and player is not None:
                player_of[entry] = player
                ratings[event_id][entry] = before.get((event_id, player))
    found: dict[tuple[int, int], int | None] = {}
    for event_id, event_games in games.items():
        by_entry = performance.event_performances(event_games, ratings[event_id])
        for entry, value in by_entry.items():
            if entry in player_of:
                found[event_id, player_of[entry]] = value
    return found


def event_counts(club: Club) -> dict[Season, int]:
    """How many events each season holds (seasons without one are not in it)."""
    counts: dict[Season, int] = defaultdict(int)
    for day in ladder_events(club).values_list("date", flat=True):
        counts[season_of(day, club.season_start_month)] += 1
    return dict(counts)


def ladder_at(club: Club, day: dt.date) -> list[LadderLine]:
    """The ladder as it stood at the end of `day`. STUB until ondate's function is merged."""
    rows = (
        club.players.on_ladder()
        .public()
        .in_ladder_order()
        .values_list("id", "rating", "rated_games", "provisional")
    )
    return [
        LadderLine(rank, pid, rating or 0.0, games, provisional)
        for rank, (pid, rating, games, provisional) in enumerate(rows, start=1)
    ]
