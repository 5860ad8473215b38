"""Rebuilding a club's ladder from its published events: the only code that writes ratings.

The algorithm: reuse unread the events dated before Club.replay_from (which database
triggers keep at or before the earliest event any write touched), fingerprint the
events from there on into a chain, find the first position whose stored hash differs
(or earlier, where replay_from says: it never makes the replay start later), fold
the rating policy over the events from there on from the states the stored results
leave, and store what each event did.
verify_ladder folds everything again in memory and compares (ladder/jobs.py's
sweep_ladders queues replays that were missed). What is read and written, and
how, is ladder/store/.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from clubs.models import Club, Player
from ladder import lifetime, store
from ladder.fingerprint import (
    chain_fingerprints,
    event_fingerprint,
    first_difference,
    settings_fingerprint,
)
from ladder.history import HistoryStep, rate_events, rate_history
from ladder.models import LadderReplay
from ladder.policies import Policy, get_policy
from ladder.policies.base import EventInput, PlayerState, PolicySettings
from ladder.store import PlayerSummary
from ladder.store import players as store_players


@dataclass(frozen=True)
class LadderInputs:
    """Everything a club's ladder is a pure function of."""

    policy: Policy
    settings: PolicySettings
    events: list[EventInput]
    event_dates: dict[int, dt.date]
    initial: dict[int, PlayerState]
    chain: list[str]
    # Position of events[0] in the club's whole history: non-zero when the replay
    # left a trusted prefix unread.
    offset: int = 0


def load_inputs(
    club: Club, *, since: dt.date | None = None, skip: int = 0, seed: str | None = None
) -> LadderInputs:
    """The club's ladder inputs: every published event, fingerprinted into the chain.

    With `since`, only the events dated then or later: the `skip` before them are left
    unread, and `seed` must be the stored chain hash of the last of those, so the chain
    goes on exactly as a load of everything would compute it.
    """
    policy = get_policy(club.rating_policy)
    settings = policy.parse_settings(club.rating_settings)
    initial = store.starting_states(club.pk, policy.start_rating(settings))
    events, event_dates = store.event_inputs(club.pk, since=since)
    if seed is None:
        seed = settings_fingerprint(club.rating_policy, policy.settings_to_dict(settings))
    chain = chain_fingerprints(seed, [event_fingerprint(e, initial) for e in events])
    return LadderInputs(
        policy=policy,
        settings=settings,
        events=events,
        event_dates=event_dates,
        initial=initial,
        chain=chain,
        offset=skip,
    )


def replay_ladder(club_id: int, *, full: bool = False) -> bool:
    """Bring a club's stored ladder up to date with its inputs. Safe to run twice.

    Returns True when it rebuilt anything. Runs again while data_version moved
    during a rebuild, so the club is never left marked current on old data.
    With `full` (or a pending "rebuild ladder" request) nothing stored is reused.
    """
    rebuilt = False
    while True:
        with transaction.atomic():
            store.lock_club(club_id)
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
            # replay_from too: a write the triggers saw since the club was read moved it.
            Club.objects.filter(
                pk=club_id, data_version=version, replay_from=club.replay_from
            ).update(out_of_date_since=None, full_rebuild_requested=False, replay_from=None)
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
    as they piled up: ~15 % of a full replay's time. Reference counting still frees
    them; only cycles wait for the collector to be back on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _rebuild(club: Club, *, from_start: bool) -> tuple[int, int]:
    """Replace the stored results from the first changed event on; returns (start, events rated)."""
    stored = [] if from_start else store.stored_chain(club.pk)
    skip = _trusted_prefix(club, stored)
    if skip:
        inputs = load_inputs(club, since=club.replay_from, skip=skip, seed=stored[skip - 1][1])
    else:
        inputs = load_inputs(club)
    if from_start:
        start = 0
    else:
        hashes = [h for _, h in stored[skip:]]
        # The fingerprints decide after the trusted prefix; the date hint may only move
        # the start earlier.
        start = inputs.offset + min(
            first_difference(hashes, inputs.chain), _hinted_start(club, inputs)
        )
    # Whose lifetime this replay may change: who had results from `start` on (read before
    # they go) and, below, who has an entry in the events it rates.
    touched = None if start == 0 else store_players.players_from(club.pk, start)
    store.delete_from(club.pk, start)

    before, summaries = store.ladder_before(club.pk, start, inputs.initial)
    events = inputs.events[start - inputs.offset :]
    # A generator: the store writes each event's rows while the next are rated.
    rated = rate_events(inputs.policy, inputs.settings, events, dict(before))
    chain = inputs.chain[start - inputs.offset :]
    steps = store.write_steps(club.pk, start, rated, chain, inputs.event_dates)
    # Each player's summary comes from the last event they played; finding it
    # first saves building a summary for each of a full replay's 40,000 results.
    last_step: dict[int, HistoryStep] = {}
    for step in steps:
        last_step.update(dict.fromkeys(step.rating.players, step))
    for player_id, step in last_step.items():
        outcome = step.rating.players[player_id]
        summaries[player_id] = PlayerSummary(
            outcome.post_rating,
            outcome.rated_games_after,
            False,
            inputs.event_dates[step.event_id],
            outcome.change,
        )
    store.write_summaries(
        club.pk,
        {
            pid: s._replace(
                provisional=inputs.policy.is_provisional(
                    PlayerState(s.rating, s.rated_games), inputs.settings
                )
            )
            for pid, s in summaries.items()
        },
    )
    if touched is not None:
        touched |= store_players.entrants_from(club.pk, start)
    store_players.write_records(club.pk, lifetimes(club.pk, touched), replacing=touched)
    return start, len(steps)


def lifetimes(club_id: int, players: set[int] | None = None) -> dict[int, dict[str, object]]:
    """The stored form of the lifetimes of `players` (None: everybody) with a long history
    (lifetime.STORED_FROM_EVENTS), summed from their stored results and games."""
    counts = store_players.event_counts(club_id, players)
    long = {pk for pk, events in counts.items() if events >= lifetime.STORED_FROM_EVENTS}
    if not long:
        return {}
    results, games = store_players.lifetime_rows(club_id, long)
    outcomes = store.stored_game_outcomes(club_id)
    return {
        pk: lifetime.to_json(lifetime.summarise(results.get(pk, []), games.get(pk, []), outcomes))
        for pk in long
    }


def _trusted_prefix(club: Club, stored: list[tuple[int, str]]) -> int:
    """How many stored events, all dated before Club.replay_from, can be reused unread.

    The database keeps replay_from at or before the earliest event any write to a
    ladder input touched since the last replay (the triggers of
    ladder/migrations/0005_replay_from_triggers.py; a caller's hint can only lower
    it), so nothing before it changed. Still only if those are the same events in
    the same order as stored; otherwise, or with no replay_from (a change no trigger
    saw), 0: the replay reads and compares the fingerprints of every event.
    """
    hint = club.replay_from
    if hint is None or hint == dt.date.min or not stored:
        return 0
    prefix = store.published_event_ids(club.pk, before=hint)
    if len(prefix) > len(stored) or prefix != [event_id for event_id, _ in stored[: len(prefix)]]:
        return 0
    return len(prefix)


def _hinted_start(club: Club, inputs: LadderInputs) -> int:
    """The index in inputs.events of the first event on or after Club.replay_from (the
    earliest date the writes since the last replay touched, by the triggers, or a
    caller's earlier hint); past the last event when there is none.

    Only ever taken as a lower bound beside the fingerprints' first difference: a hint
    that is too late changes nothing, one that is too early re-rates unchanged events.
    """
    hint = club.replay_from
    if hint is None:
        return len(inputs.events)
    return next(
        (i for i, e in enumerate(inputs.events) if inputs.event_dates[e.id] >= hint),
        len(inputs.events),
    )


def verify_ladder(club: Club) -> list[str]:
    """Replay the whole history in memory and list every difference from what is stored."""
    inputs = load_inputs(club)
    steps, final = rate_history(inputs.policy, inputs.settings, inputs.events, inputs.initial)
    differences: list[str] = []
    stored = store.stored_results(club.pk)
    stored_events = store.stored_game_outcomes(club.pk)
    expected_keys = set()
    for step in steps:
        outcomes = store.stored_outcomes(step)
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
    stored_records = store_players.stored_records(club.pk)
    for pk, summed in lifetimes(club.pk).items():
        if stored_records.pop(pk, None) != summed:
            differences.append(f"player {pk}: stored lifetime record differs")
    differences += [
        f"player {pk}: stored lifetime record no replay writes" for pk in stored_records
    ]
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
