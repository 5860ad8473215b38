"""What the club pages show, each read with a fixed number of queries however large the club.

Every page starts from the club's roster (one query): it gives the shown names,
which are decided over the whole roster so look-alikes stay apart, and the
ladder numbers. The rest is one query per kind of row, assembled in Python.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import threading
from collections import OrderedDict, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Count
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Entry, Event, Game
from ladder.display import NameFacts, shown_names
from ladder.models import PlayerEventResult, RatedEvent
from ladder.policies import get_policy
from ladder.policies.base import UnratedReason
from ladder.policies.ladder import expected_score
from ladder.results import Result

ACTIVE_DAYS = 365

RESULT_TEXT = {
    Result.WHITE_WIN: "1–0",
    Result.DRAW: "½–½",
    Result.BLACK_WIN: "0–1",
    Result.WHITE_FORFEIT_WIN: _("+ – − (forfeit)"),
    Result.BLACK_FORFEIT_WIN: _("− – + (forfeit)"),
    Result.DOUBLE_FORFEIT: _("− – − (double forfeit)"),
    Result.NO_RESULT: _("no result"),
    Result.UNRATED_WHITE_WIN: _("1–0 (unrated)"),
    Result.UNRATED_DRAW: _("½–½ (unrated)"),
    Result.UNRATED_BLACK_WIN: _("0–1 (unrated)"),
    Result.BYE_FULL: _("full-point bye"),
    Result.BYE_HALF: _("half-point bye"),
    Result.BYE_ZERO: _("zero-point bye"),
    Result.BYE_PAIRING: _("bye (odd number of players)"),
}

# Why a game did not count, as one plain sentence, by the reason the replay stored (the
# values of ladder.policies.base.UnratedReason, which are plain strings). A new reason needs
# one line here; a reason without one reads UNKNOWN_REASON_TEXT. The protection rule is
# told from the side it concerns: only the established player's game is not counted.
PROTECTED_TEXT = _(
    "Not counted for you: your opponent was still provisional, so your rating was protected."
)
REASON_TEXT: dict[str, Promise] = {
    UnratedReason.BYE: _("Not counted: a bye is not a game."),
    UnratedReason.FORFEIT: _("Not counted: the game was not played (a forfeit, or no result)."),
    UnratedReason.UNRATED_RESULT: _("Not counted: this result was entered as not rated."),
    UnratedReason.UNRATED_EVENT: _("Not counted: this event was not rated."),
    UnratedReason.BUGHOUSE: _("Not counted: bughouse is a team game, and only chess is rated."),
    UnratedReason.PROTECTED_WHITE: PROTECTED_TEXT,
    UnratedReason.PROTECTED_BLACK: PROTECTED_TEXT,
    UnratedReason.VARIANT: _("Not counted: this game was not standard chess (a variant)."),
}
UNKNOWN_REASON_TEXT = _("Not counted for the rating.")

# Beside a variant game's result on the event page.
VARIANT_TEXT = _("%(result)s · %(variant)s, not standard chess: never rated")


def half_up(value: float) -> int:
    return math.floor(value + 0.5)


def points_text(points: float) -> str:
    """3.5 -> "3½", 0.5 -> "½": the chess way, the same in every language."""
    whole, half = divmod(round(points * 2), 2)
    if half:
        return f"{whole}½" if whole else "½"
    return str(whole)


# --- the roster and the ladder ----------------------------------------------------------------


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

    def ladder(self, active_since: dt.date | None = None) -> list[LadderRow]:
        """Established players by rating, then provisional ones; no one without a rated game."""
        rows = [
            p
            for p in self.players
            if p.on_ladder
            and (active_since is None or (p.last_played and p.last_played >= active_since))
        ]
        return [LadderRow(rank, p) for rank, p in enumerate(rows, start=1)]

    def by_name(self) -> list[RosterPlayer]:
        return sorted(self.players, key=lambda p: (p.name.casefold(), p.id))

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


def active_since(today: dt.date) -> dt.date:
    return today - dt.timedelta(days=ACTIVE_DAYS)


# Rosters this process built lately, by everything a roster depends on: any change to a
# name, a rating or who is on the roster bumps one of the club's versions, so an entry
# is never stale, only unused. Every page of a club starts from its roster, and a page not
# in the page cache (a player's, say) then costs a third less.
_ROSTERS_KEPT = 64
_rosters: OrderedDict[tuple[Any, ...], Roster] = OrderedDict()
_rosters_lock = threading.Lock()


def load_roster(club: Club, viewer_is_director: bool) -> Roster:
    key = (
        club.pk,
        club.secret,  # a new club that got a deleted one's id (tests, restores) has a new secret
        club.name_display,
        club.data_version,
        club.built_version,
        club.pages_version,
        viewer_is_director,
    )
    with _rosters_lock:
        roster = _rosters.get(key)
        if roster is not None:
            _rosters.move_to_end(key)
            return roster
    roster = _build_roster(club, viewer_is_director)
    with _rosters_lock:
        _rosters[key] = roster
        while len(_rosters) > _ROSTERS_KEPT:
            _rosters.popitem(last=False)
    return roster


def forget_rosters() -> None:
    """For tests, whose rolled-back databases hand out the same ids and versions again."""
    with _rosters_lock:
        _rosters.clear()


def _build_roster(club: Club, viewer_is_director: bool) -> Roster:
    rows = list(
        club.players.active()
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


# --- the player page --------------------------------------------------------------------------


@dataclass
class Record:
    """A lifetime record: games played over the board apart from byes and forfeits."""

    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    forfeits_won: int = 0
    forfeits_lost: int = 0

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    @property
    def forfeits(self) -> int:
        return self.forfeits_won + self.forfeits_lost

    def add(self, result: Result, mine: float, theirs: float) -> None:
        if result.is_bye:
            self.byes += 1
        elif result.is_played or result.is_unrated_result:
            if mine > theirs:
                self.won += 1
            elif mine < theirs:
                self.lost += 1
            else:
                self.drawn += 1
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


@dataclass(frozen=True)
class ClubRules:
    """What the player page's formulas need of the club's rating settings."""

    policy: str  # a name in ladder.policies.POLICIES
    hsb_bonus: int | None = None  # the HSB bonus per event, for HSB clubs


def club_rules(club: Club) -> ClubRules:
    try:
        settings = get_policy(club.rating_policy).parse_settings(club.rating_settings)
    except ValueError:
        # A broken setting stops the replay, which says so to the directors; the page
        # still explains the stored numbers (ladder.explain finds the bonus they used).
        return ClubRules(club.rating_policy)
    return ClubRules(club.rating_policy, getattr(settings, "bonus", None))


@dataclass(frozen=True)
class PlayerPage:
    player: RosterPlayer
    rank: int | None
    record: Record
    events: list[EventLine]  # oldest first
    rules: ClubRules = ClubRules("ladder")


def _score_symbol(result: Result, mine: float, theirs: float) -> str:
    if result.is_forfeit:
        if result == Result.NO_RESULT:
            return "*"
        return "+" if mine > theirs else "−"
    return points_text(mine)


def _as_date(value: dt.date | str) -> dt.date:
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def _json(value: str | dict | None) -> dict:
    """A JSON column read with a plain cursor: text (Django leaves decoding to the field)."""
    if value is None:
        return {}
    return json.loads(value) if isinstance(value, str) else value


def _player_rows(sql: str, params: list[object]) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _player_results(club: Club, player_id: int) -> list[tuple]:
    """The player's results in published events, oldest first, each with its event's name,
    rated flag and kind and the event's stored game outcomes (JSON text).

    Plain SQL, as for the games below: building these queries with the ORM cost more
    than running them, on a page the page cache rarely holds (there is one per player).
    """
    result, event, rated = (
        PlayerEventResult._meta.db_table,
        Event._meta.db_table,
        RatedEvent._meta.db_table,
    )
    sql = f"""
        SELECT r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating, r.k,
               r.expected, r.actual, r.change, r.post_rating, r.games_counted, re.game_outcomes
        FROM {result} r
        JOIN {event} e ON e.id = r.event_id
        LEFT JOIN {rated} re ON re.event_id = r.event_id
        WHERE r.club_id = %s AND r.player_id = %s AND e.status = %s AND e.deleted_at IS NULL
        ORDER BY r.position
    """
    return _player_rows(sql, [club.pk, player_id, Event.Status.PUBLISHED])


def _player_games(club: Club, player_id: int) -> list[tuple]:
    """Every game of the player in published events, each side once, with the opponent
    and the opponent's rating before that event:
    (game, event, round, result, side, opponent, opponent's pre-event rating)."""
    game, entry, event, result = (
        Game._meta.db_table,
        Entry._meta.db_table,
        Event._meta.db_table,
        PlayerEventResult._meta.db_table,
    )
    side = f"""
        SELECT g.id, g.event_id, g.round, g.result, %s, theirs.player_id,
               (SELECT r.pre_rating FROM {result} r
                WHERE r.event_id = g.event_id AND r.player_id = theirs.player_id)
        FROM {game} g
        JOIN {event} e ON e.id = g.event_id
        JOIN {entry} mine ON mine.id = g.{{mine}}_id
        LEFT JOIN {entry} theirs ON theirs.id = g.{{theirs}}_id
        WHERE e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL AND mine.player_id = %s
    """
    sql = (
        side.format(mine="white", theirs="black")
        + " UNION ALL "
        + side.format(mine="black", theirs="white")
    )
    published = Event.Status.PUBLISHED
    return _player_rows(
        sql,
        ["white", club.pk, published, player_id, "black", club.pk, published, player_id],
    )


def player_page(club: Club, roster: Roster, player_id: int) -> PlayerPage | None:
    player = roster.get(player_id)
    if player is None:
        return None
    events: dict[int, EventLine] = {}
    outcomes: dict[int, dict[str, list]] = {}
    for row in _player_results(club, player_id):
        event_id, name, date, rated, kind, *numbers, stored = row
        events[event_id] = EventLine(
            event_id, name, _as_date(date), rated and kind != Event.Kind.BUGHOUSE, *numbers
        )
        outcomes[event_id] = _json(stored)
    record = Record()
    result_texts = {result: str(text) for result, text in RESULT_TEXT.items()}
    reasons = {reason: str(text) for reason, text in REASON_TEXT.items()}
    games = sorted(_player_games(club, player_id), key=lambda g: (g[2], g[0]))
    for game_id, event_id, round_no, result_code, side, opponent, opponent_pre in games:
        result = Result(result_code)
        white_score, black_score = result.scores
        mine, theirs = (white_score, black_score) if side == "white" else (black_score, white_score)
        record.add(result, mine, theirs)
        event = events.get(event_id)
        if event is None:
            continue  # published after the last replay: counted above, rated soon
        stored = outcomes[event_id].get(str(game_id))
        if stored is None and result.is_forfeit:
            # A forfeit against an entrant left without a player never reaches the replay.
            stored = [False, False, UnratedReason.FORFEIT]
        counted, reason = _counted(stored, side, reasons)
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
                opponent=roster.names.get(opponent, "") if opponent else "",
                opponent_rating=opponent_pre,
                expected=expected,
                score=_score_symbol(result, mine, theirs),
                result_text=result_texts[result],
                counted=counted,
                reason=reason,
            )
        )
    return PlayerPage(
        player, roster.rank_of(player_id), record, list(events.values()), club_rules(club)
    )


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


# --- the event page ---------------------------------------------------------------------------


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
        return self.event.rated and self.event.kind != Event.Kind.BUGHOUSE


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
            cells[white_id, black_id].append(_score_symbol(result, white_score, black_score))
            cells[black_id, white_id].append(_score_symbol(result, black_score, white_score))
        shown = str(RESULT_TEXT[result])
        if variant:
            shown = VARIANT_TEXT % {"result": shown, "variant": variant}
        board = Board(len(rounds[round_no]) + 1, white, black, shown)
        rounds[round_no].append(board)

    by_player = {s.player_id: s for s in entries.values() if s.player_id is not None}
    for player_id, *numbers in PlayerEventResult.objects.filter(event=event).values_list(
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
            by_player[player_id].rating = RatingLine(*numbers)

    standings = sorted(entries.values(), key=lambda s: (-s.points, s.start_rank, s.entry_id))
    for index, standing in enumerate(standings):
        previous = standings[index - 1] if index else None
        same = previous is not None and previous.points == standing.points
        standing.rank = previous.rank if same and previous else index + 1
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


def event_summaries(club: Club) -> list[EventSummary]:
    rows = (
        club.events.published()
        .order_by("-date", "-order_in_day", "-created_at", "-id")
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
            rated and kind != Event.Kind.BUGHOUSE,
            players,
        )
        for pk, name, date, kind, rated, players in rows
    ]
