"""A player's lifetime in the club, summed once by the replay and read by the player page.

Pure Python: no Django imports. The lifetime record, head-to-head, kinds, best win and
the outline of the rating history (its first event, each year, each month's last event)
count every game and event of the player: thousands for a long history, read and
classified in ~150 ms. So the replay, which reads every game anyway, sums each player
with a long history it touched here (ladder/store/players.py reads their rows and stores
`to_json`), and the player page reads that one row (`from_json`) and only the games of
the events it writes out. Names are never stored: the page puts in the shown names of
its roster.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clubs.results import Result
from ladder.player_stats import (
    BestWin,
    GameSummaries,
    HeadToHead,
    KindSummary,
    PlayedGame,
    Tally,
)
from ladder.policies.base import UnratedReason

# Only a history of this many events or more is summed by the replay and stored: a page
# sums a shorter one itself in a few milliseconds (~600 games), while summing on every
# replay costs that replay in proportion to the games of the players it touches (a
# correction to a 40-player event of a club whose players have 100 events each would
# take ten times as long).
STORED_FROM_EVENTS = 150

# (event, name, date, rated, kind, pre_rating, k, expected, actual, change, post_rating,
#  games_counted, position): the player's stored results, oldest first.
ResultRow = tuple[
    int, str, dt.date, bool, str, float, float | None, float, float, float, float, int, int
]
# (game, event, round, result, side, opponent, opponent's pre-event rating, event kind)
GameRow = tuple[int, int, int, str, str, int | None, float | None, str]
# An event's stored game outcomes: {game id: [rated for white, rated for black, reason]}.
Outcomes = Mapping[str, list[Any]]


@dataclass
class Record(Tally):
    """A lifetime record: games played over the board (counted as every Tally counts them)
    apart from byes and forfeits."""

    byes: int = 0
    forfeits_won: int = 0
    forfeits_lost: int = 0

    @property
    def played(self) -> int:
        return self.games

    @property
    def forfeits(self) -> int:
        return self.forfeits_won + self.forfeits_lost

    def add_result(self, result: Result, mine: float, theirs: float) -> None:
        if result.is_bye:
            self.byes += 1
        elif result.is_played or result.is_unrated_result:
            self.add(mine, theirs)
        elif mine > theirs:
            self.forfeits_won += 1
        else:
            self.forfeits_lost += 1


@dataclass(frozen=True)
class YearSummary:
    """One year of a player's history, for the links to the year pages."""

    year: int
    events: int
    rating_after: float  # after the year's last event


@dataclass(frozen=True)
class MonthPoint:
    """A month's last event of the player: the chart's line runs through these."""

    position: int  # in the club's rated history, to merge with the events written out
    event_id: int
    date: dt.date
    rating: float  # after the event


@dataclass(frozen=True)
class Timeline:
    """The outline of a player's rated history: what the page needs of every event."""

    events: int = 0
    counted: int = 0  # rated games in this club's events
    first: tuple[int, dt.date, float] | None = None  # event, date, rating before it
    years: tuple[YearSummary, ...] = ()  # newest first
    months: tuple[MonthPoint, ...] = ()  # oldest first


@dataclass
class Lifetime:
    record: Record = field(default_factory=Record)
    summaries: GameSummaries = field(default_factory=GameSummaries)
    timeline: Timeline = Timeline()


def years_of(history: Iterable[tuple[dt.date, float]]) -> list[YearSummary]:
    """Each year of (date, rating after) events given oldest first, newest year first."""
    by_year: dict[int, list[float]] = {}
    for date, rating in history:
        by_year.setdefault(date.year, []).append(rating)
    return [
        YearSummary(year, len(ratings), ratings[-1])
        for year, ratings in sorted(by_year.items(), reverse=True)
    ]


def result_facts() -> dict[str, tuple[Result, float, float, bool]]:
    """Each result code's result, scores and whether it was played over the board: read
    once rather than once a game (a long history has thousands)."""
    return {
        r.value: (r, *r.scores, not r.is_bye and (r.is_played or r.is_unrated_result))
        for r in Result
    }


def game_outcome(outcomes: Outcomes, game_id: int, result: Result) -> list[Any] | None:
    """What the replay stored for a game of a rated event (None: rated for both sides)."""
    stored = outcomes.get(str(game_id))
    if stored is None and result.is_forfeit:
        # A forfeit against an entrant left without a player never reaches the replay.
        return [False, False, UnratedReason.FORFEIT]
    return stored


def counted_for(outcome: list[Any] | None, side: str) -> bool:
    return outcome is None or bool(outcome[0] if side == "white" else outcome[1])


def timeline_of(results: Sequence[ResultRow]) -> Timeline:
    if not results:
        return Timeline()
    months = []
    for n, row in enumerate(results):
        date = row[2]
        later = results[n + 1][2] if n + 1 < len(results) else None
        if later is None or (later.year, later.month) != (date.year, date.month):
            months.append(MonthPoint(row[12], row[0], date, row[10]))
    first = results[0]
    return Timeline(
        events=len(results),
        counted=sum(row[11] for row in results),
        first=(first[0], first[2], first[5]),
        years=tuple(years_of((row[2], row[10]) for row in results)),
        months=tuple(months),
    )


def summarise(
    results: Sequence[ResultRow], games: Iterable[GameRow], outcomes: Mapping[int, Outcomes]
) -> Lifetime:
    """A player's lifetime from their stored results (oldest first), every game of theirs
    in published events (in the order of the rounds) and the rated events' outcomes."""
    dates = {row[0]: row[2] for row in results}
    record = Record()
    summaries = GameSummaries()
    facts = result_facts()
    for game_id, event_id, _round, code, side, opponent, opponent_pre, kind in games:
        result, white_score, black_score, over_the_board = facts[code]
        mine, theirs = (white_score, black_score) if side == "white" else (black_score, white_score)
        record.add_result(result, mine, theirs)
        date = dates.get(event_id)
        counted: bool | None = None
        if date is not None:  # else published after the last replay: rated soon
            stored = game_outcome(outcomes.get(event_id, {}), game_id, result)
            counted = counted_for(stored, side)
        played = PlayedGame(
            event_id, kind, opponent, "", over_the_board, mine, theirs, counted, opponent_pre
        )
        summaries.add(played, "", date)
    return Lifetime(record, summaries, timeline_of(results))


def to_json(lifetime: Lifetime) -> dict[str, Any]:
    r, s, t = lifetime.record, lifetime.summaries, lifetime.timeline
    best = s.best
    return {
        "record": [r.won, r.drawn, r.lost, r.byes, r.forfeits_won, r.forfeits_lost],
        "opponents": [
            [h.opponent_id, h.tally.won, h.tally.drawn, h.tally.lost] for h in s.opponents.values()
        ],
        "kinds": [
            [k.kind, k.event_count, k.tally.won, k.tally.drawn, k.tally.lost]
            for k in s.kinds.values()
        ],
        "best": None
        if best is None
        else [best.opponent_id, best.opponent_rating, best.event_id, best.date.isoformat()],
        "events": t.events,
        "counted": t.counted,
        "first": None if t.first is None else [t.first[0], t.first[1].isoformat(), t.first[2]],
        "years": [[y.year, y.events, y.rating_after] for y in t.years],
        "months": [[m.position, m.event_id, m.date.isoformat(), m.rating] for m in t.months],
    }


def from_json(data: Mapping[str, Any], names: Mapping[int, str]) -> Lifetime:
    """The stored lifetime, each opponent by their shown name in `names`; the best win's
    event has no name yet (the page reads it with the events it writes out)."""
    day = dt.date.fromisoformat
    summaries = GameSummaries(
        opponents={
            pk: HeadToHead(pk, names.get(pk, ""), Tally(won, drawn, lost))
            for pk, won, drawn, lost in data["opponents"]
        },
        kinds={
            kind: KindSummary(kind, tally=Tally(won, drawn, lost), count=events)
            for kind, events, won, drawn, lost in data["kinds"]
        },
    )
    if data["best"] is not None:
        pk, rating, event_id, date = data["best"]
        summaries.best = BestWin(pk, names.get(pk, ""), rating, event_id, "", day(date))
    first = data["first"]
    timeline = Timeline(
        events=data["events"],
        counted=data["counted"],
        first=None if first is None else (first[0], day(first[1]), first[2]),
        years=tuple(YearSummary(*y) for y in data["years"]),
        months=tuple(MonthPoint(p, e, day(d), rating) for p, e, d, rating in data["months"]),
    )
    return Lifetime(Record(*data["record"]), summaries, timeline)
