"""A season as its page shows it (names under the club's rules) and as season_summary prints it
(full names, full precision): both from one reading of the season (`read_season`)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace
from decimal import Decimal

from django.db.models import Q

from clubs.models import Club, Event, Ladder, Series
from ladder.roster.rosters import Roster
from ladder.seasons import reading, summary
from ladder.seasons.dates import Season, season_of
from members.files.export import ladder_rows
from members.pages.events.event_list import EventSummary, event_summaries, winners_of
from members.pages.events.event_pages import club_order


@dataclass(frozen=True)
class SeasonData:
    season: Season
    current: bool
    # The day whose ladder the season shows: its last, or today for the current season.
    ladder_day: dt.date
    honours: summary.Honours
    event_names: dict[int, str]  # empty: the season has no event, and shows no ladder


def read_season(
    club: Club, season: Season, today: dt.date, ladder: Ladder | None = None
) -> SeasonData:
    """The season on `ladder` (every published event without one: the season pages)."""
    event_names = dict(reading.season_events(club, season, ladder).values_list("id", "name"))
    day = min(season.last_day, today)
    if not event_names:
        return SeasonData(season, season.holds(today), day, summary.Honours([], [], []), {})
    results = reading.season_results(club, season, ladder)
    games = reading.season_games(club, season, results, ladder)
    honours = summary.honours(results, games.played, games.performances)
    return SeasonData(season, season.holds(today), day, honours, event_names)


def current_season(club: Club, today: dt.date) -> Season:
    return season_of(today, club.season_start_month)


# --- the pages ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonListed:
    season: Season
    events: int
    current: bool


def season_list(club: Club, today: dt.date) -> list[SeasonListed]:
    """Every season with an event and the current one (even before its first), newest first."""
    counts = reading.event_counts(club)
    current = current_season(club, today)
    counts.setdefault(current, 0)
    return [
        SeasonListed(season, counts[season], season == current)
        for season in sorted(counts, reverse=True)
    ]


def has_page(club: Club, season: Season, today: dt.date) -> bool:
    """The seasons the list links: the current one, and any other holding an event."""
    return season == current_season(club, today) or reading.season_events(club, season).exists()


def season_series(club: Club, season: Season) -> list[Series]:
    """The club's Grand Prix series the season's page links: those whose dates meet the
    season's, and those of chosen events with a published one in it."""
    first, last = season.first_day, season.last_day
    in_season = Q(date_from__lte=last, date_to__gte=first) | Q(
        events__in=Event.objects.published().filter(club=club, date__range=(first, last))
    )
    return list(
        Series.objects.filter(club=club)
        .filter(in_season)
        .distinct()
        .order_by("date_from", "name", "id")
    )


@dataclass(frozen=True)
class Named:
    player_id: int
    name: str


@dataclass(frozen=True)
class LadderShown:
    rank: int
    player: Named
    rating: int
    games: int
    provisional: bool


@dataclass(frozen=True)
class ImprovedShown:
    player: Named
    start: Decimal  # printed: the rating before the player's first event of the season
    end: Decimal  # printed: the rating after their last
    change: Decimal  # end - start, exactly as printed
    games: int


@dataclass(frozen=True)
class GamesShown:
    player: Named
    games: int


@dataclass(frozen=True)
class PerformanceShown:
    player: Named
    event_id: int
    event: str
    performance: int


@dataclass(frozen=True)
class SeasonPage:
    season: Season
    current: bool
    ladder: list[LadderShown]
    events: list[EventSummary]  # newest first, with their winners as the events list has them
    most_improved: list[ImprovedShown]
    most_games: list[GamesShown]
    best_performances: list[PerformanceShown]
    champion: Named | None


def season_page(
    club: Club, season: Season, roster: Roster, unconfirmed: str, today: dt.date, ladder: Ladder
) -> SeasonPage:
    """The season on `ladder`: its events, its ladder and the honours its games earned.
    Names as the roster shows them to this visitor; a player the roster leaves out is left
    out here too."""
    data = read_season(club, season, today, ladder)
    names = roster.names

    def named(player_id: int) -> Named | None:
        name = names.get(player_id)
        return None if name is None else Named(player_id, name)

    # The ladder under this roster's names (ladder.roster.rosters.Roster.ladder_on): no held player.
    # Read even when the season holds no event of this ladder yet (a new season, or a blitz
    # ladder whose season has not started): the ladder still stands as its list shows it, and
    # a page saying "no established player" beside a list of sixteen would be wrong.
    rows = roster.ladder_on(club, data.ladder_day, ladder=ladder)
    standing = [
        LadderShown(
            row.rank,
            Named(row.player.id, row.player.name),
            row.player.rating_whole or 0,
            row.player.rated_games,
            row.player.provisional,
        )
        for row in rows
    ]
    first = summary.champion(line.provisional for line in standing)
    # The list of events' rows and winners, the winners of this season's events only.
    order = club_order(club)
    winners = winners_of(reading.season_events(club, season, ladder), roster, unconfirmed, order)
    events = [
        replace(e, winners=winners.get(e.id, ()))
        for e in event_summaries(club)
        if e.id in data.event_names
    ]
    h = data.honours
    return SeasonPage(
        season=season,
        current=data.current,
        ladder=standing,
        events=events,
        most_improved=[
            ImprovedShown(p, i.start, i.end, i.shown_change, i.games)
            for i in h.most_improved
            if (p := named(i.player_id))
        ],
        most_games=[GamesShown(p, g.games) for g in h.most_games if (p := named(g.player_id))],
        best_performances=[
            PerformanceShown(p, b.event_id, data.event_names[b.event_id], b.performance)
            for b in h.best_performances
            if (p := named(b.player_id))
        ],
        champion=None if first is None else standing[first].player,
    )


# --- the command ----------------------------------------------------------------------------


def summary_json(club: Club, season: Season, today: dt.date, ladder: Ladder) -> dict[str, object]:
    """season_summary's output on `ladder`: full names (for support staff), full-precision
    numbers."""
    data = read_season(club, season, today, ladder)
    names = dict(club.players.values_list("id", "name"))
    # The ladder as export_ladder --on prints it (members.files.export.ladder_rows).
    rows = ladder_rows(club, on=data.ladder_day, ladder=ladder) if data.event_names else []
    first = summary.champion(bool(row["provisional"]) for row in rows)
    h = data.honours
    return {
        "season": season.label,
        "from": season.first_day.isoformat(),
        "to": season.last_day.isoformat(),
        "ladder": [{key: row[key] for key in ("rank", "name", "rating", "games")} for row in rows],
        "most_improved": [
            {"name": names[i.player_id], "change": i.change, "games": i.games}
            for i in h.most_improved
        ],
        "most_games": [{"name": names[g.player_id], "games": g.games} for g in h.most_games],
        "best_performances": [
            {
                "name": names[b.player_id],
                "event": data.event_names[b.event_id],
                "performance": b.performance,
            }
            for b in h.best_performances
        ],
        "champion": None if first is None else rows[first]["name"],
    }
