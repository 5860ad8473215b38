"""What the player page reads and the replay writes of each player's lifetime: its plain SQL.

The store's companion for one table (ladder.models.PlayerRecord) and the player
page's two reads; kept apart only because one module of both would pass 500 lines. The
same rules: plain functions on ids, plain SQL where the ORM's row building cost more
than the query, nothing here that decides what a number means (ladder/lifetime.py sums,
members/pages/player_page.py shows).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Mapping
from typing import Any

from django.db import connection
from django.db.models import Count

from clubs.models import Entry, Event, Game
from ladder.lifetime import GameRow, ResultRow
from ladder.models import PlayerEventResult, PlayerRecord, RatedEvent

# SQLite's default limit of parameters in one statement is 999.
_CHUNK = 500


def _rows(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows: list[tuple[Any, ...]] = cursor.fetchall()
        return rows


def as_date(value: dt.date | str) -> dt.date:
    """A date column read with a plain cursor (SQLite gives text)."""
    return dt.date.fromisoformat(value) if isinstance(value, str) else value


def as_json(value: str | dict[str, Any] | None) -> dict[str, Any]:
    """A JSON column read with a plain cursor: text (Django leaves decoding to the field)."""
    if value is None:
        return {}
    decoded: dict[str, Any] = json.loads(value) if isinstance(value, str) else value
    return decoded


def _side(mine: str, theirs: str, where: str) -> str:
    """Each game of the player's entries on one side: (game, event, round, result, side,
    opponent, the opponent's rating before that event, event kind), the player first."""
    game, entry, event, result = (
        Game._meta.db_table,
        Entry._meta.db_table,
        Event._meta.db_table,
        PlayerEventResult._meta.db_table,
    )
    return f"""
        SELECT m.player_id AS player, g.id AS id, g.event_id AS event_id, g.round AS round,
               g.result AS result, '{mine}' AS side, theirs.player_id AS opponent,
               (SELECT r.pre_rating FROM {result} r
                WHERE r.event_id = g.event_id AND r.player_id = theirs.player_id) AS opponent_pre,
               e.kind AS kind
        FROM {game} g
        JOIN {event} e ON e.id = g.event_id
        JOIN {entry} m ON m.id = g.{mine}_id
        LEFT JOIN {entry} theirs ON theirs.id = g.{theirs}_id
        WHERE {where}
    """


def lifetime_rows(
    club_id: int, players: Collection[int] | None = None
) -> tuple[dict[int, list[ResultRow]], dict[int, list[GameRow]]]:
    """Per player (of `players`, else every player of the club): their stored results in
    published events on every ladder, oldest first (by date, then each ladder's order), and
    every game of theirs in published events, in the order of the rounds (then of the
    games), as ladder.lifetime.summarise takes them."""
    results: dict[int, list[ResultRow]] = {}
    games: dict[int, list[GameRow]] = {}
    chunks: list[list[int] | None] = [None]
    if players is not None:
        ids = list(players)
        chunks = [ids[n : n + _CHUNK] for n in range(0, len(ids), _CHUNK)]
    for chunk in chunks:
        among, params = "", []
        if chunk is not None:
            among, params = f" AND {{column}} IN ({', '.join(['%s'] * len(chunk))})", chunk
        live = "e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL"
        sql = f"""
            SELECT r.player_id, r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating,
                   r.k, r.expected, r.actual, r.change, r.post_rating, r.games_counted,
                   r.position
            FROM {PlayerEventResult._meta.db_table} r
            JOIN {Event._meta.db_table} e ON e.id = r.event_id
            WHERE {live} AND r.club_id = %s{among.format(column="r.player_id")}
            ORDER BY r.player_id, r.event_date, r.position
        """
        for pk, event_id, name, date, *rest in _rows(
            sql, [club_id, Event.Status.PUBLISHED, club_id, *params]
        ):
            results.setdefault(pk, []).append((event_id, name, as_date(date), *rest))
        where = f"{live} AND m.player_id IS NOT NULL{among.format(column='m.player_id')}"
        sql = (
            "SELECT * FROM ("
            + _side("white", "black", where)
            + " UNION ALL "
            + _side("black", "white", where)
            + ") AS games ORDER BY 1, 4, 2"
        )
        for pk, *game in _rows(sql, [club_id, Event.Status.PUBLISHED, *params] * 2):
            games.setdefault(pk, []).append(tuple(game))
    return results, games


def player_rows(
    club_id: int, player_id: int
) -> tuple[list[ResultRow], list[GameRow], dict[int, dict[str, Any]], dict[int, int]]:
    """lifetime_rows of one player, the outcomes of their rated events and the ladder each
    event fed ({event: ladder}), in one query."""
    live = "e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL"
    where = f"{live} AND m.player_id = %s"
    sql = f"""
        WITH mine AS ({_side("white", "black", where)} UNION ALL {_side("black", "white", where)})
        SELECT 1, r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating, r.k,
               r.expected, r.actual, r.change, r.post_rating, r.games_counted, r.position,
               re.game_outcomes, {", ".join(["NULL"] * 8)}, r.ladder_id
        FROM {PlayerEventResult._meta.db_table} r
        JOIN {Event._meta.db_table} e ON e.id = r.event_id
        LEFT JOIN {RatedEvent._meta.db_table} re ON re.event_id = r.event_id
        WHERE {live} AND r.club_id = %s AND r.player_id = %s
        UNION ALL
        SELECT 2, {", ".join(["NULL"] * 14)}, mine.id, mine.event_id, mine.round, mine.result,
               mine.side, mine.opponent, mine.opponent_pre, mine.kind, NULL
        FROM mine
        ORDER BY 1, 4, 14, 18, 16
    """
    published = Event.Status.PUBLISHED
    side = [club_id, published, player_id]
    results: list[ResultRow] = []
    games: list[GameRow] = []
    outcomes: dict[int, dict[str, Any]] = {}
    ladders: dict[int, int] = {}
    for kind, event_id, name, date, *rest in _rows(
        sql, [*side, *side, club_id, published, club_id, player_id]
    ):
        if kind == 1:
            results.append((event_id, name, as_date(date), *rest[:10]))
            outcomes[event_id] = as_json(rest[10])
            ladders[event_id] = rest[19]
        else:
            games.append(tuple(rest[11:19]))
    return results, games, outcomes, ladders


def ladder_results(club_id: int, player_id: int) -> dict[int, list[ResultRow]]:
    """The player's stored results in published events, per ladder ({ladder: rows}), each
    ladder's oldest first: each ladder's part of the player page (its chart, its years,
    its counts) is drawn from that ladder's alone."""
    sql = f"""
        SELECT r.ladder_id, r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating,
               r.k, r.expected, r.actual, r.change, r.post_rating, r.games_counted, r.position
        FROM {PlayerEventResult._meta.db_table} r
        JOIN {Event._meta.db_table} e ON e.id = r.event_id
        WHERE e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL
          AND r.club_id = %s AND r.player_id = %s
        ORDER BY r.ladder_id, r.position
    """
    by_ladder: dict[int, list[ResultRow]] = {}
    for ladder_id, event_id, name, date, *rest in _rows(
        sql, [club_id, Event.Status.PUBLISHED, club_id, player_id]
    ):
        by_ladder.setdefault(ladder_id, []).append((event_id, name, as_date(date), *rest))
    return by_ladder


def event_counts(club_id: int, players: Collection[int] | None = None) -> dict[int, int]:
    """How many stored results each player (of `players`, else of the club) has."""
    rows = PlayerEventResult.objects.filter(club_id=club_id)
    counts: dict[int, int] = {}
    ids = None if players is None else list(players)
    for n in range(0, 1 if ids is None else len(ids), _CHUNK):
        chosen = rows if ids is None else rows.filter(player_id__in=ids[n : n + _CHUNK])
        counts.update(chosen.values_list("player_id").annotate(n=Count("id")).order_by())
    return counts


def shown_rows(
    club_id: int,
    player_id: int,
    *,
    since: dt.date | None = None,
    until: dt.date | None = None,
    limit: int | None = None,
    also: int | None = None,
) -> list[tuple[Any, ...]]:
    """The player's results written out on a page, the newest `limit` of those dated from
    `since` to `until`, with their games, in rows of 22 columns that start with a kind:
    0, the result of event `also` (the best win's, for its name): the columns of a
    ladder.lifetime.ResultRow, then 7 empty, then the result's ladder;
    1, each result written out, oldest first: a ResultRow, the event's game outcomes, 6 empty,
    then the result's ladder (each ladder's part of the page keeps its own);
    2, each of their games (in the order of the rounds, then of the games): its event,
    13 empty, then game, round, result, side, opponent, the opponent's pre-event rating,
    1 empty.
    """
    params: list[Any] = [club_id, player_id, Event.Status.PUBLISHED]
    # The dates and the limit written in, not parameters: a prepared statement's generic
    # plan then knows how few rows it reads. Both are ours, a date's isoformat and an int.
    dates = "" if since is None else f" AND r.event_date >= '{since.isoformat()}'"
    dates += "" if until is None else f" AND r.event_date <= '{until.isoformat()}'"
    newest = "" if limit is None else f"LIMIT {int(limit)}"
    result, event = PlayerEventResult._meta.db_table, Event._meta.db_table
    columns = """r.event_id, e.name, r.event_date, e.rated, e.kind, r.pre_rating, r.k,
               r.expected, r.actual, r.change, r.post_rating, r.games_counted, r.position"""
    live = "r.club_id = %s AND r.player_id = %s AND e.status = %s AND e.deleted_at IS NULL"
    where = "g.event_id IN (SELECT event_id FROM shown) AND m.player_id = %s"
    empty = ", ".join(["NULL"] * 12)
    # Games and events apart, not joined: a generic plan that takes the events for one row
    # joins by nested loop, and ran every game's query once per event (seconds a year page).
    sql = f"""
        WITH shown AS (
            SELECT {columns}, r.ladder_id
            FROM {result} r JOIN {event} e ON e.id = r.event_id
            WHERE {live}{dates}
            ORDER BY r.event_date DESC, r.position DESC {newest}
        ), mine AS ({_side("white", "black", where)} UNION ALL {_side("black", "white", where)})
        SELECT 1, s.event_id, s.name, s.event_date, s.rated, s.kind, s.pre_rating, s.k,
               s.expected, s.actual, s.change, s.post_rating, s.games_counted, s.position,
               re.game_outcomes, NULL, NULL, NULL, NULL, NULL, NULL, s.ladder_id
        FROM shown s LEFT JOIN {RatedEvent._meta.db_table} re ON re.event_id = s.event_id
        UNION ALL
        SELECT 2, mine.event_id, {empty}, NULL, mine.id, mine.round, mine.result, mine.side,
               mine.opponent, mine.opponent_pre, NULL
        FROM mine
        UNION ALL
        SELECT 0, {columns}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, r.ladder_id
        FROM {result} r JOIN {event} e ON e.id = r.event_id
        WHERE {live} AND r.event_id = %s
        ORDER BY 1, 4, 14, 17, 16
    """
    return _rows(
        sql, [*params, player_id, player_id, club_id, player_id, Event.Status.PUBLISHED, also]
    )


def players_from(ladder_id: int, position: int) -> set[int]:
    """The players with a stored result on the ladder at `position` or later: read before
    a replay deletes those, they are the players whose lifetime it may change besides the
    entrants of the events it rates (entrants_from)."""
    rows = PlayerEventResult.objects.filter(ladder_id=ladder_id, position__gte=position)
    return set(rows.values_list("player_id", flat=True).distinct())


def entrants_from(ladder_id: int, position: int) -> set[int]:
    """The players with an entry in an event rated on the ladder at `position` or later."""
    entries = Entry.objects.filter(
        event__rating__ladder_id=ladder_id, event__rating__position__gte=position
    )
    return set(entries.exclude(player=None).values_list("player_id", flat=True).distinct())


def write_records(
    club_id: int, records: Mapping[int, dict[str, Any]], *, replacing: Collection[int] | None
) -> None:
    """Store these players' lifetimes in place of those of `replacing` (None: of every
    player of the club); a player replaced without a new one has no games left."""
    if replacing is None:
        PlayerRecord.objects.filter(club_id=club_id).delete()
    else:
        ids = list(replacing)
        for n in range(0, len(ids), _CHUNK):
            PlayerRecord.objects.filter(player_id__in=ids[n : n + _CHUNK]).delete()
    PlayerRecord.objects.bulk_create(
        [PlayerRecord(player_id=pk, club_id=club_id, summary=s) for pk, s in records.items()],
        batch_size=_CHUNK,
    )


def stored_records(club_id: int) -> dict[int, dict[str, Any]]:
    rows = PlayerRecord.objects.filter(club_id=club_id).values_list("player_id", "summary")
    return dict(rows)


def stored_record(player_id: int) -> dict[str, Any] | None:
    """The player's stored lifetime, or None before a replay has summed it."""
    rows = PlayerRecord.objects.filter(pk=player_id).values_list("summary", flat=True)
    summary: dict[str, Any] | None = next(iter(rows), None)
    return summary
