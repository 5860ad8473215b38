"""The one door through which every change to a ladder input passes."""

from __future__ import annotations

import datetime as dt
from functools import partial

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Least, Now

from clubs.models import Club
from ladder import jobs


def ladder_inputs_changed(club_id: int, *, from_date: dt.date | None = None) -> None:
    """Mark the club's ladder out of date and queue a replay once the change commits.

    Call it inside the transaction that changes the input, so the mark and the
    change commit (or roll back) together; a rolled-back change queues nothing.

    `from_date` is the earliest event date the change can affect (for a moved
    event, the earlier of its old and new dates), when the caller knows it: the
    replay then trusts every stored event before that date without reading it.
    Leave it out when unsure (settings, starting ratings, merges across many
    events): the replay then compares the fingerprints of every event.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("ladder_inputs_changed() must run inside transaction.atomic()")
    hint = dt.date.min if from_date is None else from_date
    Club.objects.filter(pk=club_id).update(
        data_version=F("data_version") + 1,
        out_of_date_since=Coalesce(F("out_of_date_since"), Now()),
        replay_from=Least(Coalesce(F("replay_from"), Value(hint)), Value(hint)),
    )
    # Looked up at call time, so a test or bench that swaps jobs.enqueue_replay is obeyed.
    transaction.on_commit(partial(jobs.enqueue_replay, club_id))


def request_full_rebuild(club_id: int) -> None:
    """A director's or admin's "rebuild when in doubt": replay from the very first event."""
    Club.objects.filter(pk=club_id).update(full_rebuild_requested=True)
    ladder_inputs_changed(club_id)


def club_pages_changed(club_id: int) -> None:
    """Retire every cached page of the club after a change its pages show at once: a name,
    a family's consent, an event's name, a new player on the roster.

    A change that is only a ladder input needs no call: kept pages show the last good
    numbers with the "being recalculated" notice until the replay moves built_version.
    One that is both (a junior flag changed with the consent) calls both helpers.
    """
    Club.objects.filter(pk=club_id).update(pages_version=F("pages_version") + 1)
