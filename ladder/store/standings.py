"""What the event pages read and the replay keeps of each published event's final standings
(ladder.models.EventStandings): the rows, and the games, entries and rating lines they are
computed from.

The store's companion for one table, as players.py is for the lifetimes: plain functions on
ids, nothing here that ranks anyone (ladder/standings.py ranks,
ladder.replay.keep_standings decides what to keep). An event page's three reads are plain
SQL: the ORM spent ~2 ms building each of them, for 1,278 games of an open, more than the
database took to answer.
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Count, F

from clubs.models import Club, Entry, Event, Game
from clubs.models.night import Board
from ladder.models import EventStandings, PlayerEventResult

# A stored rating line's columns, as the event page reads them (event_ratings.rating_lines).
LINE_FIELDS = (
    "player_id", "pre_rating", "expected", "actual", "change", "games_counted", "k", "post_rating",
)  # fmt: skip

# (round, white entry, black entry or None, result code, variant), as the event page reads them
GameRow = tuple[int, int, int | None, str, str]


class Kept(NamedTuple):
    inputs: str
    # The rows as stored (JSON text), read only once `inputs` (or `ranking`) matched: an
    # open's 284 rows take about as long to decode as its 1,278 games to hash.
    rows_json: str
    ranks_from_file: bool
    hides_tiebreaks: bool
    ranking: str = ""  # EventStandings.ranking

    @property
    def rows(self) -> list[list[Any]]:
        rows: list[list[Any]] = json.loads(self.rows_json)
        return rows


class EventFacts(NamedTuple):
    """One published event as its standings need it."""

    event_id: int
    date: dt.date
    pairing_system: str
    round_robin: bool  # as its file said (Event.round_robin)
    games: list[GameRow]
    # (start rank, rank in the file, player or None) by entry id
    entries: dict[int, tuple[int, int | None, int | None]]
    # (player, pre-rating, expected, actual, change, games counted, K, post-rating): the
    # event's stored rating lines (ladder.models.PlayerEventResult)
    lines: list[tuple[int, float, float, float, float, int, float | None, float]]


def event_games(event_id: int) -> list[GameRow]:
    """The event's games in the page's order: by round, then board (a club night's bye, whose
    game has no board, last), then as stored."""
    game, board = Game._meta.db_table, Board._meta.db_table
    return _rows(
        f"SELECT g.round, g.white_id, g.black_id, g.result, g.variant FROM {game} g "
        f"LEFT JOIN {board} b ON b.game_id = g.id WHERE g.event_id = %s "
        "ORDER BY g.round, b.number IS NULL, b.number, g.id",
        [event_id],
    )


def event_entries(event_id: int) -> list[tuple[int, int | None, int | None, int | None]]:
    """(entry, player, start rank, rank in the file) of each entry, in start order."""
    return _rows(
        f"SELECT id, player_id, start_rank, rank_in_file FROM {Entry._meta.db_table} "
        "WHERE event_id = %s ORDER BY start_rank, id",
        [event_id],
    )


def event_lines(event_id: int) -> list[tuple[Any, ...]]:
    """The event's stored rating lines: LINE_FIELDS of each rated entrant."""
    return _rows(
        f"SELECT {', '.join(LINE_FIELDS)} FROM {PlayerEventResult._meta.db_table} "
        "WHERE event_id = %s",
        [event_id],
    )


def _rows(sql: str, params: list[Any]) -> list[Any]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [tuple(row) for row in cursor.fetchall()]


def published_event(club: Club, event_id: int) -> Event | None:
    """The club's published event of this id (not deleted), its club the one given, with
    its kept standings (unread, for kept()): what every page of an event reads first. The
    ORM took three times as long to build the query as to run it, on each page of every
    event."""
    event_table, kept_table = Event._meta.db_table, EventStandings._meta.db_table
    found = Event.objects.raw(
        f"SELECT e.*, k.inputs AS kept_inputs, CAST(k.rows AS text) AS kept_rows, "
        "k.ranks_from_file AS kept_ranks_from_file, k.hides_tiebreaks AS kept_hides_tiebreaks, "
        "k.ranking AS kept_ranking "
        f"FROM {event_table} e LEFT JOIN {kept_table} k ON k.event_id = e.id "
        "WHERE e.id = %s AND e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL",
        [event_id, club.pk, Event.Status.PUBLISHED],
    )
    event = next(iter(found), None)
    if event is not None:
        event.club = club  # as the page reads it: no query for it
    return event


def kept(event: Event) -> Kept | None:
    """The event's kept standings, whatever they were computed from: as published_event
    read them with the event, else in a query of their own."""
    if hasattr(event, "kept_inputs"):
        row = (
            event.kept_inputs,
            getattr(event, "kept_rows", None),
            getattr(event, "kept_ranks_from_file", False),
            getattr(event, "kept_hides_tiebreaks", False),
            getattr(event, "kept_ranking", ""),
        )
    else:
        found = _rows(
            f"SELECT inputs, CAST(rows AS text), ranks_from_file, hides_tiebreaks, ranking "
            f"FROM {EventStandings._meta.db_table} WHERE event_id = %s",
            [event.pk],
        )
        row = found[0] if found else (None, None, False, False, "")
    inputs, rows_json, ranks_from_file, hides_tiebreaks, ranking = row
    if inputs is None or rows_json is None:
        return None
    # bool(): SQLite gives a column the ORM does not convert as 0 or 1.
    return Kept(inputs, rows_json, bool(ranks_from_file), bool(hides_tiebreaks), ranking or "")


def kept_rows(event_ids: Sequence[int]) -> dict[int, Kept]:
    """The kept standings of these events, rows and all, by event id."""
    table = EventStandings._meta.db_table
    found: dict[int, Kept] = {}
    for chunk in _chunks(list(event_ids)):
        marks = ", ".join(["%s"] * len(chunk))
        for event_id, *row in _rows(
            f"SELECT event_id, inputs, CAST(rows AS text), ranks_from_file, hides_tiebreaks, "
            f"ranking FROM {table} WHERE event_id IN ({marks})",
            chunk,
        ):
            inputs, rows_json, ranks_from_file, hides_tiebreaks, ranking = row
            found[event_id] = Kept(
                inputs, rows_json, bool(ranks_from_file), bool(hides_tiebreaks), ranking
            )
    return found


class Which(NamedTuple):
    """Which of a club's events: those dated on or after `since` and on or before `until`,
    and only the event `event_id` when given (None: no bound)."""

    since: dt.date | None = None
    until: dt.date | None = None
    event_id: int | None = None

    def lookups(self, prefix: str = "") -> dict[str, object]:
        found: dict[str, object] = {}
        if self.since is not None:
            found[f"{prefix}date__gte"] = self.since
        if self.until is not None:
            found[f"{prefix}date__lte"] = self.until
        if self.event_id is not None:
            found[f"{prefix}id"] = self.event_id
        return found


EVERY_EVENT = Which()


def kept_inputs(club_id: int, which: Which = EVERY_EVENT) -> dict[int, tuple[str, str]]:
    """The hashes each kept standings of the club (of the events `which` names) was
    computed from, by event id: its inputs, and those without the rating lines (ranking)."""
    kept = EventStandings.objects.filter(club_id=club_id, **which.lookups("event__"))
    return {
        event_id: (inputs, ranking)
        for event_id, inputs, ranking in kept.values_list("event_id", "inputs", "ranking")
    }


def published_facts(
    club_id: int, which: Which = EVERY_EVENT, min_entrants: int = 0
) -> list[EventFacts]:
    """The club's published events (those `which` names, of at least `min_entrants`
    entrants), each with its games in the event page's order
    (members.pages.events.event_pages.event_games), its entries and its rating lines."""
    events = Event.objects.published().filter(club_id=club_id, **which.lookups())
    if min_entrants:
        events = events.annotate(entrants=Count("entries")).filter(entrants__gte=min_entrants)
    found = list(events.order_by("id").values_list("id", "date", "pairing_system", "round_robin"))
    ids = [event_id for event_id, *_rest in found]
    games: dict[int, list[GameRow]] = defaultdict(list)
    entries: dict[int, dict[int, tuple[int, int | None, int | None]]] = defaultdict(dict)
    lines: dict[int, list[Any]] = defaultdict(list)
    for chunk in _chunks(ids):
        rows = (
            Game.objects.filter(event_id__in=chunk)
            .order_by("event_id", "round", F("board__number").asc(nulls_last=True), "id")
            .values_list("event_id", "round", "white_id", "black_id", "result", "variant")
        )
        for event_id, *game in rows:
            games[event_id].append(tuple(game))  # type: ignore[arg-type]
        for entry_id, event_id, start_rank, file_rank, player_id in Entry.objects.filter(
            event_id__in=chunk
        ).values_list("id", "event_id", "start_rank", "rank_in_file", "player_id"):
            entries[event_id][entry_id] = (start_rank or 0, file_rank, player_id)
        for event_id, *line in PlayerEventResult.objects.filter(event_id__in=chunk).values_list(
            "event_id", *LINE_FIELDS
        ):
            lines[event_id].append(tuple(line))
    return [
        EventFacts(
            event_id, date, system, robin, games[event_id], entries[event_id], lines[event_id]
        )
        for event_id, date, system, robin in found
    ]


def keep(club_id: int, kept_rows: Sequence[EventStandings]) -> None:
    """Store `kept_rows` (new or replacing the event's), and drop the club's rows of events
    no longer published (deleted or unpublished since)."""
    published = Event.objects.published().filter(club_id=club_id).values("id")
    EventStandings.objects.filter(club_id=club_id).exclude(event_id__in=published).delete()
    EventStandings.objects.bulk_create(
        kept_rows,
        batch_size=200,
        update_conflicts=True,
        unique_fields=["event"],
        update_fields=["inputs", "ranking", "rows", "ranks_from_file", "hides_tiebreaks"],
    )


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    # SQLite's default limit of parameters in one statement is 999.
    return [ids[start : start + size] for start in range(0, len(ids), size)]
