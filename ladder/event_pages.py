"""The event page (standings, rounds, crosstable, rating changes) and the list of events."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Count

from clubs.models import Club, Event
from ladder import tiebreaks
from ladder.models import PlayerEventResult
from ladder.page_texts import VARIANT_TEXT, points_text, score_symbol
from ladder.result_labels import RESULT_LABELS
from ladder.results import Result, moves_ladder
from ladder.rosters import Roster


@dataclass(frozen=True)
class RatingLine:
    pre_rating: float
    expected: float
    actual: float
    change: float
    games_counted: int
    k: float | None = None
    # As stored: the next event's "before" is this rating, so the page prints its rounding.
    post_rating: float = 0.0


@dataclass
class Standing:
    entry_id: int
    player_id: int | None
    name: str
    start_rank: int
    points: float = 0.0
    played: int = 0
    byes: int = 0
    forfeits: int = 0
    rank: int = 0
    rating: RatingLine | None = None
    # FIDE tie-breaks (ladder.tiebreaks); the page shows them beside the points.
    buchholz_cut1: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    wins: int = 0

    @property
    def points_text(self) -> str:
        return points_text(self.points)


@dataclass(frozen=True)
class Board:
    number: int
    white: Standing
    black: Standing | None
    result: str


@dataclass(frozen=True)
class EventPage:
    event: Event
    standings: list[Standing]
    rounds: list[tuple[int, list[Board]]]
    crosstable: list[tuple[Standing, list[str]]] | None
    rating_changes: list[Standing]

    @property
    def rated(self) -> bool:
        return self.event.moves_ladder


def event_page(event: Event, roster: Roster, unconfirmed: str) -> EventPage:
    entries = {
        entry_id: Standing(
            entry_id,
            player_id,
            roster.names.get(player_id, unconfirmed) if player_id else unconfirmed,
            start_rank or 0,
        )
        for entry_id, player_id, start_rank in event.entries.values_list(
            "id", "player_id", "start_rank"
        )
    }
    games = list(
        event.games.order_by("round", "id").values_list(
            "round", "white_id", "black_id", "result", "variant"
        )
    )
    rounds: dict[int, list[Board]] = defaultdict(list)
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for round_no, white_id, black_id, result_code, variant in games:
        result = Result(result_code)
        white, black = entries[white_id], entries.get(black_id) if black_id else None
        white_score, black_score = result.scores
        white.points += white_score
        _tally(white, result)
        if black is not None:
            black.points += black_score
            _tally(black, result)
            cells[white_id, black_id].append(score_symbol(result, white_score, black_score))
            cells[black_id, white_id].append(score_symbol(result, black_score, white_score))
        shown = str(RESULT_LABELS[result].text)
        if variant:
            shown = VARIANT_TEXT % {"result": shown, "variant": variant}
        board = Board(len(rounds[round_no]) + 1, white, black, shown)
        rounds[round_no].append(board)

    by_player = {s.player_id: s for s in entries.values() if s.player_id is not None}
    for (
        player_id,
        pre,
        expected,
        actual,
        change,
        counted,
        k,
        post,
    ) in PlayerEventResult.objects.filter(event=event).values_list(
        "player_id",
        "pre_rating",
        "expected",
        "actual",
        "change",
        "games_counted",
        "k",
        "post_rating",
    ):
        if player_id in by_player:
            by_player[player_id].rating = RatingLine(
                pre, expected, actual, change, counted, k, post
            )

    standings = _ranked(entries, games)
    changes = sorted(
        (s for s in standings if s.rating is not None),
        key=lambda s: (-s.rating.change if s.rating else 0, s.rank),
    )
    return EventPage(
        event=event,
        standings=standings,
        rounds=sorted(rounds.items()),
        crosstable=_crosstable(standings, cells),
        rating_changes=changes,
    )


def _ranked(
    entries: dict[int, Standing], games: Sequence[tuple[int, int, int | None, str, str]]
) -> list[Standing]:
    """Points, then the club's tie-breaks; players still tied share a rank.

    The TRF's own final rank is not stored on import, so the file's order cannot be
    used; the tie-breaks are computed from the games already loaded (no query)."""
    in_start_order = sorted(entries.values(), key=lambda s: (s.start_rank, s.entry_id))
    values = tiebreaks.compute(
        [s.entry_id for s in in_start_order],
        (
            tiebreaks.Game(round_no, white, black, Result(code))
            for round_no, white, black, code, _ in games
        ),
        tiebreaks.DEFAULT_ORDER,
    )
    standings = []
    for value in values:
        standing = entries[value.player]
        standing.rank = value.rank
        standing.buchholz_cut1 = value.buchholz_cut1
        standing.buchholz = value.buchholz
        standing.sonneborn_berger = value.sonneborn_berger
        standing.wins = value.wins
        standings.append(standing)
    return standings


def _tally(standing: Standing, result: Result) -> None:
    if result.is_bye:
        standing.byes += 1
    elif result.is_forfeit:
        standing.forfeits += 1
    else:
        standing.played += 1


def _crosstable(
    standings: list[Standing], cells: dict[tuple[int, int], list[str]]
) -> list[tuple[Standing, list[str]]] | None:
    """A round robin's crosstable: only when every pair of players met exactly once."""
    players = [s for s in standings if s.played or s.forfeits]
    if len(players) < 3:
        return None
    ids = [s.entry_id for s in players]
    for a in ids:
        for b in ids:
            if a != b and len(cells.get((a, b), ())) != 1:
                return None
    return [(s, [cells[s.entry_id, b][0] if s.entry_id != b else "" for b in ids]) for s in players]


# --- the list of events and the sitemap -------------------------------------------------------


@dataclass(frozen=True)
class EventSummary:
    id: int
    name: str
    date: dt.date
    kind: str  # the kind's label in the page's language
    rated: bool  # rated by the director and not bughouse: the event moves the ladder
    players: int


def event_summaries(club: Club, kind: str | None = None) -> list[EventSummary]:
    """The club's published events, newest first; only those of `kind` when given."""
    events = club.events.published()
    if kind:
        events = events.filter(kind=kind)
    rows = (
        events.order_by("-date", "-order_in_day", "-created_at", "-id")
        .annotate(players=Count("entries"))
        .values_list("id", "name", "date", "kind", "rated", "players")
    )
    labels = dict(Event.Kind.choices)
    return [
        EventSummary(
            pk,
            name,
            date,
            str(labels.get(kind, kind)),
            moves_ladder(rated, kind),
            players,
        )
        for pk, name, date, kind, rated, players in rows
    ]
