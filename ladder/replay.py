"""Rebuilding a club's ladders from its published events: the only code that writes ratings.

Each ladder of a club is replayed on its own, from its own stored chain, over the club's
published events whose kind it rates; a ladder nothing changed for is not touched.

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
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from clubs.models import Club, Ladder, Player
from clubs.results import BUGHOUSE
from ladder import lifetime, standings, store, tiebreaks
from ladder.event_ratings import RatingLine
from ladder.event_rules import Tiebreaks, club_order, is_round_robin
from ladder.fingerprint import (
    chain_fingerprints,
    event_fingerprint,
    first_difference,
    settings_fingerprint,
)
from ladder.history import HistoryStep, rate_events, rate_history
from ladder.models import EventStandings, LadderReplay
from ladder.policies import Policy, get_policy
from ladder.policies.base import EventInput, PlayerState, PolicySettings
from ladder.store import PlayerSummary
from ladder.store import players as store_players
from ladder.store import standings as standings_store
from ladder.store.standings import EVERY_EVENT, Which


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
    ladder: Ladder,
    *,
    since: dt.date | None = None,
    skip: int = 0,
    seed: str | None = None,
    kinds: list[str] | None = None,
) -> LadderInputs:
    """The ladder's inputs: every published event of its club whose kind it rates,
    fingerprinted into the chain.

    With `since`, only the events dated then or later: the `skip` before them are left
    unread, and `seed` must be the stored chain hash of the last of those, so the chain
    goes on exactly as a load of everything would compute it. `kinds`: the ladder's
    Ladder.event_kinds, when the caller knows them already.
    """
    policy = get_policy(ladder.rating_policy)
    settings = policy.parse_settings(ladder.rating_settings)
    initial = store.starting_states(ladder.club_id, ladder.pk, policy.start_rating(settings))
    kinds = ladder.event_kinds() if kinds is None else kinds
    events, event_dates = store.event_inputs(ladder.club_id, kinds, since=since)
    if seed is None:
        seed = settings_fingerprint(ladder.rating_policy, policy.settings_to_dict(settings))
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


def bring_up_to_date(club_id: int, *, full: bool = False) -> bool:
    """What a change queues (ladder.jobs): replay_ladder, then keep the final standings of
    the events its changes can have reached for their pages (keep_standings), once the
    ladders are committed and current. Returns whether anything was rebuilt."""
    # The earliest event a write touched since the last replay (the triggers' mark), read
    # before the replay clears it; None: no mark, so every event is looked at.
    since = Club.objects.filter(pk=club_id).values_list("replay_from", flat=True).first()
    rebuilt = replay_ladder(club_id, full=full)
    if rebuilt and (full or since is None):
        keep_standings(club_id)
    elif rebuilt:
        # Only the events of the first day a write touched (the corrected event, a new one):
        # a later event's games are as they were, only its rating lines moved, and keeping
        # each of them again here made a correction to a club's first event cost four to
        # five times its replay (issue 34). Such an event's page takes its kept ranks and
        # works out its lines (EventStandings.ranking), and its first read queues the
        # keeping of that one event (members.web.event_views, jobs.enqueue_event_standings).
        keep_standings(club_id, Which(since=since, until=since))
    return rebuilt


def replay_ladder(club_id: int, *, full: bool = False) -> bool:
    """Bring a club's stored ladders up to date with their inputs. Safe to run twice.

    Returns True when it rebuilt anything. Each ladder out of date (every one with `full`,
    or one with a pending "rebuild ladder" request, which reuses nothing stored) is
    replayed; the others are left as they are, their rows and log untouched. Runs again
    while a data_version moved during a rebuild, so no ladder is left marked current on
    old data.
    """
    rebuilt = False
    while True:
        with transaction.atomic():
            store.lock_club(club_id)
            club = Club.objects.filter(pk=club_id).first()
            if club is None:
                return rebuilt
            ladders = list(Ladder.objects.for_club(club_id))
            due = [
                ladder
                for ladder in ladders
                if full or ladder.full_rebuild_requested or not ladder.is_current
            ]
            if not due:
                return rebuilt
            for ladder in due:
                # Ladder.event_kinds, without asking again which ladder is the first.
                kinds = [*ladder.kinds, *([BUGHOUSE] if ladder.pk == ladders[0].pk else [])]
                _replay_one(club, ladder, kinds, full=full or ladder.full_rebuild_requested)
            rebuilt = True
            full = False
        # replay_from is shared by the club's ladders: cleared once all are current, and only
        # if no write the triggers saw since the club was read moved it. In a statement of its
        # own, after the ladders' rows are committed: a correction locks the club's row (its
        # triggers) before the ladders' (club_changed), so a replay holding a ladder's row
        # while it waits for the club's would deadlock with it. A write committed in between
        # moved replay_from or left a ladder stale, and either keeps the row as it is.
        stale = Ladder.objects.filter(club_id=OuterRef("pk"), built_version__lt=F("data_version"))
        Club.objects.filter(pk=club_id, replay_from=club.replay_from).exclude(Exists(stale)).update(
            replay_from=None
        )
        if not Ladder.objects.filter(club_id=club_id).out_of_date().exists():
            return rebuilt


def keep_standings(club_id: int, which: Which = EVERY_EVENT) -> int:
    """Rank and keep the final standings of the club's published events (those `which`
    names, of standings.KEPT_FROM_ENTRANTS entrants or more) whose kept row is missing or
    was computed from other inputs; returns how many were kept.

    Run after each replay for the events a write touched first (on the club's replay_from),
    for every event after a new tie-break order (jobs), and for one event whose page found
    its kept row out of date (jobs.event_standings_job). A kept row
    carries the hash of its inputs and the page uses it only while that hash is the one of
    the games, entries and rating lines it reads, so a row this missed is never shown: the
    page ranks live until the next run keeps it. The ranking is the page's own
    (ladder.standings); a row whose rating lines alone moved keeps its ranks,
    points and tie-breaks, and only its lines' part is worked out again."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        return 0
    order = club_order(club)
    kept = standings_store.kept_inputs(club_id, which)
    due, same_ranks = [], []
    for facts in standings_store.published_facts(club_id, which, standings.KEPT_FROM_ENTRANTS):
        rules = Tiebreaks(
            order,
            round_robin=is_round_robin(facts.pairing_system, facts.round_robin),
            rules=tiebreaks.rules_on(facts.date),
        )
        lines = {line[0]: RatingLine(*line[1:]) for line in facts.lines}
        inputs = standings.inputs(facts.games, facts.entries, rules, lines)
        old_inputs, old_ranking = kept.get(facts.event_id, ("", ""))
        if old_inputs != inputs:
            ranking = standings.ranking_inputs(facts.games, facts.entries, rules)
            due.append((facts, rules, lines, inputs, ranking))
            if ranking == old_ranking:
                same_ranks.append(facts.event_id)
    # The rows whose ranks still hold (only the rating lines moved), read in one go.
    reusable = standings_store.kept_rows(same_ranks)
    fresh = []
    for facts, rules, lines, inputs, ranking in due:
        # Names play no part; the page puts this request's in.
        people = {e: (player, "", start) for e, (start, _rank, player) in facts.entries.items()}
        old = reusable.get(facts.event_id)
        ranked = None
        if old is not None and old.ranking == ranking:
            ranked = standings.rerated(
                old.rows, people, old.ranks_from_file, old.hides_tiebreaks, facts.games, lines
            )
        if ranked is None:
            file_ranks = {e: rank for e, (_start, rank, _player) in facts.entries.items()}
            ranked = standings.final_standings(people, facts.games, rules, file_ranks)
            standings.rate(ranked.standings, facts.games, lines)
        fresh.append(
            EventStandings(
                event_id=facts.event_id,
                club_id=club_id,
                inputs=inputs,
                ranking=ranking,
                rows=standings.encoded(ranked),
                ranks_from_file=ranked.ranks_from_file,
                hides_tiebreaks=ranked.hides_tiebreaks,
            )
        )
    standings_store.keep(club_id, fresh)
    return len(fresh)


def _replay_one(club: Club, ladder: Ladder, kinds: list[str], *, full: bool) -> None:
    """Rebuild one ladder (under the club's lock) and mark it built at the version read."""
    version = ladder.data_version
    started = timezone.now()
    with cyclic_gc_paused():
        from_position, events_rated = _rebuild(club, ladder, kinds, from_start=full)
    Ladder.objects.filter(pk=ladder.pk).update(built_version=version)
    # Only when no change arrived meanwhile: otherwise the next pass needs both.
    Ladder.objects.filter(pk=ladder.pk, data_version=version).update(
        out_of_date_since=None, full_rebuild_requested=False
    )
    LadderReplay.objects.create(
        club=club,
        ladder=ladder,
        version=version,
        from_position=from_position,
        events_rated=events_rated,
        started_at=started,
        finished_at=timezone.now(),
    )


@contextmanager
def cyclic_gc_paused() -> Iterator[None]:
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


def _rebuild(club: Club, ladder: Ladder, kinds: list[str], *, from_start: bool) -> tuple[int, int]:
    """Replace the ladder's stored results from the first changed event on; returns
    (start, events rated)."""
    stored = [] if from_start else store.stored_chain(ladder.pk)
    skip = _trusted_prefix(club, kinds, stored)
    if skip:
        seed = stored[skip - 1][1]
        inputs = load_inputs(ladder, since=club.replay_from, skip=skip, seed=seed, kinds=kinds)
    else:
        inputs = load_inputs(ladder, kinds=kinds)
    if from_start:
        start = 0
    else:
        hashes = [h for _, h in stored[skip:]]
        # The fingerprints decide after the trusted prefix; the date hint may only move
        # the start earlier.
        start = inputs.offset + min(
            first_difference(hashes, inputs.chain), _hinted_start(club, inputs)
        )
    # Whose lifetime this replay may change: who had results on this ladder from `start` on
    # (read before they go) and, below, who has an entry in the events it rates.
    touched = None if start == 0 else store_players.players_from(ladder.pk, start)
    store.delete_from(ladder.pk, start)

    before, summaries = store.ladder_before(club.pk, ladder.pk, start, inputs.initial)
    events = inputs.events[start - inputs.offset :]
    # A generator: the store writes each event's rows while the next are rated.
    rated = rate_events(inputs.policy, inputs.settings, events, dict(before))
    chain = inputs.chain[start - inputs.offset :]
    steps = store.write_steps(club.pk, ladder.pk, start, rated, chain, inputs.event_dates)
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
        ladder.pk,
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
        touched |= store_players.entrants_from(ladder.pk, start)
    store_players.write_records(club.pk, lifetimes(club.pk, touched), replacing=touched)
    return start, len(steps)


def lifetimes(club_id: int, players: set[int] | None = None) -> dict[int, dict[str, object]]:
    """The stored form of the lifetimes of `players` (None: everybody) with a long history
    (lifetime.STORED_FROM_EVENTS), summed from their stored results and games on every
    ladder of the club: a lifetime counts every game, whichever ladder it fed."""
    counts = store_players.event_counts(club_id, players)
    long = {pk for pk, events in counts.items() if events >= lifetime.STORED_FROM_EVENTS}
    if not long:
        return {}
    results, games = store_players.lifetime_rows(club_id, long)
    outcomes: dict[int, dict[str, list[object]]] = {}
    for ladder_id in Ladder.objects.for_club(club_id).values_list("pk", flat=True):
        outcomes.update(store.stored_game_outcomes(ladder_id))
    return {
        pk: lifetime.to_json(lifetime.summarise(results.get(pk, []), games.get(pk, []), outcomes))
        for pk in long
    }


def _trusted_prefix(club: Club, kinds: list[str], stored: list[tuple[int, str]]) -> int:
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
    prefix = store.published_event_ids(club.pk, kinds, before=hint)
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
    """Replay every ladder of the club in memory and list every difference from what is
    stored; each line names its ladder when the club has more than one."""
    ladders = list(Ladder.objects.for_club(club.pk))
    differences: list[str] = []
    for ladder in ladders:
        prefix = f"{ladder.slug}: " if len(ladders) > 1 else ""
        differences.extend(prefix + line for line in _verify_one(club, ladder))
    # The stored lifetimes are the club's, over every ladder.
    stored_records = store_players.stored_records(club.pk)
    for pk, summed in lifetimes(club.pk).items():
        if stored_records.pop(pk, None) != summed:
            differences.append(f"player {pk}: stored lifetime record differs")
    differences += [
        f"player {pk}: stored lifetime record no replay writes" for pk in stored_records
    ]
    return differences


def _verify_one(club: Club, ladder: Ladder) -> list[str]:
    inputs = load_inputs(ladder)
    steps, final = rate_history(inputs.policy, inputs.settings, inputs.events, inputs.initial)
    differences: list[str] = []
    stored = store.stored_results(ladder.pk)
    stored_events = store.stored_game_outcomes(ladder.pk)
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
    played = {player_id for _event_id, player_id in expected_keys}
    players = Player.objects.filter(club=club).rated_on(ladder).only("id", "name")
    for player in players:
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
