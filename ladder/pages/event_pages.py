"""The event page (standings, standings after each round, rounds, crosstable, rating changes,
performance ratings) and the list of events with their winners."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from django.db.models import Count, F, QuerySet

from clubs.models import ROUND_ROBINS, Club, Event, Game
from ladder import performance, tiebreaks
from ladder.labels.results import RESULT_LABELS
from ladder.pages.event_ratings import RatingLine, rating_lines, with_opponent_ratings
from ladder.pages.page_texts import VARIANT_TEXT, points_text, score_symbol
from ladder.pages.player_page import ClubRules, club_rules
from ladder.pages.wallchart import WallRow, wall_chart
from ladder.results import BUGHOUSE, RESULT_SCORES, Result, moves_ladder
from ladder.roster.rosters import Roster
from ladder.rules.file_ranks import file_order, file_ranking


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
    # FIDE tie-breaks (ladder.tiebreaks) in the club's order; the page shows them beside
    # the points.
    tiebreak_values: tuple[float, ...] = ()  # in the club's order (EventPage.order)
    # From the games played over the board against the opponents' ratings before the event.
    performance: int | None = None

    @property
    def points_text(self) -> str:
        return points_text(self.points)


@dataclass(frozen=True)
class Board:
    number: int
    white: Standing
    black: Standing | None
    result: str


# One crosstable row: the player and, per column, the symbols of their games against that
# column's player in round order ("1", "½", "0", "+", "−", "*"); None on the diagonal.
CrosstableRow = tuple[Standing, list[tuple[str, ...] | None]]


@dataclass(frozen=True)
class EventPage:
    event: Event
    standings: list[Standing]  # after round `after`, or the final standings
    rounds: list[tuple[int, list[Board]]]
    crosstable: list[CrosstableRow] | None
    rating_changes: list[Standing]
    after: int | None = None  # None: the final standings
    last_round: int = 0
    # The club's tie-breaks, in its order: the standings' columns after the points.
    order: Sequence[tiebreaks.Tiebreak] = tiebreaks.DEFAULT_ORDER
    # The final standings are the tournament file's ranks (ladder.rules.file_ranks); the tie-break
    # columns still show the club's tie-breaks as computed.
    ranks_from_file: bool = False
    # ... and the club's tie-breaks would break some tie otherwise: their columns are left out.
    hides_tiebreaks: bool = False
    # What the rating-changes table's written sums need of the club's rating settings.
    club_rules: ClubRules | None = None
    # A Swiss event's wall chart (ladder.pages.wallchart): its rounds, and each final standing
    # with its row. None for a round robin, which has its crosstable.
    wallchart_rounds: Sequence[int] = ()
    wallchart: list[tuple[Standing, WallRow]] | None = None

    @property
    def rated(self) -> bool:
        return self.event.moves_ladder

    @property
    def shows_performance(self) -> bool:
        # Bughouse is a team game: a rating performance of its boards means nothing.
        return self.event.kind != BUGHOUSE

    @property
    def round_numbers(self) -> list[int]:
        """The rounds whose standings a visitor can ask for (the last one is the final)."""
        return list(range(1, self.last_round))


# (round, white entry, black entry or None, result code, variant)
GameRow = tuple[int, int, int | None, str, str]

# ?after= as the page accepts it: a plain number, at most four digits (int() would also read
# "٣" or " 3", which no link of ours ever writes).
_ROUND_PARAM = re.compile(r"[1-9][0-9]{0,3}")


def read_after(value: str | None) -> int | None:
    """The round of ?after=, or None (the final standings) for anything else."""
    if value is None or not _ROUND_PARAM.fullmatch(value):
        return None
    return int(value)


def club_order(club: Club) -> Sequence[tiebreaks.Tiebreak]:
    """The tie-breaks the club's standings use, in its order (FIDE's default when it chose
    none; a stored order this version cannot read, too, rather than a broken page)."""
    try:
        return tiebreaks.parse_order(club.tiebreak_order or [])
    except ValueError:
        return tiebreaks.DEFAULT_ORDER


def event_page(
    event: Event, roster: Roster, unconfirmed: str, after: int | None = None
) -> EventPage:
    """The page of `event`; with `after`, its standings after that round (a round outside
    the event's, or its last, gives the final standings)."""
    entries = list(event.entries.values_list("id", "player_id", "start_rank", "rank_in_file"))
    # A player the roster leaves out (held: a club night's newcomer on its live page) is
    # neither named nor linked.
    people = {
        entry_id: (
            player_id if player_id in roster.names else None,
            roster.names.get(player_id, unconfirmed) if player_id else unconfirmed,
            start_rank or 0,
        )
        for entry_id, player_id, start_rank, _file_rank in entries
    }
    file_ranks = {entry_id: file_rank for entry_id, _p, _s, file_rank in entries}
    # A club night's games in board order, its bye last as on the pairing sheet and the
    # live page (a bye's game is made when the round is paired, before any board's result);
    # games without a board (an upload, a requested bye) in the order they were stored.
    games: list[GameRow] = list(
        event.games.order_by("round", F("board__number").asc(nulls_last=True), "id").values_list(
            "round", "white_id", "black_id", "result", "variant"
        )
    )
    ratings = rating_lines(event)
    rating_rules = club_rules(event.club, kind=event.kind)  # of the ladder its kind feeds
    if rating_rules.policy == "hsb" and ratings:
        ratings = with_opponent_ratings(event, ratings)
    rules = Tiebreaks(
        club_order(event.club),
        round_robin=is_round_robin(event.pairing_system, games),
        rules=tiebreaks.rules_on(event.date),
    )
    final = _standings(people, games, ratings, rules)
    in_file_order = _in_file_order(final, games, file_ranks)
    if in_file_order is not None:
        final = in_file_order
    last_round = max((g[0] for g in games), default=0)
    if after is not None and not 1 <= after < last_round:
        after = None
    shown = final
    if after is not None:
        shown = _standings(people, [g for g in games if g[0] <= after], ratings, rules)

    by_entry = {s.entry_id: s for s in final}
    rounds: dict[int, list[Board]] = defaultdict(list)
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for round_no, white_id, black_id, result_code, variant in games:
        result = Result(result_code)
        white, black = by_entry[white_id], by_entry[black_id] if black_id else None
        if black_id is not None:
            white_score, black_score = result.scores
            cells[white_id, black_id].append(score_symbol(result, white_score, black_score))
            cells[black_id, white_id].append(score_symbol(result, black_score, white_score))
        shown_result = str(RESULT_LABELS[result].text)
        if variant:
            shown_result = VARIANT_TEXT % {"result": shown_result, "variant": variant}
        rounds[round_no].append(Board(len(rounds[round_no]) + 1, white, black, shown_result))

    order = rules.order
    hides_tiebreaks = False
    if in_file_order is not None and after is None and not _ties_agree(final):
        # The file broke some tie otherwise than the club's tie-breaks would: columns of
        # those would contradict the ranks beside them, so the page leaves them out.
        order, hides_tiebreaks = (), True
        for standing in final:
            standing.tiebreak_values = ()
    changes = sorted(
        (s for s in final if s.rating is not None),
        key=lambda s: (-s.rating.change if s.rating else 0, s.rank),
    )
    page = EventPage(
        event=event,
        standings=shown,
        rounds=sorted(rounds.items()),
        crosstable=_crosstable(final, cells) if rules.round_robin else None,
        rating_changes=changes,
        after=after,
        last_round=last_round,
        order=order,
        ranks_from_file=in_file_order is not None and after is None,
        hides_tiebreaks=hides_tiebreaks,
        club_rules=rating_rules,
    )
    if rules.round_robin or not games:
        return page
    chart_rounds, chart_rows = wall_chart([s.entry_id for s in final], games)
    chart = list(zip(final, chart_rows, strict=True))
    return replace(page, wallchart_rounds=chart_rounds, wallchart=chart)


def _ties_agree(in_file_order: list[Standing]) -> bool:
    """Whether each pair of neighbours on equal points is in the order the club's
    tie-breaks give (their values, compared in the club's order)."""
    return all(
        a.points != b.points or a.tiebreak_values >= b.tiebreak_values
        for a, b in pairwise(in_file_order)
    )


def _in_file_order(
    standings: list[Standing], games: Sequence[GameRow], file_ranks: Mapping[int, int | None]
) -> list[Standing] | None:
    """The final standings in the file's order and with its ranks, when ladder.rules.file_ranks
    trusts them; entrants without a game follow, sharing the next rank."""
    by_entry = {s.entry_id: s for s in standings}
    with_game = {e for _r, white, black, _c, _v in games for e in (white, black) if e is not None}
    points = {s.entry_id: s.points for s in standings}
    ranking = file_ranking([s.entry_id for s in standings], points, with_game, file_ranks)
    if ranking is None:
        return None
    for entry, rank in ranking:
        by_entry[entry].rank = rank
    return [by_entry[entry] for entry, _rank in ranking]


def _standings(
    people: Mapping[int, tuple[int | None, str, int]],
    games: Sequence[GameRow],
    ratings: Mapping[int, RatingLine],
    rules: Tiebreaks,
) -> list[Standing]:
    """Points, counts and performances from `games`, ranked by points then the club's tie-breaks."""
    entries = {
        entry_id: Standing(entry_id, player_id, name, start_rank)
        for entry_id, (player_id, name, start_rank) in people.items()
    }
    for _round, white_id, black_id, result_code, _variant in games:
        result = Result(result_code)
        white, black = entries[white_id], entries[black_id] if black_id else None
        white_score, black_score = result.scores
        white.points += white_score
        _tally(white, result)
        if black is not None:
            black.points += black_score
            _tally(black, result)
    # Against the opponents' ratings before the event, in standard chess only: a variant
    # says nothing of strength at chess (performance.event_performances leaves out the rest).
    lines = {
        s.entry_id: ratings.get(s.player_id) if s.player_id else None for s in entries.values()
    }
    before = {entry: line.pre_rating if line else None for entry, line in lines.items()}
    performances = performance.event_performances(
        (tiebreaks.Game(r, w, b, Result(code)) for r, w, b, code, variant in games if not variant),
        before,
    )
    for standing in entries.values():
        if standing.player_id is not None:
            standing.rating = ratings.get(standing.player_id)
        standing.performance = performances.get(standing.entry_id)
    return _ranked(entries, games, rules)


def _ranked(
    entries: dict[int, Standing], games: Sequence[GameRow], rules: Tiebreaks
) -> list[Standing]:
    """Points, then the club's tie-breaks; players still tied share a rank.

    The tie-breaks are computed from the games already loaded (no query); the file's own
    ranks, when the page follows them, replace the ranks afterwards (`_in_file_order`)."""
    in_start_order = sorted(entries.values(), key=lambda s: (s.start_rank, s.entry_id))
    values = rules.compute([s.entry_id for s in in_start_order], games)
    standings = []
    for value in values:
        standing = entries[value.player]
        standing.rank = value.rank
        standing.tiebreak_values = tuple(value.value(t) for t in rules.order)
        standings.append(standing)
    return standings


def _tally(standing: Standing, result: Result) -> None:
    if result.is_bye:
        standing.byes += 1
    elif result.is_forfeit:
        standing.forfeits += 1
    else:
        standing.played += 1


def is_round_robin(system: str, games: Iterable[GameRow]) -> bool:
    """A club night knows whether it is a round robin (its table is fixed before a game is
    played, so also half-way and with a withdrawal); an upload is one when its games say so."""
    return system in ROUND_ROBINS if system else round_robin(games)


def round_robin(games: Iterable[GameRow]) -> bool:
    """Whether the games are a round robin: at least three players, every pair of them met,
    and each pair the same number of times (once in a single round robin, twice in a
    double one). Byes do not count; a forfeit is a meeting (its pairing was made)."""
    met: dict[frozenset[int], int] = defaultdict(int)
    players: set[int] = set()
    for _round, white, black, _code, _variant in games:
        if black is not None and black != white:
            met[frozenset((white, black))] += 1
            players.update((white, black))
    pairs = len(players) * (len(players) - 1) // 2
    return len(players) >= 3 and len(met) == pairs and len(set(met.values())) == 1


def _crosstable(
    standings: list[Standing], cells: dict[tuple[int, int], list[str]]
) -> list[CrosstableRow]:
    """Rows and columns in standings order; each cell the row player's results against the
    column player, in round order."""
    players = [s for s in standings if s.played or s.forfeits]
    ids = [s.entry_id for s in players]
    return [
        (s, [tuple(cells[s.entry_id, b]) if s.entry_id != b else None for b in ids])
        for s in players
    ]


@dataclass(frozen=True)
class Tiebreaks:
    """How an event's ties are broken: the club's order, and whether the event is a round
    robin (its pairings fixed in advance, so a forfeit counts as a game: C.07 art. 16)."""

    order: Sequence[tiebreaks.Tiebreak]
    round_robin: bool = False
    rules: tiebreaks.Rules = tiebreaks.Rules.FIDE_2026  # tiebreaks.rules_on(the event's date)

    def compute(
        self, entrants: Sequence[int], games: Iterable[GameRow], *, leaders_only: bool = False
    ) -> list[tiebreaks.Values]:
        return tiebreaks.compute(
            entrants,
            (
                tiebreaks.Game(round_no, white, black, Result(code))
                for round_no, white, black, code, _variant in games
            ),
            self.order,
            round_robin=self.round_robin,
            rules=self.rules,
            leaders_only=leaders_only,
        )


# --- the list of events and the sitemap -------------------------------------------------------


@dataclass(frozen=True)
class Winner:
    player_id: int | None  # None: an entrant not yet matched to a player of the roster
    name: str


@dataclass(frozen=True)
class EventSummary:
    id: int
    name: str
    date: dt.date
    kind: str  # the kind's label in the page's language
    rated: bool  # rated by the director and not bughouse: the event moves the ladder
    players: int
    # Rank 1 after the tie-breaks: more than one when they share first place; none
    # before any game.
    winners: tuple[Winner, ...] = ()


def event_summaries(
    club: Club, kind: str | None = None, roster: Roster | None = None, unconfirmed: str = ""
) -> list[EventSummary]:
    """The club's published events, newest first; only those of `kind` when given. With
    the club's `roster`, each with its winners (one more query for every event's games)."""
    events = club.events.published()
    if kind:
        events = events.filter(kind=kind)
    rows = (
        events.order_by("-date", "-order_in_day", "-created_at", "-id")
        .annotate(players=Count("entries"))
        .values_list("id", "name", "date", "kind", "rated", "players")
    )
    labels = dict(Event.Kind.choices)
    winners = {} if roster is None else _winners(events, roster, unconfirmed, club_order(club))
    return [
        EventSummary(
            pk,
            name,
            date,
            str(labels.get(kind, kind)),
            moves_ladder(rated, kind),
            players,
            winners.get(pk, ()),
        )
        for pk, name, date, kind, rated, players in rows
    ]


def _winners(
    events: QuerySet[Event], roster: Roster, unconfirmed: str, order: Sequence[tiebreaks.Tiebreak]
) -> dict[int, tuple[Winner, ...]]:
    """Every event's rank-1 players, from one query over all their games.

    Entrants without a game are left out: they have no points and cannot be first
    while anyone scored, and when nobody scored there is no winner to show."""
    games: dict[int, list[GameRow]] = defaultdict(list)
    player_of: dict[int, int | None] = {}
    file_ranks: dict[int, int | None] = {}
    dates: dict[int, dt.date] = {}
    systems: dict[int, str] = {}
    for row in (
        Game.objects.filter(event__in=events.values("id"))
        .order_by("event_id", "round", "id")
        .values_list(
            "event_id",
            "round",
            "white_id",
            "black_id",
            "result",
            "white__player_id",
            "black__player_id",
            "event__date",
            "white__rank_in_file",
            "black__rank_in_file",
            "event__pairing_system",
        )
    ):
        event_id, round_no, white, black, code, white_player, black_player, day = row[:8]
        games[event_id].append((round_no, white, black, code, ""))
        dates[event_id], systems[event_id] = day, row[10]
        player_of[white], file_ranks[white] = white_player, row[8]
        if black is not None:
            player_of[black], file_ranks[black] = black_player, row[9]
    found: dict[int, tuple[Winner, ...]] = {}
    for event_id, rows in games.items():
        first = first_place(
            rows, order, tiebreaks.rules_on(dates[event_id]), file_ranks, systems[event_id]
        )
        if first:
            found[event_id] = tuple(_winner(player_of[e], roster, unconfirmed) for e in first)
    return found


def first_place(
    games: Sequence[GameRow],
    order: Sequence[tiebreaks.Tiebreak],
    rules: tiebreaks.Rules = tiebreaks.Rules.FIDE_2026,
    file_ranks: Mapping[int, int | None] | None = None,
    system: str = "",
) -> list[int]:
    """The entries ranked first; none when nobody scored. The file's rank 1 when the event
    page follows the file's ranks (`file_ranks` of every entry, ladder.rules.file_ranks).

    A sole leader on points needs no tie-break: the points alone say so, for a few
    microseconds instead of the milliseconds of every entrant's tie-breaks (a list of
    300 events computes them only for the events whose lead is shared)."""
    points: dict[int, float] = defaultdict(float)
    for _round, white, black, code, _variant in games:
        white_points, black_points = RESULT_SCORES[Result(code)]
        points[white] += white_points
        if black is not None:
            points[black] += black_points
    best = max(points.values(), default=0.0)
    if best == 0:
        return []
    if file_ranks is not None:
        in_file_order = file_order(points, file_ranks)
        if in_file_order is not None:
            return in_file_order[:1]
    leaders = [entry for entry, score in points.items() if score == best]
    if len(leaders) == 1:
        return leaders
    values = Tiebreaks(order, is_round_robin(system, games), rules).compute(
        sorted(points), games, leaders_only=True
    )
    return [v.player for v in values if v.rank == 1]


def _winner(player_id: int | None, roster: Roster, unconfirmed: str) -> Winner:
    name = roster.names.get(player_id) if player_id is not None else None
    # A player no longer on the roster (merged, erased) has no page to link to.
    return Winner(player_id, name) if name is not None else Winner(None, unconfirmed)
