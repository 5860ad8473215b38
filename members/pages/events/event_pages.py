"""The event page (standings, standings after each round, crosstable, rating changes,
performance ratings), the wall chart and a large event's rating changes on pages of their
own, and the list of events with their winners. The rounds board by board are
members.pages.events.event_rounds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from clubs.models import Event
from clubs.results import BUGHOUSE, Result
from ladder import standings, tiebreaks
from ladder.event_ratings import RatingLine, rating_lines, with_opponent_ratings

# Tiebreaks, club_order, is_round_robin, read_after and round_robin are used from here too.
from ladder.event_rules import (
    BOARDS_ON_ONE_PAGE,
    CHANGES_ON_EVENT_PAGE,
    ROWS_PER_PAGE,
)
from ladder.event_rules import GameRow as GameRow
from ladder.event_rules import Tiebreaks as Tiebreaks
from ladder.event_rules import club_order as club_order
from ladder.event_rules import is_round_robin as is_round_robin
from ladder.event_rules import read_after as read_after
from ladder.event_rules import round_robin as round_robin
from ladder.page_texts import score_symbol
from ladder.roster.rosters import Roster
from ladder.standings import Standing as Standing
from ladder.store import standings as standings_store

# The list of events' first place, asked of here by its tests.
from members.pages.events.event_list import first_place as first_place
from members.pages.events.wallchart import WallRow, wall_chart
from members.pages.player_page import ClubRules, club_rules

# One crosstable row: the player and, per column, the symbols of their games against that
# column's player in round order ("1", "½", "0", "+", "−", "*"); None on the diagonal.
CrosstableRow = tuple[Standing, list[tuple[str, ...] | None]]


@dataclass(frozen=True)
class EventPage:
    event: Event
    standings: list[Standing]  # after round `after`, or the final standings
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
    # A Swiss event's wall chart (members.pages.events.wallchart), on its own page: its rounds, and
    # each final standing with its row. None for a round robin, which has its crosstable, and
    # on the event page.
    wallchart_rounds: Sequence[int] = ()
    wallchart: list[tuple[Standing, WallRow]] | None = None
    # Whether the event has a wall chart (a Swiss with games), built or not.
    has_wallchart: bool = False
    # The rounds with a game, each on the rounds' own page (members.pages.events.event_rounds), and
    # whether that page may show them all at once (event_rules.BOARDS_ON_ONE_PAGE).
    rounds_played: tuple[int, ...] = ()
    rounds_fit_one_page: bool = True
    # The rating changes are on a page of their own (event_rules.CHANGES_ON_EVENT_PAGE).
    changes_apart: bool = False
    # The final standings were not wholly the kept row's where one could serve them (a
    # published event of standings.KEPT_FROM_ENTRANTS entrants or more whose row is missing
    # or of other inputs): the view queues its keeping (jobs.enqueue_event_standings).
    keep_missed: bool = False
    # The rows shown of the standings, rating changes and wall chart (`paged`): page `page_no`
    # of `pages`, each of event_rules.ROWS_PER_PAGE of the `rows` entrants.
    page_no: int = 1
    pages: int = 1
    rows: int = 0

    @property
    def page_links(self) -> list[tuple[int, int, int]]:
        """Each page's number and its first and last row (rank order), for the pager."""
        return [
            (number, first + 1, min(first + ROWS_PER_PAGE, self.rows))
            for number, first in enumerate(range(0, self.rows, ROWS_PER_PAGE), start=1)
        ]

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


def entrants(
    event: Event, roster: Roster, unconfirmed: str
) -> dict[int, tuple[int | None, str, int, int | None]]:
    """Each entry's player (None when the page may not link them), shown name, start rank and
    rank in the tournament file, by entry id."""
    entries = standings_store.event_entries(event.pk)
    # A player the roster leaves out (held: a club night's newcomer on its live page) is
    # neither named nor linked.
    return {
        entry_id: (
            player_id if player_id in roster.names else None,
            roster.names.get(player_id, unconfirmed) if player_id else unconfirmed,
            start_rank or 0,
            file_rank,
        )
        for entry_id, player_id, start_rank, file_rank in entries
    }


def event_games(event: Event) -> list[GameRow]:
    """A club night's games in board order, its bye last as on the pairing sheet and the
    live page (a bye's game is made when the round is paired, before any board's result);
    games without a board (an upload, a requested bye) in the order they were stored."""
    return standings_store.event_games(event.pk)


def event_page(
    event: Event,
    roster: Roster,
    unconfirmed: str,
    after: int | None = None,
    *,
    wallchart: bool = False,
) -> EventPage:
    """The page of `event`; with `after`, its standings after that round (a round outside
    the event's, or its last, gives the final standings). With `wallchart`, a Swiss event's
    wall chart too (its own page: members.web.views.event_wallchart)."""
    found = entrants(event, roster, unconfirmed)
    people = {entry: (player, name, start) for entry, (player, name, start, _f) in found.items()}
    file_ranks = {entry_id: file_rank for entry_id, (_p, _n, _s, file_rank) in found.items()}
    games = event_games(event)
    ratings = rating_lines(event)
    rating_rules = club_rules(event.club, kind=event.kind)  # of the ladder its kind feeds
    if rating_rules.policy == "hsb" and ratings:
        ratings = with_opponent_ratings(event, ratings)
    rules = event_tiebreaks(event)
    ranked, keep_missed = _final_standings(event, people, games, rules, file_ranks, ratings)
    # Uploaded results that form an all-play-all show its crosstable even when their file did
    # not call them a round robin (their tie-breaks are then a Swiss's: is_round_robin); a
    # club night shows what its system is.
    all_play_all = rules.round_robin or (not event.pairing_system and round_robin(games))
    final = ranked.standings
    last_round = max((g[0] for g in games), default=0)
    if after is not None and not 1 <= after < last_round:
        after = None
    shown = final
    if after is not None:
        shown = standings.standings(people, [g for g in games if g[0] <= after], ratings, rules)
    # The file's ranks and the tie-breaks it leaves out are the final standings'.
    hides_tiebreaks = ranked.hides_tiebreaks and after is None
    changes = sorted(
        (s for s in final if s.rating is not None),
        key=lambda s: (-s.rating.change if s.rating else 0, s.rank),
    )
    page = EventPage(
        event=event,
        standings=shown,
        crosstable=_crosstable(final, games) if all_play_all else None,
        rating_changes=changes,
        after=after,
        last_round=last_round,
        order=() if hides_tiebreaks else rules.order,
        ranks_from_file=ranked.ranks_from_file and after is None,
        hides_tiebreaks=hides_tiebreaks,
        club_rules=rating_rules,
        has_wallchart=not all_play_all and bool(games),
        rounds_played=tuple(sorted({g[0] for g in games})),
        rounds_fit_one_page=len(games) <= BOARDS_ON_ONE_PAGE,
        changes_apart=len(changes) > CHANGES_ON_EVENT_PAGE,
        keep_missed=keep_missed,
    )
    if not wallchart or not page.has_wallchart:
        return page
    chart_rounds, chart_rows = wall_chart([s.entry_id for s in final], games)
    chart = list(zip(final, chart_rows, strict=True))
    return replace(page, wallchart_rounds=chart_rounds, wallchart=chart)


def event_tiebreaks(event: Event) -> Tiebreaks:
    """How the event's ties are broken: the club's order, whether it is a round robin (as
    its file or its pairing system says), the regulations of its date."""
    return Tiebreaks(
        club_order(event.club),
        round_robin=is_round_robin(event.pairing_system, event.round_robin),
        rules=tiebreaks.rules_on(event.date),
    )


def final_ranking(event: Event) -> standings.Ranked:
    """The event's final ranking as its page shows it (without rating lines): by the club's
    tie-breaks, or the file's own ranks where the page follows them. The one ranking the
    page, the `standings` command and the TRF export's place column share (issue 33)."""
    entries = standings_store.event_entries(event.pk)
    people = {entry: (player, "", start or 0) for entry, player, start, _rank in entries}
    file_ranks = {entry: rank for entry, _player, _start, rank in entries}
    return standings.final_standings(people, event_games(event), event_tiebreaks(event), file_ranks)


def _final_standings(
    event: Event,
    people: standings.People,
    games: Sequence[GameRow],
    rules: Tiebreaks,
    file_ranks: Mapping[int, int | None],
    ratings: Mapping[int, RatingLine],
) -> tuple[standings.Ranked, bool]:
    """The final standings with their rating lines and performances: as kept after the last
    replay (ladder.replay.keep_standings) while they were computed from these very games,
    entries and lines, else ranked now; and whether a kept row should have served them (the
    event is kept, but its row is missing or of other inputs)."""
    # Read at call time, as keep_standings reads it (tests set it lower).
    keepable = event.is_published and len(people) >= standings.KEPT_FROM_ENTRANTS
    kept = standings_store.kept(event) if event.is_published else None
    if kept is not None:
        entries = {e: (start, file_ranks[e], player) for e, (player, _n, start) in people.items()}
        if kept.inputs == standings.inputs(games, entries, rules, ratings):
            ranked = standings.decoded(
                kept.rows, people, kept.ranks_from_file, kept.hides_tiebreaks, ratings
            )
            if ranked is not None:
                return ranked, False
        elif kept.ranking == standings.ranking_inputs(games, entries, rules):
            # Only the rating lines moved since (a correction to an earlier event): the
            # ranks hold, the lines' part is worked out now, until the row is kept again.
            ranked = standings.rerated(
                kept.rows, people, kept.ranks_from_file, kept.hides_tiebreaks, games, ratings
            )
            if ranked is not None:
                return ranked, keepable
    ranked = standings.final_standings(people, games, rules, file_ranks)
    standings.rate(ranked.standings, games, ratings)
    return ranked, keepable


def paged(page: EventPage, number: int | None) -> EventPage:
    """Page `number` (the first for None or one past the last) of the standings, the rating
    changes and the wall chart, ROWS_PER_PAGE rows each."""
    rows = len(page.standings)
    pages = max(1, -(-rows // ROWS_PER_PAGE))
    number = number if number is not None and 1 <= number <= pages else 1
    cut = slice((number - 1) * ROWS_PER_PAGE, number * ROWS_PER_PAGE)
    return replace(
        page,
        standings=page.standings[cut],
        rating_changes=page.rating_changes[cut],
        wallchart=page.wallchart[cut] if page.wallchart is not None else None,
        page_no=number,
        pages=pages,
        rows=rows,
    )


def _crosstable(standings: list[Standing], games: Sequence[GameRow]) -> list[CrosstableRow]:
    """Rows and columns in standings order; each cell the row player's results against the
    column player, in round order."""
    cells: dict[tuple[int, int], list[str]] = defaultdict(list)
    for _round, white_id, black_id, result_code, _variant in games:
        if black_id is not None:
            result = Result(result_code)
            white_score, black_score = result.scores
            cells[white_id, black_id].append(score_symbol(result, white_score, black_score))
            cells[black_id, white_id].append(score_symbol(result, black_score, white_score))
    players = [s for s in standings if s.played or s.forfeits]
    ids = [s.entry_id for s in players]
    return [
        (s, [tuple(cells[s.entry_id, b]) if s.entry_id != b else None for b in ids])
        for s in players
    ]
