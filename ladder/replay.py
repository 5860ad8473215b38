"""Rebuilding a club's ladder from its published events: the only code that writes ratings."""

from __future__ import annotations

import datetime as dt
import gc
import json
import logging
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import psycopg
from django.db import connection, transaction
from django.utils import timezone

from clubs.models import Club, Entry, Event, Game, Player
from ladder.fingerprint import (
    chain_fingerprints,
    event_fingerprint,
    first_difference,
    settings_fingerprint,
)
from ladder.history import HistoryStep, rate_events, rate_history
from ladder.models import LadderReplay, PlayerEventResult, RatedEvent
from ladder.policies import get_policy
from ladder.policies.base import EventInput, GameInput, PlayerState
from ladder.results import Result

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LadderInputs:
    """Everything a club's ladder is a pure function of."""

    policy: Any
    settings: Any
    events: list[EventInput]
    event_dates: dict[int, dt.date]
    initial: dict[int, PlayerState]
    chain: list[str]
    # Position of events[0] in the club's whole history (non-zero when a replay
    # skipped a prefix it could trust).
    offset: int = 0


@dataclass(frozen=True)
class PlayerSummary:
    rating: float
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    last_change: float | None


def load_inputs(club: Club, *, skip: int = 0, seed: str | None = None) -> LadderInputs:
    """The club's ladder inputs, from the `skip`-th published event on.

    With `skip`, `seed` must be the stored chain hash of the event before it,
    so the chain continues exactly as a load of everything would compute it.
    """
    policy = get_policy(club.rating_policy)
    settings = policy.parse_settings(club.rating_settings)
    start = policy.start_rating(settings)
    initial = {
        pid: PlayerState(
            rating=start if start_rating is None else start_rating,
            rated_games=start_games,
            junior=junior,
        )
        for pid, start_rating, start_games, junior in Player.objects.filter(club=club).values_list(
            "id", "start_rating", "start_games", "junior"
        )
    }
    event_rows = list(
        Event.objects.filter(club=club)
        .published()
        .in_ladder_order()
        .values_list("id", "rated", "kind", "date")
    )[skip:]
    games_by_event: dict[int, list[GameInput]] = {row[0]: [] for row in event_rows}
    game_rows = _game_rows(club, list(games_by_event) if skip else None)
    for game_id, event_id, round_no, white, black_entry, black, result, variant in game_rows:
        # Publishing requires every entry with a game to be linked, except a no-show's
        # forfeits, which stay as the file wrote them and are never rated; any other
        # unlinked one can only be a bug elsewhere, and must not crash the whole ladder.
        if white is None or (black_entry is not None and black is None):
            if black_entry is None or not _RESULTS[result].is_forfeit:
                logger.error("Game %s of club %s has an unlinked entry; skipped", game_id, club.pk)
            continue
        # Positional: twice as fast as keywords, for 100,000 games.
        games_by_event[event_id].append(
            GameInput(game_id, round_no, white, black, _RESULTS[result], variant != "")
        )
    events = [
        EventInput(
            id=event_id,
            rated=rated,
            bughouse=kind == Event.Kind.BUGHOUSE,
            games=tuple(games_by_event[event_id]),
        )
        for event_id, rated, kind, _date in event_rows
    ]
    if seed is None:
        seed = settings_fingerprint(club.rating_policy, policy.settings_to_dict(settings))
    chain = chain_fingerprints(seed, [event_fingerprint(e, initial) for e in events])
    return LadderInputs(
        policy=policy,
        settings=settings,
        events=events,
        event_dates={row[0]: row[3] for row in event_rows},
        initial=initial,
        chain=chain,
        offset=skip,
    )


_RESULTS = {r.value: r for r in Result}


def _game_rows(
    club: Club, event_ids: list[int] | None
) -> Iterator[tuple[int, int, int, int | None, int | None, int | None, str, str]]:
    """(game, event, round, white player, black entry, black player, result, variant) of
    published events.

    One plain query: a full replay reads 100,000 of these, and the ORM's row
    building was a large share of it.
    """
    game, entry, event = Game._meta.db_table, Entry._meta.db_table, Event._meta.db_table
    sql = f"""
        SELECT g.id, g.event_id, g.round, w.player_id, g.black_id, b.player_id, g.result,
               g.variant
        FROM {game} g
        JOIN {event} e ON e.id = g.event_id
        JOIN {entry} w ON w.id = g.white_id
        LEFT JOIN {entry} b ON b.id = g.black_id
        WHERE e.club_id = %s AND e.status = %s AND e.deleted_at IS NULL
    """
    params: list[object] = [club.pk, Event.Status.PUBLISHED]
    if event_ids is not None:
        if not event_ids:
            return
        sql += f" AND g.event_id IN ({', '.join(['%s'] * len(event_ids))})"
        params += event_ids
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and psycopg.capabilities.has_stream_chunked():
            # In chunks as the server produces them: the caller builds its
            # objects from one chunk while the next is being joined and sent,
            # where fetchall() first waits for all 100,000 rows of a full replay.
            yield from cursor.cursor.stream(sql, params, size=_STREAM_CHUNK)
        else:
            cursor.execute(sql, params)
            yield from cursor.fetchall()


_STREAM_CHUNK = 5_000


def replay_ladder(club_id: int, *, full: bool = False) -> bool:
    """Bring a club's stored ladder up to date with its inputs. Safe to run twice.

    Returns True when it rebuilt anything. Runs again while data_version moved
    during a rebuild, so the club is never left marked current on old data.
    With `full` (or a pending "rebuild ladder" request) nothing stored is reused.
    """
    rebuilt = False
    while True:
        with transaction.atomic():
            _lock_club(club_id)
            club = Club.objects.filter(pk=club_id).first()
            if club is None:
                return rebuilt
            version = club.data_version
            full = full or club.full_rebuild_requested
            if club.built_version >= version and not full:
                return rebuilt
            started = timezone.now()
            with _cyclic_gc_paused():
                from_position, events_rated = _rebuild(club, from_start=full)
            Club.objects.filter(pk=club_id).update(built_version=version)
            # Only when no change arrived meanwhile: otherwise the next pass needs both.
            Club.objects.filter(pk=club_id, data_version=version).update(
                out_of_date_since=None, full_rebuild_requested=False, replay_from=None
            )
            LadderReplay.objects.create(
                club=club,
                version=version,
                from_position=from_position,
                events_rated=events_rated,
                started_at=started,
                finished_at=timezone.now(),
            )
            rebuilt = True
            full = False
        if not Club.objects.filter(pk=club_id, data_version__gt=version).exists():
            return rebuilt


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Python's cycle collector off for a rebuild, and back as it was afterwards.

    A full replay builds some 300,000 tuples and dicts, none of them in a
    cycle, and the collector kept traversing them (and everything else alive)
    as they piled up: ~20 % of a full replay. Reference counting still frees
    them; only cycles wait for the collector to be back on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _lock_club(club_id: int) -> None:
    """Serialise replays of one club; PostgreSQL only (SQLite serialises all writers anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            # Two-key form: the first key namespaces our locks from anybody else's.
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [7_311, club_id % 2**31])


def _rebuild(club: Club, *, from_start: bool) -> tuple[int, int]:
    stored = list(
        RatedEvent.objects.filter(club=club)
        .order_by("position")
        .values_list("event_id", "chain_hash")
    )
    skip = 0 if from_start else _trusted_prefix(club, stored)
    inputs = load_inputs(club, skip=skip, seed=stored[skip - 1][1] if skip else None)
    if from_start:
        start = 0
    else:
        start = skip + first_difference([h for _, h in stored[skip:]], inputs.chain)
    replaced = RatedEvent.objects.filter(club=club, position__gte=start)
    # Through the events: the (event, player) index finds these rows, so the
    # table needs no (club, position) index to maintain on every write.
    PlayerEventResult.objects.filter(event_id__in=replaced.values("event_id")).delete()
    replaced.delete()

    before, summaries = _state_before(club, inputs, start)
    steps = _rate_and_store(club, inputs, start, before)
    # Each player's summary comes from the last event they played; finding it
    # first saves building a summary for each of a full replay's 40,000 results.
    last_step: dict[int, HistoryStep] = {}
    for step in steps:
        last_step.update(dict.fromkeys(step.rating.players, step))
    for player_id, step in last_step.items():
        outcome = step.rating.players[player_id]
        summaries[player_id] = PlayerSummary(
            rating=outcome.post_rating,
            rated_games=outcome.rated_games_after,
            provisional=False,
            last_played=inputs.event_dates[step.event_id],
            last_change=outcome.change,
        )
    _store_summaries(club, inputs, summaries)
    return start, len(steps)


def _trusted_prefix(club: Club, stored: list[tuple[int, str]]) -> int:
    """How many stored events before the change's earliest date can be reused unread.

    Only with a hint from every change since the last replay (Club.replay_from)
    and only if those events are still the same events in the same order;
    otherwise 0, and the replay compares the fingerprints of every event.
    """
    hint = club.replay_from
    if hint is None or hint == dt.date.min:
        return 0
    prefix = list(
        Event.objects.filter(club=club, date__lt=hint)
        .published()
        .in_ladder_order()
        .values_list("id", flat=True)
    )
    if len(prefix) > len(stored) or prefix != [event_id for event_id, _ in stored[: len(prefix)]]:
        return 0
    return len(prefix)


def _state_before(
    club: Club, inputs: LadderInputs, start: int
) -> tuple[dict[int, PlayerState], dict[int, PlayerSummary]]:
    """Each player's state before the event at `start`, from the stored results before it."""
    states = dict(inputs.initial)
    summaries = {
        pid: PlayerSummary(s.rating, s.rated_games, False, None, None)
        for pid, s in inputs.initial.items()
    }
    if start == 0:
        return states, summaries
    for player_id, post_rating, rated_games, event_date, change in _latest_results(club, start):
        if player_id not in states:
            continue
        states[player_id] = PlayerState(post_rating, rated_games, states[player_id].junior)
        summaries[player_id] = PlayerSummary(post_rating, rated_games, False, event_date, change)
    return states, summaries


def _latest_results(club: Club, start: int) -> Iterable[tuple[int, float, int, dt.date, float]]:
    """Per player, the last stored result before position `start`."""
    if connection.vendor == "postgresql":
        # One index probe per player on (club, player, position): milliseconds
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
                    WHERE per.club_id = %s AND per.player_id = p.id AND per.position < %s
                    ORDER BY per.position DESC LIMIT 1
                ) r
                WHERE p.club_id = %s
                """,
                [club.pk, start, club.pk],
            )
            return cursor.fetchall()
    by_player: dict[int, tuple[int, float, int, dt.date, float]] = {}
    rows = PlayerEventResult.objects.filter(club=club, position__lt=start).order_by("position")
    for row in rows.values_list(
        "player_id", "post_rating", "rated_games_after", "event_date", "change"
    ):
        by_player[row[0]] = row
    return by_player.values()


_RESULT_COLUMNS = (
    "club_id", "event_id", "player_id", "position", "event_date", "pre_rating", "k",
    "provisional", "games_counted", "expected", "actual", "change", "post_rating",
    "rated_games_after",
)  # fmt: skip


def _result_column_types() -> list[str]:
    """The database types of _RESULT_COLUMNS, which a binary COPY must name."""
    fields = {f.column: f for f in PlayerEventResult._meta.concrete_fields}
    return [fields[column].db_type(connection) for column in _RESULT_COLUMNS]


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


def _rate_and_store(
    club: Club, inputs: LadderInputs, start: int, before: dict[int, PlayerState]
) -> list[HistoryStep]:
    """Rate the events from position `start` on and store what each one did."""
    events = inputs.events[start - inputs.offset :]
    rated = rate_events(inputs.policy, inputs.settings, events, dict(before))
    if connection.vendor != "postgresql":
        steps = list(rated)
        _bulk_create_steps(club, inputs, start, steps)
        return steps
    steps = []
    with connection.cursor() as cursor:
        raw = cursor.cursor
        # COPY: a full replay writes tens of thousands of rows, and bulk_create
        # spends most of a full replay building and compiling them. Each
        # event's rows are sent while the next events are rated, so the server
        # inserts and indexes them on another core instead of after the rating.
        # Binary format: formatting seven floats a row as text and parsing them
        # back on the server cost several times what the whole binary COPY does.
        table = PlayerEventResult._meta.db_table
        sql = f"COPY {table} ({', '.join(_RESULT_COLUMNS)}) FROM STDIN (FORMAT BINARY)"
        club_id = club.pk
        with raw.copy(sql) as copy:
            copy.set_types(_result_column_types())
            write_row = copy.write_row
            for position, step in enumerate(rated, start=start):
                steps.append(step)
                event_id, event_date = step.event_id, inputs.event_dates[step.event_id]
                for player_id, o in step.rating.players.items():
                    write_row(
                        (club_id, event_id, player_id, position, event_date, o.pre_rating, o.k,
                         o.provisional, o.games_counted, o.expected, o.actual, o.change,
                         o.post_rating, o.rated_games_after)
                    )  # fmt: skip
        table = RatedEvent._meta.db_table
        columns = "(event_id, club_id, position, chain_hash, game_outcomes)"
        with raw.copy(f"COPY {table} {columns} FROM STDIN") as copy:
            for position, step in enumerate(steps, start=start):
                chain_hash = inputs.chain[position - inputs.offset]
                outcomes = json.dumps(stored_outcomes(step))
                copy.write_row((step.event_id, club.pk, position, chain_hash, outcomes))
    return steps


def _bulk_create_steps(
    club: Club, inputs: LadderInputs, start: int, steps: list[HistoryStep]
) -> None:
    RatedEvent.objects.bulk_create(
        [
            RatedEvent(
                event_id=step.event_id,
                club_id=club.pk,
                position=position,
                chain_hash=inputs.chain[position - inputs.offset],
                game_outcomes=stored_outcomes(step),
            )
            for position, step in enumerate(steps, start=start)
        ],
        batch_size=1000,
    )
    PlayerEventResult.objects.bulk_create(
        [
            PlayerEventResult(
                club_id=club.pk,
                event_id=step.event_id,
                player_id=player_id,
                position=position,
                event_date=inputs.event_dates[step.event_id],
                **o._asdict(),  # the outcome's fields are the row's rating columns
            )
            for position, step in enumerate(steps, start=start)
            for player_id, o in step.rating.players.items()
        ],
        batch_size=2000,
    )


_SUMMARY_FIELDS = ("rating", "rated_games", "provisional", "last_played", "last_change")


def _store_summaries(club: Club, inputs: LadderInputs, summaries: dict[int, PlayerSummary]) -> None:
    changed: list[tuple[int, float, int, bool, dt.date | None, float | None]] = []
    for pk, *old in Player.objects.filter(club=club).values_list("id", *_SUMMARY_FIELDS):
        summary = summaries[pk]
        provisional = inputs.policy.is_provisional(
            PlayerState(summary.rating, summary.rated_games), inputs.settings
        )
        new = (
            summary.rating,
            summary.rated_games,
            provisional,
            summary.last_played,
            summary.last_change,
        )
        if new != tuple(old):
            changed.append((pk, *new))
    if not changed:
        return
    if connection.vendor == "postgresql":
        # One UPDATE from arrays: bulk_update's CASE WHEN per field and player
        # cost ~240 ms when the ratings of all 400 players of a club moved.
        fields = [Player._meta.get_field(name) for name in _SUMMARY_FIELDS]
        assignments = ", ".join(f"{f.column} = v.{f.column}" for f in fields)
        arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in [Player._meta.pk, *fields])
        names = ", ".join(["id", *(f.column for f in fields)])
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Player._meta.db_table} p SET {assignments} "
                f"FROM unnest({arrays}) AS v({names}) WHERE p.id = v.id",
                [list(column) for column in zip(*changed, strict=True)],
            )
        return
    Player.objects.bulk_update(
        [
            Player(pk=pk, **dict(zip(_SUMMARY_FIELDS, values, strict=True)))
            for pk, *values in changed
        ],
        list(_SUMMARY_FIELDS),
        batch_size=1000,
    )


def verify_ladder(club: Club) -> list[str]:
    """Replay the whole history in memory and list every difference from what is stored."""
    inputs = load_inputs(club)
    steps, final = rate_history(inputs.policy, inputs.settings, inputs.events, inputs.initial)
    differences: list[str] = []
    stored = {(r.event_id, r.player_id): r for r in PlayerEventResult.objects.filter(club=club)}
    stored_events = dict(
        RatedEvent.objects.filter(club=club).values_list("event_id", "game_outcomes")
    )
    expected_keys = set()
    for step in steps:
        outcomes = stored_outcomes(step)
        if stored_events.get(step.event_id) != outcomes:
            differences.append(f"event {step.event_id}: stored game outcomes differ")
        for player_id, o in step.rating.players.items():
            expected_keys.add((step.event_id, player_id))
            row = stored.get((step.event_id, player_id))
            if row is None:
                differences.append(f"event {step.event_id}, player {player_id}: no stored result")
            elif (
                not _close(row.post_rating, o.post_rating)
                or row.rated_games_after != o.rated_games_after
            ):
                differences.append(
                    f"event {step.event_id}, player {player_id}: stored {row.post_rating:.4f} "
                    f"after {row.rated_games_after} games, replay {o.post_rating:.4f} "
                    f"after {o.rated_games_after} games"
                )
    for key in sorted(set(stored) - expected_keys):
        differences.append(f"event {key[0]}, player {key[1]}: stored result for no rated game")
    if set(stored_events) - {s.event_id for s in steps}:
        differences.append("stored ratings for events that are not published")
    played = {player_id for _event_id, player_id in expected_keys}
    for player in Player.objects.filter(club=club).only("id", "name", "rating", "rated_games"):
        state = final[player.pk]
        if player.rating is None and _not_on_the_ladder_yet(player, state, played):
            continue
        if (
            player.rating is None
            or not _close(player.rating, state.rating)
            or (player.rated_games != state.rated_games)
        ):
            differences.append(
                f"player {player.pk} ({player.name}): stored {player.rating} after "
                f"{player.rated_games} games, replay {state.rating:.4f} after {state.rated_games}"
            )
    return differences


def _not_on_the_ladder_yet(player: Player, state: PlayerState, played: set[int]) -> bool:
    """A player no replay has written yet, and whom a replay would leave off the ladder.

    A "new player" decision on a draft creates the player before any event of
    theirs is published, and nothing a replay reads changes, so no replay runs
    and their rating stays empty. That is the same ladder as the start rating
    with no games a replay would store. A player who played in a published
    event, or who brings games from an old ladder (and so belongs on it at
    once), still differs.
    """
    return player.pk not in played and state.rated_games == 0 and player.rated_games == 0


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def sweep_ladders(older_than_seconds: int) -> list[int]:
    """Queue a replay for every club whose ladder has been out of date for too long."""
    from ladder.jobs import enqueue_replay

    cutoff = timezone.now() - dt.timedelta(seconds=older_than_seconds)
    club_ids = list(
        Club.objects.ladder_out_of_date()
        .filter(out_of_date_since__lte=cutoff)
        .values_list("id", flat=True)
    )
    for club_id in club_ids:
        enqueue_replay(club_id)
    return club_ids
