"""Fingerprints of a ladder's inputs, so a replay can start at the first event that changed.

Each event's fingerprint covers everything its rating depends on: its games,
who played them and whether each was a variant, its rated and bughouse flags
and the starting state of each participant. Chaining them (each hash includes
the previous one) means the first position where a stored chain differs from
the computed chain is the first event whose result may differ; everything
before it can be reused as stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence

from clubs.results import Result
from ladder.policies.base import EventInput, PlayerState, participants


def settings_fingerprint(policy_name: str, settings: Mapping[str, object]) -> str:
    payload = json.dumps([policy_name, settings], sort_keys=True, default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def event_fingerprint(event: EventInput, initial: Mapping[int, PlayerState]) -> str:
    # A variant game adds a marker; standard games keep the tuple they always had, so the
    # stored chains of existing ladders stay valid.
    games = sorted(
        [
            (g.id, g.round, g.white, -1 if g.black is None else g.black, _VALUES[g.result])
            + (_VARIANT if g.variant else ())
            for g in event.games
        ]
    )
    starts = [
        (p, state.rating, state.rated_games, state.junior)
        for p in sorted(participants(event))
        for state in (initial[p],)
    ]
    # repr of tuples of ints, floats, bools and strings: stable, and several
    # times faster than JSON over the 100,000 games of a large history.
    payload = repr((event.id, event.rated, event.bughouse, games, starts))
    return hashlib.sha256(payload.encode()).hexdigest()


# Result.value is an enum property; a dict lookup is several times cheaper.
_VALUES = {result: result.value for result in Result}
_VARIANT = ("variant",)


def chain_fingerprints(seed: str, event_hashes: Sequence[str]) -> list[str]:
    chained: list[str] = []
    previous = seed
    for event_hash in event_hashes:
        previous = hashlib.sha256(f"{previous}:{event_hash}".encode()).hexdigest()
        chained.append(previous)
    return chained


def first_difference(stored: Sequence[str], computed: Sequence[str]) -> int:
    """Index of the first event to re-rate; len(computed) when nothing changed."""
    for index, (old, new) in enumerate(zip(stored, computed, strict=False)):
        if old != new:
            return index
    return min(len(stored), len(computed))
