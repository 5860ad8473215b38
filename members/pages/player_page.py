"""The player page: the player's stored lifetime (one row the replay sums, ladder/lifetime.py)
and the events it writes out with their games (one query), ladder/store/players.py's reads."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field, replace
from typing import Any

from clubs.labels.results import RESULT_LABELS
from clubs.models import Club, Event, Ladder
from clubs.results import moves_ladder
from ladder import lifetime
from ladder.lifetime import Record, Timeline, YearSummary, years_of
from ladder.page_texts import REASON_TEXT, UNKNOWN_REASON_TEXT, score_symbol
from ladder.player_stats import GameSummaries, KindSummary
from ladder.policies import get_policy
from ladder.policies.ladder import expected_score
from ladder.roster.rosters import Roster, RosterPlayer
from ladder.store import players as store_players

__all__ = ["Record", "YearSummary"]  # where the tests and tables have always found them


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
    position: int = 0  # in its ladder's rated history: where the chart's line puts it
    # The ladder the event fed: each ladder's events chain on their own (members.web.ladder_parts).
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
        # still explains the stored numbers (ladder.explain finds the bonus they used).
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

    def window(self) -> tuple[dt.date | None, dt.date | None, int | None]:
        """What `pick` picks, as the query asks for it: from, to, how many of the newest."""
        if self.year is not None:
            return dt.date(self.year, 1, 1), dt.date(self.year, 12, 31), None
        return self.since, None, self.limit or None


def year_summaries(events: list[EventLine]) -> list[YearSummary]:
    """Each year the player played in, newest first."""
    return years_of((e.date, e.post_rating) for e in events)


@dataclass(frozen=True)
class PlayerPage:
    player: RosterPlayer
    rank: int | None
    record: Record
    events: list[EventLine]  # the events this page writes out in full, oldest first
    rules: ClubRules = ClubRules("ladder")
    summaries: GameSummaries = field(default_factory=GameSummaries)
    # The outline of every event of the player: for the chart, the lifetime sums and the
    # links to the year pages.
    timeline: Timeline = field(default_factory=Timeline)
    shown: Shown = Shown()

    @property
    def counted_here(self) -> int:
        """Rated games in this club's events (the rest came with the starting rating)."""
        return self.timeline.counted

    @property
    def years(self) -> list[YearSummary]:
        return list(self.timeline.years)

    @property
    def folded(self) -> int:
        """Events of the player not written out on this page (they are on their years')."""
        return self.timeline.events - len(self.events)

    @property
    def starts_history(self) -> bool:
        """Whether this page's first event is the player's first: its rating before it is
        the starting rating."""
        first = self.timeline.first
        return bool(self.events) and first is not None and self.events[0].event_id == first[0]

    @property
    def brought_in(self) -> int:
        return max(self.player.rated_games - self.counted_here, 0)

    @property
    def kinds(self) -> list[KindSummary]:
        return self.summaries.by_kind([kind.value for kind in Event.Kind])


def player_page(
    club: Club, roster: Roster, player_id: int, shown: Shown | None = None
) -> PlayerPage | None:
    """The player's page; `shown` picks the events written out in full (all by default).
    The lifetime record and summaries always count every game."""
    player = roster.get(player_id)
    if player is None:
        return None
    shown = shown or Shown()
    stored = store_players.stored_record(player_id) if club.ladder_is_current else None
    if stored is None:
        # A short history (lifetime.STORED_FROM_EVENTS), a change waiting for its replay
        # (which sums the lifetimes again), or no replay has summed this player yet:
        # summed here from every game, as the replay would.
        return _summed_here(club, roster, player, shown)
    life = lifetime.from_json(stored, roster.names)
    best = life.summaries.best
    since, until, limit = shown.window()
    rows = store_players.shown_rows(
        club.pk,
        player_id,
        since=since,
        until=until,
        limit=limit,
        also=None if best is None else best.event_id,
    )
    events: dict[int, EventLine] = {}
    outcomes: dict[int, dict[str, list[Any]]] = {}
    add = _GameAdder(roster)
    for kind, *result, stored_outcomes, game_id, round_no, code, side, opponent, pre, on in rows:
        if kind == 1:
            events[result[0]] = _event_line(result, on)
            outcomes[result[0]] = store_players.as_json(stored_outcomes)
        elif kind == 2:
            event_id = result[0]
            add(events[event_id], outcomes[event_id], game_id, round_no, code, side, opponent, pre)
        elif best is not None:
            life.summaries.best = replace(best, event=result[1])
    return _page(club, roster, player, life, list(events.values()), shown)


def _summed_here(club: Club, roster: Roster, player: RosterPlayer, shown: Shown) -> PlayerPage:
    mine, played, outcomes, ladders = store_players.player_rows(club.pk, player.id)
    summed = lifetime.summarise(mine, played, outcomes)
    life = lifetime.from_json(lifetime.to_json(summed), roster.names)
    lines = [_event_line(row, ladders.get(row[0])) for row in mine]
    best = life.summaries.best
    if best is not None:
        name = next(e.name for e in lines if e.event_id == best.event_id)
        life.summaries.best = replace(best, event=name)
    picked = shown.pick(lines)
    written = {e.event_id: e for e in picked}
    add = _GameAdder(roster)
    for game_id, event_id, round_no, code, side, opponent, pre, _kind in played:
        event = written.get(event_id)
        if event is not None:
            add(event, outcomes.get(event_id, {}), game_id, round_no, code, side, opponent, pre)
    return _page(club, roster, player, life, picked, shown)


def _page(
    club: Club,
    roster: Roster,
    player: RosterPlayer,
    life: lifetime.Lifetime,
    events: list[EventLine],
    shown: Shown,
) -> PlayerPage:
    return PlayerPage(
        player,
        roster.rank_of(player.id),
        life.record,
        events,
        club_rules(club),
        life.summaries,
        life.timeline,
        shown,
    )


def ladder_timelines(club: Club, player_id: int) -> dict[int, Timeline]:
    """The outline of the player's history on each ladder they played on ({ladder: its
    timeline}): a club with several ladders shows each in its own part of the page."""
    rows = store_players.ladder_results(club.pk, player_id)
    return {ladder_id: lifetime.timeline_of(results) for ladder_id, results in rows.items()}


def _event_line(row: Any, ladder_id: int | None = None) -> EventLine:
    """An event as the page writes it, from the columns of ladder.lifetime.ResultRow and
    the ladder it fed."""
    event_id, name, date, rated, kind, pre, k, expected, actual, change, post, counted, at = row
    day = store_players.as_date(date)
    moves = moves_ladder(rated, kind)
    numbers = (pre, k, expected, actual, change, post, counted)
    return EventLine(event_id, name, day, moves, *numbers, position=at, ladder_id=ladder_id)


class _GameAdder:
    """Writes one game into its event's lines: what the breakdown's table shows of it."""

    def __init__(self, roster: Roster) -> None:
        self.names = roster.names
        self.facts = lifetime.result_facts()
        self.texts = {result: str(label.text) for result, label in RESULT_LABELS.items()}
        self.reasons = {reason: str(text) for reason, text in REASON_TEXT.items()}

    def __call__(
        self,
        event: EventLine,
        outcomes: dict[str, list[Any]],
        game_id: int,
        round_no: int,
        code: str,
        side: str,
        opponent: int | None,
        opponent_pre: float | None,
    ) -> None:
        result, white_score, black_score, _ = self.facts[code]
        mine, theirs = (white_score, black_score) if side == "white" else (black_score, white_score)
        stored = lifetime.game_outcome(outcomes, game_id, result)
        counted, reason = _counted(stored, side, self.reasons)
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
                opponent=self.names.get(opponent, "") if opponent else "",
                opponent_rating=opponent_pre,
                expected=expected,
                score=score_symbol(result, mine, theirs),
                result_text=self.texts[result],
                counted=counted,
                reason=reason,
            )
        )


def _counted(outcome: list | None, side: str, reasons: dict[str, str]) -> tuple[bool, str]:
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
