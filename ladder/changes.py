"""The one door through which every change the ladder or the club's pages show passes.

A write calls `club_changed` inside its own transaction and says what it changed:

- `inputs`: something the ladder is a function of (a result, a game, an event's date,
  publication or deletion, a name link, a merge, a rating setting, a starting rating).
  data_version moves, the club is marked out of date and a replay is queued for when the
  transaction commits. The replay then moves built_version.
- `shown`: something the pages show beyond the ladder's numbers (a name, a family's
  consent, an event's name, a new player on the roster). pages_version moves.

A change that is both says both. Every per-process cache (kept pages, rosters, the
names screen's prepared roster) keys on these versions, so none ever needs clearing.
"""

from __future__ import annotations

import datetime as dt
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Least, Now

from clubs.models import Club
from ladder import jobs


def club_changed(
    club_id: int,
    *,
    inputs: bool = False,
    shown: bool = False,
    from_date: dt.date | None = None,
) -> None:
    """Record that a write changed the club's ladder inputs, what its pages show, or both.

    Call it inside the transaction of the write, so the mark and the change commit (or
    roll back) together; a rolled-back change queues nothing.

    `from_date` (with `inputs` only) is a hint: the date of the earliest event the change
    can affect. Database triggers already lower Club.replay_from to the earliest event
    any write touches (ladder/migrations/0005_replay_from_triggers.py), and the replay
    trusts only what is dated before it; a hint can only lower it further, never raise
    it, so a wrong one costs time, never a stale ladder.
    """
    if not (inputs or shown):
        raise ValueError("club_changed() needs inputs=True, shown=True or both")
    if from_date is not None and not inputs:
        raise ValueError("from_date is a hint for a changed ladder input")
    updates: dict[str, Any] = {}
    if inputs:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("club_changed(inputs=True) must run inside transaction.atomic()")
        updates["data_version"] = F("data_version") + 1
        updates["out_of_date_since"] = Coalesce(F("out_of_date_since"), Now())
        if from_date is not None:
            updates["replay_from"] = Least(
                Coalesce(F("replay_from"), Value(from_date)), Value(from_date)
            )
    if shown:
        updates["pages_version"] = F("pages_version") + 1
    Club.objects.filter(pk=club_id).update(**updates)
    if inputs:
        # Looked up at call time, so a test or bench that swaps jobs.enqueue_replay is obeyed.
        transaction.on_commit(partial(jobs.enqueue_replay, club_id))


def request_full_rebuild(club_id: int) -> None:
    """A director's or admin's "rebuild when in doubt": replay from the very first event."""
    Club.objects.filter(pk=club_id).update(full_rebuild_requested=True)
    club_changed(club_id, inputs=True)
