"""What a season reads from the database: its events, its players' stored results and their
event performances, and which seasons have events.

Every read starts from `ladder_events`: the club's published events on one of its ladders
(the events of the kinds it shows, Ladder.event_kinds), so a season is computed on that ladder
alone. Without a ladder every published event is read, as the season pages still do.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from clubs.models import Club, EventQuerySet, Game, Ladder
from clubs.results import Result
from ladder import performance, tiebreaks
from ladder.models import PlayerEventResult
from ladder.seasons.dates import Season, season_of
from ladder.seasons.summary import SeasonResult


def ladder_events(club: Club, ladder: Ladder | None = None) -> EventQuerySet:
    """The club's published events (never a draft or a deleted one) on `ladder`, or every
    published event without one."""
    events = club.events.published()
    return events if ladder is None else events.filter(kind__in=ladder.event_kinds())


def season_events(club: Club, season: Season, ladder: Ladder | None = None) -> EventQuerySet:
    return ladder_events(club, ladder).filter(date__range=(season.first_day, season.last_day))


def season_results(club: Club, season: Season, ladder: Ladder | None = None) -> list[SeasonResult]:
    """The stored results of the season's rated events, in the order they were rated."""
    stored = PlayerEventResult.objects.filter(club=club)
    if ladder is not None:
        stored = stored.filter(ladder_id=ladder.pk)
    rows = (
        stored.filter(event__in=season_events(club, season, ladder).values("id"))
        .order_by("position", "player_id")
        .values_list(
            "player_id", "event_id", "position", "pre_rating", "post_rating", "games_counted"
        )
    )
    return [SeasonResult(*row) for row in rows]


@dataclass(frozen=True)
class SeasonGames:
    played: dict[int, int]  # games over the board per player id
    performances: dict[tuple[int, int], int | None]  # by (event id, player id)


def season_games(
    club: Club, season: Season, results: list[SeasonResult], ladder: Ladder | None = None
) -> SeasonGames:
    """The games of the season's events that move the ladder: how many each player played
    over the board, and each player's performance in each event as the event page computes
    it, over its standard games against the opponents' ratings before the event (the stored
    `results`), with ladder.performance."""
    before = {(r.event_id, r.player_id): r.pre_rating for r in results}
    played: dict[int, int] = defaultdict(int)
    games: dict[int, list[tiebreaks.Game]] = defaultdict(list)
    ratings: dict[int, dict[int, float | None]] = defaultdict(dict)
    player_of: dict[int, int] = {}
    rows = (
        Game.objects.filter(
            event__in=season_events(club, season, ladder).moving_ladder().values("id")
        )
        .order_by("event_id", "round", "id")
        .values_list(
            "event_id",
            "round",
            "white_id",
            "black_id",
            "result",
            "variant",
            "white__player_id",
            "black__player_id",
        )
    )
    for event_id, round_no, white, black, code, variant, white_player, black_player in rows:
        result = Result(code)
        sides = ((white, white_player), (black, black_player))
        for entry, player in sides:
            if entry is not None and player is not None:
                player_of[entry] = player
                ratings[event_id][entry] = before.get((event_id, player))
                played[player] += int(black is not None and result.is_played)
        if not variant:  # a variant says nothing of strength at chess, as on the event page
            games[event_id].append(tiebreaks.Game(round_no, white, black, result))
    performances: dict[tuple[int, int], int | None] = {}
    for event_id, event_games in games.items():
        by_entry = performance.event_performances(event_games, ratings[event_id])
        for entry, value in by_entry.items():
            if entry in player_of:
                performances[event_id, player_of[entry]] = value
    return SeasonGames(dict(played), performances)


def event_counts(club: Club) -> dict[Season, int]:
    """How many events each season holds (seasons without one are not in it)."""
    counts: dict[Season, int] = defaultdict(int)
    for day in ladder_events(club).values_list("date", flat=True):
        counts[season_of(day, club.season_start_month)] += 1
    return dict(counts)
