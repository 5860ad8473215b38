"""The player page: a player's events, games and lifetime record, in two plain-SQL queries."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from clubs.models import Club, Entry, Event, Game
from ladder.labels.results import RESULT_LABELS
from ladder.models import Ladder, PlayerEventResult, RatedEvent
from ladder.pages.page_texts import REASON_TEXT, UNKNOWN_REASON_TEXT, score_symbol
from ladder.pages.player_stats import GameSummaries, KindSummary, PlayedGame, Tally
from ladder.policies import get_policy
from ladder.policies.base import UnratedReason
from ladder.policies.ladder import expected_score
from ladder.results import Result, moves_ladder
from ladder.roster.rosters import Roster, RosterPlayer


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
class GameLine:
    round: int
    colour: str  # "white", "black" or "" for a bye
    opponent_id: int | None
    opponent: str
    opponent_rating: float | None  # the opponent's rating before the event
    expected: float | None  # None when the game did not count for this player
    score: str  # "1", "½", "0", "+", "−", "*"
    result_text: str
    counted: bool | None  # None while the ladder has not rated the event yet
    reason: str


@dataclass
class EventLine:
    event_id: int
    name: str
    date: dt.date
    rated: bool
    pre_rating: float
    k: float | None
    expected: float
    actual: float
    change: float
    post_rating: float
    games_counted: int
    games: list[GameLine] = field(default_factory=list)
    # The pre-event ratings of the opponents in the games counted for this player, one per
    # game: the HSB formula's opponents' average and p come from them exactly.
    opponent_ratings: list[float] = field(default_factory=list)
    # The ladder the event fed: each ladder's events chain on their own (ladder.web.ladder_parts).
    ladder_id: int | None = None


@dataclass(frozen=True)
class ClubRules:
    """What the player page's formulas need of the club's rating settings."""

    policy: str  # a name in ladder.policies.POLICIES
    hsb_bonus: int | None = None  # the HSB bonus per event, for HSB clubs


def club_rules(club: Club, ladder: Ladder | None = None, *, kind: str | None = None) -> ClubRules:
    """The rules of `ladder` (the club's first by default; with `kind`, of the ladder that
    rates it, if there is one)."""
    ladder = ladder or club.first_ladder()
    if kind is not None and not ladder.rates(kind):
        ladder = Ladder.objects.of_kind(club.pk, kind) or ladder
    try:
        settings = get_policy(ladder.rating_policy).parse_settings(ladder.rating_settings)
    except ValueError:
        # A broken setting stops the replay, which says so to the directors; the page
        # still explains the stored numbers (ladder.pages.explain finds the bonus they used).
        return ClubRules(ladder.rating_policy)
    return ClubRules(ladder.rating_policy, getattr(settings, "bonus", None))


# The player page writes out at most this many of the last twelve months' events; the
# rest, and every older year, are on the pages of their years. Each event written out
# costs ~8 KB (its breakdown, its games, and the same again for print), so this bounds
# the page whatever the history: a weekly club night's year fits, a daily one folds.
RECENT_LIMIT = 20


@dataclass(frozen=True)
class Shown:
    """Which of a player's events a page writes out in full: one calendar year's (a year
    page), or those since `since`, the newest `limit` of them (the player page)."""

    year: int | None = None
    since: dt.date | None = None
    limit: int | None = None

    def pick(self, events: list[EventLine]) -> list[EventLine]:
        """The events shown, oldest first as `events` are."""
        if self.year is not None:
            return [e for e in events if e.date.year == self.year]
        picked = [e for e in events if self.since is None or e.date >= self.since]
        return picked[-self.limit :] if self.limit else picked


@dataclass(frozen=True)
class YearSummary:
    """One year of a player's history, for the links to the year pages."""

    year: int
    events: int
    rating_after: float  # after the year's last event


def year_summaries(events: list[EventLine]) -> list[YearSummary]:
    """Each year the player played in, newest first."""
    by_year: dict[int, list[EventLine]] = {}
    for e in events:
        by_year.setdefault(e.date.year, []).append(e)
    return [
        YearSummary(year, len(lines), lines[-1].post_rating)
        for year, lines in sorted(by_year.items(), reverse=True)
    ]


@dataclass(frozen=True)
class PlayerPage:
    player: RosterPlayer
    rank: int | None
    record: Record
    events: list[EventLine]  # the events this page writes out in full, oldest first
    rules: ClubRules = ClubRules("ladder")
    summaries: GameSummaries = field(default_factory=GameSummaries)
    # Every event of the player, oldest first, without their games: for the chart, the
    # lifetime sums and the links to the year pages. The same as `events` by default.
    timeline: list[EventLine] = field(default_factory=list)
    shown: Shown = Shown()

    @property
    def history(self) -> list[EventLine]:
        return self.timeline or self.events

    @property
    def counted_here(self) -> int:
        """Rated games in this club's events (the rest came with the starting rating)."""
        return sum(e.games_counted for e in self.history)

    @property
    def years(self) -> list[YearSummary]:
        return year_summaries(self.history)

    @property
    def folded(self) -> int:
        """Events of the player not written out on this page (they are on their years')."""
        return len(self.history) - len(self.events)

    @property
    def starts_history(self) -> bool:
        """Whether this page's first event is the player's first: its rating before it is
        the starting rating."""
        return bool(self.events) and self.events[0] is self.history[0]

    @property
    def brought_in(self) -> int:
        return max(self.player.rated_games - self.counted_here, 0)

    @property
    def kinds(self) -> list[KindSummary]:
        return self.summaries.by_kind([kind.value for kind in Event.Kind])


def _as_date(value: dt.date | str) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def _json(value: str | dict | None) -> dict:
    """A JSON column read with a plain cursor: text (Django leaves decoding to the field)."""
    if value is None:
        return {}
    return json.loads(value) if isinstance(value, str) else value


def _player_rows(sql: str, params: list[int | str]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def _player_results(club: Club, player_id: int) -> list[tuple]:
    """The player's results in published events, oldest first, each with its event's name,
    rated flag and kind, the event's stored game outcomes (JSON text) and its ladder. Each
    ladder's positions are its own: by date, then position, every ladder's results keep
    their order, and the ladder's ids let the (ladder, player, position) index find them.

    Plain SQL, as for the games below: building these queries with the ORM cost more
    than running them, on a page the page cache rarely holds (there is one per player).
    """
    result, event, rated, ladder = (
        PlayerEventResult._meta.db_table,
        Event._meta.db_table,
        RatedEvent._meta.db_table,
        Ladder._meta.db_table,
    )
    sql = f"""
        SELECT r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating, r.k,
               r.expected, r.actual, r.change, r.post_rating, r.games_counted, re.game_outcomes,
               r.ladder_id
        FROM {result} r
        JOIN {event} e ON e.id = r.event_id
        LEFT JOIN {rated} re ON re.event_id = r.event_id
        WHERE r.ladder_id IN (SELECT id FROM {ladder} WHERE club_id = %s)
          AND r.club_id = %s AND r.player_id = %s AND e.status = %s AND e.deleted_at IS NULL
        ORDER BY r.event_date, r.position
    """
    return _player_rows(sql, [club.pk, club.pk, player_id, Event.Status.PUBLISHED])


def _player_games(club: Club, player_id: int) -> list[tuple]:
    """Every game of the player in published events, each side once, with the opponent
    and the opponent's rating before that event:
    (game, event, round, result, side, opponent, opponent's pre-event rating, event kind)."""
    game, entry, event, result = (
        Game._meta.db_table,
        Entry._meta.db_table,
        Event._meta.db_table,
        PlayerEventResult._meta.db_table,
    )
    side = f"""
        SELECT g.id, g.event_id, g.round, g.result, %s, theirs.player_id,
               (SELECT r.pre_rating FROM {result} r
                WHERE r.event_id = g.event_id AND r.player_id = theirs.player_id),
               e.kind
        FROM {game} g
        JOIN {event} e ON e.id = g.event_id
        JOIN {entry} mine ON mine.id = g.{{mine}}_id
        LEFT JOIN {entry} theirs ON theirs.id = g.{{theirs}}_id
        WHERE e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL AND mine.player_id = %s
    """
    # In the order of the rounds (then of the games), as each event's table lists them.
    sql = (
        "SELECT * FROM ("
        + side.format(mine="white", theirs="black")
        + " UNION ALL "
        + side.format(mine="black", theirs="white")
        + ") AS games ORDER BY 3, 1"
    )
    published = Event.Status.PUBLISHED
    return _player_rows(
        sql,
        ["white", club.pk, published, player_id, "black", club.pk, published, player_id],
    )


def player_page(
    club: Club, roster: Roster, player_id: int, shown: Shown | None = None
) -> PlayerPage | None:
    """The player's page; `shown` picks the events written out in full (all by default).
    The lifetime record and summaries always count every game."""
    player = roster.get(player_id)
    if player is None:
        return None
    events: dict[int, EventLine] = {}
    outcomes: dict[int, dict[str, list]] = {}
    for row in _player_results(club, player_id):
        event_id, name, date, rated, kind, *numbers, stored, ladder_id = row
        events[event_id] = EventLine(
            event_id, name, _as_date(date), moves_ladder(rated, kind), *numbers
        )
        events[event_id].ladder_id = ladder_id
        outcomes[event_id] = _json(stored)
    timeline = list(events.values())
    picked = (shown or Shown()).pick(timeline)
    written = {e.event_id for e in picked}
    record = Record()
    summaries = GameSummaries()
    result_texts = {result: str(label.text) for result, label in RESULT_LABELS.items()}
    reasons = {reason: str(text) for reason, text in REASON_TEXT.items()}
    facts = _result_facts()
    for (
        game_id,
        event_id,
        round_no,
        result_code,
        side,
        opponent,
        opponent_pre,
        kind,
    ) in _player_games(club, player_id):
        result, white_score, black_score, over_the_board = facts[result_code]
        mine, theirs = (white_score, black_score) if side == "white" else (black_score, white_score)
        record.add_result(result, mine, theirs)
        opponent_name = roster.names.get(opponent, "") if opponent else ""
        event = events.get(event_id)
        counted: bool | None = None
        reason = ""
        if event is not None:
            stored = outcomes[event_id].get(str(game_id))
            if stored is None and result.is_forfeit:
                # A forfeit against an entrant left without a player never reaches the replay.
                stored = [False, False, UnratedReason.FORFEIT]
            counted, reason = _counted(stored, side, reasons)
        played = PlayedGame(
            event_id,
            kind,
            opponent,
            opponent_name,
            over_the_board=over_the_board,
            mine=mine,
            theirs=theirs,
            counted=counted,
            opponent_rating=opponent_pre,
        )
        if event is None:
            summaries.add(played, "", None)
            continue  # published after the last replay: counted above, rated soon
        summaries.add(played, event.name, event.date)
        if event_id not in written:
            continue  # on another page: only its sums above are needed here
        expected = None
        if counted and opponent_pre is not None:
            event.opponent_ratings.append(opponent_pre)
            if event.k is not None:
                expected = expected_score(event.pre_rating, opponent_pre)
            elif event.games_counted:
                expected = event.expected / event.games_counted
        event.games.append(
            GameLine(
                round=round_no,
                colour="" if result.is_bye else side,
                opponent_id=opponent,
                opponent=opponent_name,
                opponent_rating=opponent_pre,
                expected=expected,
                score=score_symbol(result, mine, theirs),
                result_text=result_texts[result],
                counted=counted,
                reason=reason,
            )
        )
    return PlayerPage(
        player,
        roster.rank_of(player_id),
        record,
        picked,
        club_rules(club),
        summaries,
        timeline,
        shown or Shown(),
    )


def _result_facts() -> dict[str, tuple[Result, float, float, bool]]:
    """Each result code's result, scores and whether it was played over the board: read
    once a page rather than once a game (a long history has thousands)."""
    return {
        r.value: (r, *r.scores, not r.is_bye and (r.is_played or r.is_unrated_result))
        for r in Result
    }


def _counted(outcome: list | None, side: str, reasons: dict[str, str]) -> tuple[bool | None, str]:
    """Whether the game counted for this side and, if not, why.

    Only called for events the replay has rated; it stores only the games not
    rated for both sides, so a game without an entry counted for both.
    """
    if outcome is None:
        return True, ""
    rated_white, rated_black, reason = outcome
    if rated_white if side == "white" else rated_black:
        return True, ""
    return False, reasons.get(reason) or str(UNKNOWN_REASON_TEXT)
