"""The list of events, a page at a time, newest first, each event with its winners (issue 18):
rank 1 after the club's tie-breaks, computed from the games and kept per process by the
club's versions (issue 34). The season pages read the whole list (members.seasons)."""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from django.db.models import Count, OuterRef, QuerySet, Subquery, Window
from django.db.models.functions import Coalesce

from clubs.models import Club, Entry, Event, Game
from clubs.results import RESULT_SCORES, Result, moves_ladder
from ladder import tiebreaks
from ladder.event_rules import GameRow, Tiebreaks, club_order, is_round_robin
from ladder.roster.rosters import Roster
from ladder.rules.file_ranks import file_order


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


# The list of events shows this many a page (?page=N), newest first: a club of 3,000 events
# was one page of 668 KB, half a second of CPU per build (issue 34); a page of 100 is about
# 25 KB, and a club playing weekly sees two years of events on the first.
EVENTS_PER_PAGE = 100


@dataclass(frozen=True)
class EventsPage:
    """One page of the list of events: its events and where they stand in the whole list."""

    events: list[EventSummary]
    page_no: int
    pages: int
    total: int  # the events of the list (of the kind asked for), on every page

    @property
    def first(self) -> int:
        """The position of the page's first event in the list (1 for the newest); 0 on the
        page of an empty list."""
        return (self.page_no - 1) * EVENTS_PER_PAGE + 1 if self.events else 0

    @property
    def last(self) -> int:
        return self.first + len(self.events) - 1 if self.events else 0

    @property
    def newest(self) -> dt.date | None:
        return self.events[0].date if self.events else None

    @property
    def oldest(self) -> dt.date | None:
        return self.events[-1].date if self.events else None

    @property
    def page_numbers(self) -> range:
        return range(1, self.pages + 1)


def event_summaries(
    club: Club, kind: str | None = None, roster: Roster | None = None, unconfirmed: str = ""
) -> list[EventSummary]:
    """The club's published events, newest first; only those of `kind` when given. With
    the club's `roster`, each with its winners (one more query for every event's games)."""
    events = _listed(club, kind)
    listed = _summaries(list(_summary_rows(events)))
    if roster is None or not listed:
        return listed
    winners = winners_of(events, roster, unconfirmed, club_order(club))
    return [replace(e, winners=winners.get(e.id, ())) for e in listed]


def events_page(
    club: Club,
    kind: str | None,
    roster: Roster,
    unconfirmed: str,
    number: int | None,
    versions: tuple[object, ...],
) -> EventsPage:
    """Page `number` of the list (the first for None or one past the last), EVENTS_PER_PAGE
    events with their winners: the page's rows, counting the whole list as they go, and the
    games of those of its events whose first places are not kept for `versions` (see
    `kept_first_players`); one more query for a page past the last."""
    events = _listed(club, kind)
    number = number if number is not None and number >= 1 else 1
    rows = _page_rows(events, number)
    if not rows and number > 1:  # past the last page (or the list shrank): the first
        number, rows = 1, _page_rows(events, 1)
    total = rows[0][6] if rows else 0
    firsts = kept_first_players(club, versions, [row[0] for row in rows])
    winners = _named(firsts, roster, unconfirmed)
    return EventsPage(
        events=[replace(e, winners=winners.get(e.id, ())) for e in _summaries(rows)],
        page_no=number,
        pages=max(1, -(-total // EVENTS_PER_PAGE)),
        total=total,
    )


def _listed(club: Club, kind: str | None) -> QuerySet[Event]:
    events = club.events.published()
    return events.filter(kind=kind) if kind else events


def _summary_rows(events: QuerySet[Event]) -> QuerySet[Event, tuple]:
    """id, name, date, kind, rated, players and, for `_page_rows`, the list's length."""
    # Each event's entrants counted by a subquery, not a join: the database then counts
    # only the page's events (a join grouped the entries of every event before the page
    # was cut, 24,000 of them for a club of 3,000 evenings).
    entrants = Entry.objects.filter(event=OuterRef("pk")).order_by().values("event")
    players = Subquery(entrants.annotate(n=Count("*")).values("n"))
    return (
        events.order_by("-date", "-order_in_day", "-created_at", "-id")
        .annotate(players=Coalesce(players, 0), listed=Window(Count("id")))
        .values_list("id", "name", "date", "kind", "rated", "players", "listed")
    )


def _page_rows(events: QuerySet[Event], number: int) -> list[tuple]:
    start = (number - 1) * EVENTS_PER_PAGE
    return list(_summary_rows(events)[start : start + EVENTS_PER_PAGE])


def _summaries(rows: Sequence[tuple]) -> list[EventSummary]:
    """The rows (`_summary_rows`) as summaries, without their winners."""
    labels = dict(Event.Kind.choices)
    return [
        EventSummary(pk, name, date, str(labels.get(kind, kind)), moves_ladder(rated, kind), n)
        for pk, name, date, kind, rated, n, _listed in rows
    ]


def winners_of(
    events: QuerySet[Event], roster: Roster, unconfirmed: str, order: Sequence[tiebreaks.Tiebreak]
) -> dict[int, tuple[Winner, ...]]:
    """Every event's rank-1 players, from one query over all their games."""
    return _named(first_players(events, order), roster, unconfirmed)


def _named(
    firsts: Mapping[int, tuple[int | None, ...]], roster: Roster, unconfirmed: str
) -> dict[int, tuple[Winner, ...]]:
    return {
        event_id: tuple(_winner(player, roster, unconfirmed) for player in players)
        for event_id, players in firsts.items()
        if players
    }


def first_players(
    events: QuerySet[Event], order: Sequence[tiebreaks.Tiebreak]
) -> dict[int, tuple[int | None, ...]]:
    """The players of every event's rank-1 entrants (None for an entrant not matched to a
    player), from one query over all their games; an event nobody scored in is left out.

    Entrants without a game are left out: they have no points and cannot be first
    while anyone scored, and when nobody scored there is no winner to show."""
    games: dict[int, list[GameRow]] = defaultdict(list)
    player_of: dict[int, int | None] = {}
    file_ranks: dict[int, int | None] = {}
    dates: dict[int, dt.date] = {}
    systems: dict[int, tuple[str, bool]] = {}
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
            "event__round_robin",
        )
    ):
        event_id, round_no, white, black, code, white_player, black_player, day = row[:8]
        games[event_id].append((round_no, white, black, code, ""))
        dates[event_id], systems[event_id] = day, (row[10], row[11])
        player_of[white], file_ranks[white] = white_player, row[8]
        if black is not None:
            player_of[black], file_ranks[black] = black_player, row[9]
    found: dict[int, tuple[int | None, ...]] = {}
    for event_id, rows in games.items():
        first = first_place(
            rows, order, tiebreaks.rules_on(dates[event_id]), file_ranks, *systems[event_id]
        )
        if first:
            found[event_id] = tuple(player_of[e] for e in first)
    return found


# The list's first places, kept per process by everything they are computed from, as the
# rosters are (ladder.roster.rosters): a game, an entrant's player or rank in its file, an
# event's date or pairing system is a ladder input and moves the data_version of a ladder
# (pages_version when no ladder rates the event), and a new tie-break order moves
# pages_version (ladder.changes). A hundred events' tie-breaks were half of a page of the
# list (issue 34); their names are the roster's, looked up on every page.
_FIRSTS_KEPT = 32
_firsts: OrderedDict[tuple[object, ...], dict[int, tuple[int | None, ...]]] = OrderedDict()
_firsts_lock = threading.Lock()


def kept_first_players(
    club: Club, versions: tuple[object, ...], event_ids: Sequence[int]
) -> dict[int, tuple[int | None, ...]]:
    """`first_players` of the club's events `event_ids`, each computed once for the club's
    versions: `versions`, every ladder's data_version (members.web: Visit.ladders)."""
    order = tuple(club_order(club))
    key = (club.pk, club.secret, club.pages_version, versions, order)
    with _firsts_lock:
        known = _firsts.get(key)
        if known is None:
            known = _firsts[key] = {}
            while len(_firsts) > _FIRSTS_KEPT:
                _firsts.popitem(last=False)
        _firsts.move_to_end(key)
        missing = [event_id for event_id in event_ids if event_id not in known]
    if missing:
        found = first_players(club.events.filter(pk__in=missing), order)
        with _firsts_lock:
            known.update({event_id: found.get(event_id, ()) for event_id in missing})
    return {event_id: known[event_id] for event_id in event_ids}


def forget_first_places() -> None:
    """For tests, whose rolled-back databases hand out the same ids and versions again."""
    with _firsts_lock:
        _firsts.clear()


def first_place(
    games: Sequence[GameRow],
    order: Sequence[tiebreaks.Tiebreak],
    rules: tiebreaks.Rules = tiebreaks.Rules.FIDE_2026,
    file_ranks: Mapping[int, int | None] | None = None,
    system: str = "",
    declared_round_robin: bool = False,
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
    robin = is_round_robin(system, declared_round_robin)
    values = Tiebreaks(order, robin, rules).compute(sorted(points), games, leaders_only=True)
    return [v.player for v in values if v.rank == 1]


def _winner(player_id: int | None, roster: Roster, unconfirmed: str) -> Winner:
    name = roster.names.get(player_id) if player_id is not None else None
    # A player no longer on the roster (merged, erased) has no page to link to.
    return Winner(player_id, name) if name is not None else Winner(None, unconfirmed)
