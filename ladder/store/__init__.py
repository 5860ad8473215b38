"""What the ladder replay reads and writes: its only SQL, and the only place it differs by database.

Plain functions on club and ladder ids: a ladder's events are its club's published
events whose kind it rates, its players are its club's. The replay (ladder/replay.py) is
the algorithm; this package is how its inputs come out of the database and its results go
in: here the events, games and stored results, players.py the players' stored lifetimes,
dated.py the ladder on a date. It may import the models and the pure parts of the ladder,
never a page or a view.
PostgreSQL gets the fast paths a full replay of 100,000 games needs (COPY,
one index probe per player, one UPDATE from arrays); SQLite, which the tests
and small installations run, gets the plain ORM, and one grouped scan for each
player's latest result.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from django.db import connection, models

from clubs.models import Entry, Event, EventQuerySet, Game, Player
from clubs.results import Result
from ladder.history import HistoryStep
from ladder.models import LadderRating, PlayerEventResult, RatedEvent
from ladder.policies.base import EventInput, GameInput, PlayerState

logger = logging.getLogger(__name__)


class PlayerSummary(NamedTuple):
    """What a player's row shows of the ladder: written by the replay, read by every page."""

    rating: float
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    last_change: float | None


class LatestResult(NamedTuple):
    """A player's last stored result before some position."""

    player_id: int
    post_rating: float
    rated_games_after: int
    event_date: dt.date
    change: float


def lock_club(club_id: int) -> None:
    """Serialise replays of one club; PostgreSQL only (SQLite serialises all writers anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Two-key form: the first key namespaces our locks from anybody else's.
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [7_311, club_id % 2**31])


# Reading


def starting_states(
    club_id: int, ladder_id: int, start_rating: float, players: Collection[int] | None = None
) -> dict[int, PlayerState]:
    """Each player's state before their first event on the ladder: a director's estimate
    (their LadderRating's start) or the ladder's start rating."""
    rows = Player.objects.filter(club_id=club_id)
    if players is not None:
        rows = rows.filter(pk__in=players)
    return {
        pid: PlayerState(start_rating if rating is None else rating, games, junior)
        for pid, rating, games, junior in rows.rated_on(ladder_id).values_list(
            "id", "start_rating", "start_games", "junior"
        )
    }


def _ladder_events(club_id: int, kinds: Collection[str]) -> EventQuerySet:
    """The club's published events a ladder of `kinds` rates (or shows unrated)."""
    return Event.objects.filter(club_id=club_id, kind__in=list(kinds)).published()


def published_event_ids(
    club_id: int, kinds: Collection[str], *, before: dt.date | None = None
) -> list[int]:
    """The published events of `kinds` in ladder order (dated before `before` if given)."""
    events = _ladder_events(club_id, kinds)
    if before is not None:
        events = events.filter(date__lt=before)
    return list(events.in_ladder_order().values_list("id", flat=True))


def event_inputs(
    club_id: int, kinds: Collection[str], *, since: dt.date | None = None
) -> tuple[list[EventInput], dict[int, dt.date]]:
    """The published events of `kinds` in ladder order, as the policies see them, and their
    dates; only those dated `since` or later if given (the replay's trusted prefix is left
    unread)."""
    events = _ladder_events(club_id, kinds)
    if since is not None:
        events = events.filter(date__gte=since)
    event_rows = list(events.in_ladder_order().values_list("id", "rated", "kind", "date"))
    games = _game_rows(club_id, since=since, kinds=kinds)
    events_in = _as_inputs(club_id, [row[:3] for row in event_rows], games)
    return events_in, {row[0]: row[3] for row in event_rows}


def event_input(event: Event) -> EventInput:
    """One event's games as the policies see them, whatever its status: what the replay
    rates for it once published (event_inputs builds every event the same way), and what
    the preview rates for a draft (directors/events/flow.py)."""
    rows = _game_rows(event.club_id, event_id=event.pk)
    (built,) = _as_inputs(event.club_id, [(event.pk, event.rated, event.kind)], rows)
    return built


_RESULTS = {r.value: r for r in Result}

# (game, event, round, white player, black entry, black player, result, variant)
_GameRow = tuple[int, int, int, int | None, int | None, int | None, str, str]


def _as_inputs(
    club_id: int, events: Sequence[tuple[int, bool, str]], game_rows: Iterable[_GameRow]
) -> list[EventInput]:
    """The policies' input of each (id, rated, kind) event, from the games' rows."""
    games_by_event: dict[int, list[GameInput]] = {event_id: [] for event_id, _, _ in events}
    for game_id, event_id, round_no, white, black_entry, black, result, variant in game_rows:
        # Publishing requires every entry with a game to be linked, except a no-show's
        # forfeits, which stay as the file wrote them and are never rated; any other
        # unlinked one can only be a bug elsewhere, and must not crash the whole ladder.
        if white is None or (black_entry is not None and black is None):
            if black_entry is None or not _RESULTS[result].is_forfeit:
                logger.error("Game %s of club %s has an unlinked entry; skipped", game_id, club_id)
            continue
        # Positional: twice as fast as keywords, for 100,000 games.
        games_by_event[event_id].append(
            GameInput(game_id, round_no, white, black, _RESULTS[result], variant != "")
        )
    return [
        EventInput(
            id=event_id,
            rated=rated,
            bughouse=kind == Event.Kind.BUGHOUSE,
            games=tuple(games_by_event[event_id]),
        )
        for event_id, rated, kind in events
    ]


def _game_rows(
    club_id: int,
    *,
    event_id: int | None = None,
    since: dt.date | None = None,
    kinds: Collection[str] = (),
) -> Iterator[_GameRow]:
    """The rows of _GameRow of the club's published events of `kinds` (dated `since` or
    later if given), or of the one event `event_id`.

    One plain query: a full replay reads 100,000 of these, and the ORM's row
    building was a large share of it.
    """
    game, entry, event = Game._meta.db_table, Entry._meta.db_table, Event._meta.db_table
    if event_id is None:
        where = "e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL"
        params: list[int | str | dt.date] = [club_id, Event.Status.PUBLISHED]
        where += f" AND e.kind IN ({', '.join(['%s'] * len(kinds))})" if kinds else " AND 1 = 0"
        params.extend(kinds)
        if since is not None:
            where += " AND e.date >= %s"
            params.append(since)
    else:
        where, params = "e.club_id = %s AND g.event_id = %s", [club_id, event_id]
    sql = f"""
        SELECT g.id, g.event_id, g.round, w.player_id, g.black_id, b.player_id, g.result,
               g.variant
        FROM {game} g
        JOIN {event} e ON e.id = g.event_id
        JOIN {entry} w ON w.id = g.white_id
        LEFT JOIN {entry} b ON b.id = g.black_id
        WHERE {where}
    """
    # psycopg is imported here, not at the top: every data command imports this module, and on
    # SQLite nothing else loads it (on PostgreSQL the database backend already has).
    import psycopg

    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and psycopg.capabilities.has_stream_chunked():
            # In chunks as the server produces them (libpq 17+, which psycopg-binary
            # bundles): the caller builds its inputs from one chunk while the next
            # is joined and sent, where fetchall() first waits for all 100,000 rows
            # of a full replay (~9 % of one on a quiet machine, BENCHMARKS.md).
            yield from cursor.cursor.stream(sql, params, size=5_000)
        else:
            cursor.execute(sql, params)
            yield from cursor.fetchall()


def stored_chain(ladder_id: int) -> list[tuple[int, str]]:
    """(event, chain hash) of every event the ladder rated, in the order they were rated."""
    return list(
        RatedEvent.objects.filter(ladder_id=ladder_id)
        .order_by("position")
        .values_list("event_id", "chain_hash")
    )


def latest_results(
    club_id: int, ladder_id: int, position: int, players: Collection[int] | None = None
) -> Iterable[LatestResult]:
    """Per player of the club (of `players` if given), their last stored result on the
    ladder before `position`."""
    if connection.vendor == "postgresql":
        # Only the preview names players: a draft's few hundred, not the whole club.
        among, params = ("", []) if players is None else ("AND p.id = ANY(%s)", [list(players)])
        # One index probe per player on (ladder, player, position): milliseconds
        # where a DISTINCT ON over every stored result takes a large share of a
        # last-event correction.
        with connection.cursor() as cursor:
            cursor.execute(
                f"""
                SELECT p.id, r.post_rating, r.rated_games_after, r.event_date, r.change
                FROM {Player._meta.db_table} p
                CROSS JOIN LATERAL (
                    SELECT post_rating, rated_games_after, event_date, change
                    FROM {PlayerEventResult._meta.db_table} per
                    WHERE per.ladder_id = %s AND per.player_id = p.id AND per.position < %s
                    ORDER BY per.position DESC LIMIT 1
                ) r
                WHERE p.club_id = %s {among}
                """,
                [ladder_id, position, club_id, *params],
            )
            return [LatestResult(*row) for row in cursor.fetchall()]
    # SQLite: with MAX(), the bare columns are those of the row that has it (documented
    # SQLite behaviour), so each player's newest row comes out of one index scan, where
    # building every stored row in Python took a preview twice as long.
    ids = [] if players is None else list(players)
    among = f"AND player_id IN ({', '.join(['%s'] * len(ids))})" if players is not None else ""
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT player_id, post_rating, rated_games_after, event_date, change, MAX(position)
            FROM {PlayerEventResult._meta.db_table}
            WHERE ladder_id = %s AND position < %s {among}
            GROUP BY player_id
            """,
            [ladder_id, position, *ids],
        )
        return [LatestResult(*row[:5]) for row in cursor.fetchall()]


def states_before(
    club_id: int,
    ladder_id: int,
    position: int,
    start_rating: float,
    players: Collection[int] | None = None,
) -> dict[int, PlayerState]:
    """Each player's state on the ladder before its event at `position`, as the stored
    results leave it: what the preview rates a draft from (directors/events/flow.py)."""
    initial = starting_states(club_id, ladder_id, start_rating, players)
    states, _summaries = ladder_before(club_id, ladder_id, position, initial, players)
    return states


def ladder_before(
    club_id: int,
    ladder_id: int,
    position: int,
    initial: Mapping[int, PlayerState],
    players: Collection[int] | None = None,
) -> tuple[dict[int, PlayerState], dict[int, PlayerSummary]]:
    """Each player of `initial` before the event at `position`, as the stored results leave
    them: the state the next event is rated from, and the summary their row showed then.

    The one reading of "before an event": the replay starts from it, the preview through
    states_before. With `players`, only their stored results are read.
    """
    states = dict(initial)
    summaries = {
        pid: PlayerSummary(s.rating, s.rated_games, False, None, None) for pid, s in initial.items()
    }
    if position == 0:
        return states, summaries
    for row in latest_results(club_id, ladder_id, position, players):
        state = states.get(row.player_id)
        if state is None:
            continue
        states[row.player_id] = PlayerState(row.post_rating, row.rated_games_after, state.junior)
        summaries[row.player_id] = PlayerSummary(
            row.post_rating, row.rated_games_after, False, row.event_date, row.change
        )
    return states, summaries


def stored_summaries(club_id: int, ladder_id: int) -> dict[int, PlayerSummary]:
    """Each player's summary on the ladder (a player without a row: no rating, no games)."""
    return {
        pk: PlayerSummary(*values)
        for pk, *values in Player.objects.filter(club_id=club_id)
        .rated_on(ladder_id)
        .values_list("id", *_SUMMARY_FIELDS)
    }


def stored_results(ladder_id: int) -> dict[tuple[int, int], PlayerEventResult]:
    """Every stored result of the ladder, by (event, player)."""
    rows = PlayerEventResult.objects.filter(ladder_id=ladder_id)
    return {(r.event_id, r.player_id): r for r in rows}


def stored_game_outcomes(ladder_id: int) -> dict[int, dict[str, list[object]]]:
    """Per event the ladder rated, what stored_outcomes() wrote for it."""
    rows = RatedEvent.objects.filter(ladder_id=ladder_id)
    return dict(rows.values_list("event_id", "game_outcomes"))


# Writing


def delete_from(ladder_id: int, position: int) -> None:
    """Forget what the replay stored on the ladder for its events from `position` on."""
    replaced = RatedEvent.objects.filter(ladder_id=ladder_id, position__gte=position)
    # Through the events: the (event, player) index finds these rows, so the
    # table needs no (ladder, position) index to maintain on every write.
    PlayerEventResult.objects.filter(event_id__in=replaced.values("event_id")).delete()
    replaced.delete()


def stored_outcomes(step: HistoryStep) -> dict[str, list[object]]:
    """The games of an event that were not rated for both sides, with why.

    A game missing from this map was rated for both players: most games are,
    and leaving them out keeps a full replay from building and encoding
    100,000 entries nobody needs to look up.
    """
    return {
        str(game_id): [o.rated_for_white, o.rated_for_black, o.reason]
        for game_id, o in step.rating.games.items()
        if o.reason is not None
    }


_RESULT_COLUMNS = (
    "club_id", "ladder_id", "event_id", "player_id", "position", "event_date", "pre_rating", "k",
    "provisional", "games_counted", "expected", "actual", "change", "post_rating",
    "rated_games_after",
)  # fmt: skip


def write_steps(
    club_id: int,
    ladder_id: int,
    start: int,
    steps: Iterable[HistoryStep],
    chain: Sequence[str],
    event_dates: Mapping[int, dt.date],
) -> list[HistoryStep]:
    """Store each step at its position from `start` on and return them as a list.

    `chain[i]` is the chain hash of step i. `steps` may be a generator that
    rates as it goes: on PostgreSQL each event's rows go to the server while
    the next events are rated, so the server inserts and indexes them on
    another core instead of after the rating (~30 % of a full replay).
    """
    if connection.vendor != "postgresql":
        written = list(steps)
        _bulk_create_steps(club_id, ladder_id, start, written, chain, event_dates)
        return written
    written = []
    with connection.cursor() as cursor:
        raw = cursor.cursor
        # COPY: a full replay writes 40,000 result rows, and bulk_create takes
        # three to four times as long to build, compile and send them. Binary:
        # formatting seven floats a row as text and parsing them back on the
        # server costs a full replay ~15-20 % more (BENCHMARKS.md).
        fields = {f.column: f for f in PlayerEventResult._meta.concrete_fields}
        table = PlayerEventResult._meta.db_table
        sql = f"COPY {table} ({', '.join(_RESULT_COLUMNS)}) FROM STDIN (FORMAT BINARY)"
        with raw.copy(sql) as copy:
            copy.set_types([fields[column].db_type(connection) for column in _RESULT_COLUMNS])
            write_row = copy.write_row
            for position, step in enumerate(steps, start=start):
                written.append(step)
                event_id, event_date = step.event_id, event_dates[step.event_id]
                for player_id, o in step.rating.players.items():
                    write_row(
                        (club_id, ladder_id, event_id, player_id, position, event_date,
                         o.pre_rating, o.k, o.provisional, o.games_counted, o.expected, o.actual,
                         o.change, o.post_rating, o.rated_games_after)
                    )  # fmt: skip
        table = RatedEvent._meta.db_table
        columns = "(event_id, club_id, ladder_id, position, chain_hash, game_outcomes)"
        with raw.copy(f"COPY {table} {columns} FROM STDIN") as copy:
            for position, (step, chain_hash) in enumerate(
                zip(written, chain, strict=True), start=start
            ):
                outcomes = json.dumps(stored_outcomes(step))
                copy.write_row((step.event_id, club_id, ladder_id, position, chain_hash, outcomes))
    return written


def _bulk_create_steps(
    club_id: int,
    ladder_id: int,
    start: int,
    steps: Sequence[HistoryStep],
    chain: Sequence[str],
    event_dates: Mapping[int, dt.date],
) -> None:
    RatedEvent.objects.bulk_create(
        [
            RatedEvent(
                event_id=step.event_id,
                club_id=club_id,
                ladder_id=ladder_id,
                position=position,
                chain_hash=chain_hash,
                game_outcomes=stored_outcomes(step),
            )
            for position, (step, chain_hash) in enumerate(
                zip(steps, chain, strict=True), start=start
            )
        ],
        batch_size=1000,
    )
    PlayerEventResult.objects.bulk_create(
        [
            PlayerEventResult(
                club_id=club_id,
                ladder_id=ladder_id,
                event_id=step.event_id,
                player_id=player_id,
                position=position,
                event_date=event_dates[step.event_id],
                **o._asdict(),  # the outcome's fields are the row's rating columns
            )
            for position, step in enumerate(steps, start=start)
            for player_id, o in step.rating.players.items()
        ],
        batch_size=2000,
    )


_SUMMARY_FIELDS = PlayerSummary._fields


def _concrete_field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)  # a column of the table, not a relation's far side
    return field


def write_summaries(club_id: int, ladder_id: int, summaries: Mapping[int, PlayerSummary]) -> None:
    """Store the summaries of the club's players on the ladder that differ from what is
    stored, adding the LadderRating row of a player who has none yet."""
    stored = stored_summaries(club_id, ladder_id)
    # A player committed while this replay ran is not in `summaries`; the change that added
    # them queued the next replay, which writes their summary.
    changed = [
        (pk, *summaries[pk])
        for pk, old in stored.items()
        if pk in summaries and summaries[pk] != old
    ]
    if not changed:
        return
    if connection.vendor == "postgresql":
        # One upsert from arrays: bulk_update's CASE WHEN per field and player
        # costs a replay that moves all 400 ratings ~20 % more (BENCHMARKS.md).
        fields = [_concrete_field(LadderRating, name) for name in _SUMMARY_FIELDS]
        key = _concrete_field(LadderRating, "player")
        arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in [key, *fields])
        columns = [f.column for f in fields]
        names = ", ".join(["player_id", *columns])
        assignments = ", ".join(f"{column} = EXCLUDED.{column}" for column in columns)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {LadderRating._meta.db_table} "
                f"(ladder_id, start_games, {names}) "
                f"SELECT %s, 0, {names} FROM unnest({arrays}) AS v({names}) "
                f"ON CONFLICT (ladder_id, player_id) DO UPDATE SET {assignments}",
                [ladder_id, *(list(column) for column in zip(*changed, strict=True))],
            )
        return
    existing = dict(LadderRating.objects.filter(ladder_id=ladder_id).values_list("player", "id"))
    rows = [
        LadderRating(pk=existing.get(pk), ladder_id=ladder_id, player_id=pk,
                     **dict(zip(_SUMMARY_FIELDS, values, strict=True)))
        for pk, *values in changed
    ]  # fmt: skip
    LadderRating.objects.bulk_update(
        [row for row in rows if row.pk is not None], list(_SUMMARY_FIELDS), batch_size=1000
    )
    LadderRating.objects.bulk_create([row for row in rows if row.pk is None], batch_size=1000)
