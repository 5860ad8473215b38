"""The one door through which every change the ladder or the club's pages show passes.

A write calls `club_changed` inside its own transaction and says what it changed:

- `inputs`: something the ladder is a function of (a result, a game, an event's date,
  publication or deletion, a name link, a merge, a rating setting, a starting rating).
  data_version moves on each ladder the change feeds (those that rate one of `kinds`;
  every ladder of the club without `kinds`), each is marked out of date, and one replay of
  the club is queued for when the transaction commits. The replay then moves each
  ladder's built_version.
- `shown`: something the pages show beyond the ladder's numbers (a name, a family's
  consent, an event's name, a new player on the roster). pages_version moves.

A change that is both says both. Every per-process cache (kept pages, rosters, the
names screen's prepared roster) keys on these versions, so none ever needs clearing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Least, Now

from clubs.models import Club, Ladder
from ladder import jobs


def club_changed(
    club_id: int,
    *,
    inputs: bool = False,
    shown: bool = False,
    from_date: dt.date | None = None,
    kinds: Collection[str] | None = None,
    ladder_ids: Collection[int] | None = None,
    ranking: bool = False,
    ranked_event: int | None = None,
) -> None:
    """Record that a write changed the club's ladder inputs, what its pages show, or both.

    Call it inside the transaction of the write, so the mark and the change commit (or
    roll back) together; a rolled-back change queues nothing.

    `from_date` (with `inputs` only) is a hint: the date of the earliest event the change
    can affect. Database triggers already lower Club.replay_from to the earliest event
    any write touches (ladder/migrations/0005_replay_from_triggers.py), and the replay
    trusts only what is dated before it; a hint can only lower it further, never raise
    it, so a wrong one costs time, never a stale ladder.

    `kinds` (with `inputs` only): the event kinds the change is about (an event's kind,
    and its old kind too when the kind changed); only the ladders that rate one of them
    move. None: every ladder of the club (a merge, a roster import, a start rating,
    anything not tied to one event). `ladder_ids` names the ladders instead (the one
    writer of kinds, ladder.roster.ladders.set_kinds, whose ladders no longer rate what moved).

    `ranking` (with `shown`): the club's tie-break order, which ranks every event's
    standings; their kept rows (ladder.replay.keep_standings) are ranked again when it commits.
    `ranked_event` (with `shown`): one published event whose standings rank otherwise (its
    director said whether it is a round robin); its kept row is ranked again when it commits.
    """
    if not (inputs or shown):
        raise ValueError("club_changed() needs inputs=True, shown=True or both")
    if (from_date is not None or kinds is not None or ladder_ids is not None) and not inputs:
        raise ValueError("from_date, kinds and ladder_ids are about a changed ladder input")
    if (ranking or ranked_event is not None) and not shown:
        raise ValueError("a new ranking of the standings is something the pages show")
    updates: dict[str, Any] = {}
    moved = False
    if inputs:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError("club_changed(inputs=True) must run inside transaction.atomic()")
        # The club's row before its ladders', as the triggers of a write lock them: two
        # changes taking the two in opposite orders deadlock on PostgreSQL.
        list(
            Club.objects.select_for_update(no_key=True)
            .filter(pk=club_id)
            .values_list("pk", flat=True)
        )
        moved = _mark_ladders(club_id, kinds, ladder_ids)
        if from_date is not None and moved:
            updates["replay_from"] = Least(
                Coalesce(F("replay_from"), Value(from_date)), Value(from_date)
            )
    # An input no ladder rates (a bughouse event published, a kind no ladder claims) moves no
    # ladder, but its pages still show it: they must not be kept as they were.
    if shown or (inputs and not moved):
        updates["pages_version"] = F("pages_version") + 1
    if updates:
        Club.objects.filter(pk=club_id).update(**updates)
    if moved:
        # Looked up at call time, so a test or bench that swaps jobs.enqueue_replay is obeyed.
        transaction.on_commit(partial(jobs.enqueue_replay, club_id))
    elif ranking or inputs:
        # No replay to keep the events' standings after it: an event no ladder rates
        # changed, or the order that ranks them all did.
        transaction.on_commit(partial(jobs.enqueue_standings, club_id))
    if ranked_event is not None and not ranking:
        # Its kept row's hash no longer matches, so its page would rank it live until a
        # first read queued this; a replay keeps only the events dated on replay_from.
        transaction.on_commit(partial(jobs.enqueue_event_standings, club_id, ranked_event))


def _mark_ladders(
    club_id: int, kinds: Collection[str] | None, ladder_ids: Collection[int] | None
) -> bool:
    """Mark out of date the club's ladders a change feeds; whether there was any."""
    ladders = Ladder.objects.filter(club_id=club_id)
    if ladder_ids is not None:
        ladders = ladders.filter(pk__in=list(ladder_ids))
    if kinds is not None:
        fed = {lad.pk for lad in Ladder.objects.fed_by(club_id, kinds)}
        ladders = ladders.filter(pk__in=fed)
    marked = ladders.update(
        data_version=F("data_version") + 1,
        out_of_date_since=Coalesce(F("out_of_date_since"), Now()),
    )
    return marked > 0


def request_full_rebuild(club_id: int) -> None:
    """A director's or admin's "rebuild when in doubt": replay every ladder of the club from
    its very first event."""
    Ladder.objects.filter(club_id=club_id).update(full_rebuild_requested=True)
    club_changed(club_id, inputs=True)
