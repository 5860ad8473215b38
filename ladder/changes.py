"""The one door through which every change the ladder or the club's pages show passes.

A write calls `club_changed(club_id, change)` inside its own transaction, where `change`
says what it changed:

- `LadderInput`: something the ladders are a function of (a result, a game, an event's
  date, publication or deletion, a name link, a merge, a rating setting, a starting
  rating). data_version moves on each ladder the change feeds, each is marked out of date,
  and one replay of the club is queued for when the transaction commits. The replay then
  moves each ladder's built_version.
- `OnPages`: something the pages show beyond the ladders' numbers (a name, a family's
  consent, an event's name, a new player on the roster). pages_version moves.
- `Both`, for a change that is both.

A change that names nothing, or a detail of one part given to the other (a date hint for a
name, a new ranking for a result), cannot be written. Every per-process cache (kept pages,
rosters, the names screen's prepared roster) keys on these versions, so none ever needs
clearing. docs/architecture.md, "Is a page current?", has the whole picture.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeAlias

from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Least, Now

from clubs.models import Club, Event, Ladder
from ladder import jobs


@dataclass(frozen=True)
class LadderInput:
    """A ladder input changed; which ladders it feeds, and from when.

    `kinds`: the event kinds the change is about (an event's kind, and its old kind too when
    the kind changed); only the ladders that rate one of them move. `ladder_ids` names the
    ladders instead (the one writer of kinds, ladder.roster.ladders.set_kinds, whose ladders
    no longer rate what moved). Neither: every ladder of the club (a merge, a roster import,
    a start rating, anything not tied to one event).

    `from_date` is a hint: the date of the earliest event the change can affect. Database
    triggers already lower Club.replay_from to the earliest event any write touches
    (ladder/migrations/0005_replay_from_triggers.py), and the replay trusts only what is
    dated before it; a hint can only lower it further, never raise it, so a wrong one costs
    time, never a stale ladder.
    """

    kinds: frozenset[str] | None = None
    ladder_ids: frozenset[int] | None = None
    from_date: dt.date | None = None

    @classmethod
    def of_event(cls, event: Event) -> LadderInput:
        """The event's games, entries, links or publication: the ladders that rate its kind,
        from its date."""
        return cls(kinds=frozenset({event.kind}), from_date=event.date)

    @classmethod
    def of_ladders(cls, ladder_ids: Iterable[int]) -> LadderInput:
        """What the named ladders are themselves (their policy, settings or kinds, a
        player's starting estimate on one): it reaches every event from the first."""
        return cls(ladder_ids=frozenset(ladder_ids), from_date=dt.date.min)


@dataclass(frozen=True)
class OnPages:
    """Something the pages show beyond the ladders' numbers changed.

    `tiebreak_order`: the club's tie-break order, which ranks every event's standings;
    their kept rows (ladder.replay.keep_standings) are ranked again when it commits.
    `ranked_event`: one published event whose standings rank otherwise (its director said
    whether it is a round robin); its kept row is ranked again when it commits.
    """

    tiebreak_order: bool = False
    ranked_event: int | None = None


@dataclass(frozen=True)
class Both:
    """A change that is a ladder input and shows on the pages beyond the numbers."""

    inputs: LadderInput
    pages: OnPages


Change: TypeAlias = LadderInput | OnPages | Both


def combined(inputs: LadderInput | None, pages: OnPages | None) -> Change | None:
    """The change a write made of the parts it found it made; None when it made neither."""
    if inputs is not None and pages is not None:
        return Both(inputs, pages)
    return inputs if inputs is not None else pages


def club_changed(club_id: int, change: Change) -> None:
    """Record that a write changed the club's ladder inputs, what its pages show, or both.

    Call it inside the transaction of the write, so the mark and the change commit (or
    roll back) together; a rolled-back change queues nothing.
    """
    inputs: LadderInput | None
    pages: OnPages | None
    match change:
        case Both():
            inputs, pages = change.inputs, change.pages
        case LadderInput():
            inputs, pages = change, None
        case OnPages():
            inputs, pages = None, change
        case _:
            raise TypeError(f"club_changed() takes a LadderInput, OnPages or Both, not {change!r}")
    updates: dict[str, Any] = {}
    moved = False
    if inputs is not None:
        if not transaction.get_connection().in_atomic_block:
            raise RuntimeError(
                "club_changed() of a ladder input must run inside transaction.atomic()"
            )
        # The club's row before its ladders', as the triggers of a write lock them: two
        # changes taking the two in opposite orders deadlock on PostgreSQL.
        list(
            Club.objects.select_for_update(no_key=True)
            .filter(pk=club_id)
            .values_list("pk", flat=True)
        )
        moved = _mark_ladders(club_id, inputs.kinds, inputs.ladder_ids)
        if inputs.from_date is not None and moved:
            since = inputs.from_date
            updates["replay_from"] = Least(Coalesce(F("replay_from"), Value(since)), Value(since))
    # An input no ladder rates (a bughouse event published, a kind no ladder claims) moves no
    # ladder, but its pages still show it: they must not be kept as they were.
    if pages is not None or (inputs is not None and not moved):
        updates["pages_version"] = F("pages_version") + 1
    if updates:
        Club.objects.filter(pk=club_id).update(**updates)
    tiebreak_order = pages is not None and pages.tiebreak_order
    if moved:
        # Looked up at call time, so a test or bench that swaps jobs.enqueue_replay is obeyed.
        transaction.on_commit(partial(jobs.enqueue_replay, club_id))
    elif tiebreak_order or inputs is not None:
        # No replay to keep the events' standings after it: an event no ladder rates
        # changed, or the order that ranks them all did.
        transaction.on_commit(partial(jobs.enqueue_standings, club_id))
    if pages is not None and pages.ranked_event is not None and not tiebreak_order:
        # Its kept row's hash no longer matches, so its page would rank it live until a
        # first read queued this; a replay keeps only the events dated on replay_from.
        event_id = pages.ranked_event
        transaction.on_commit(partial(jobs.enqueue_event_standings, club_id, event_id))


def _mark_ladders(
    club_id: int, kinds: frozenset[str] | None, ladder_ids: frozenset[int] | None
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
    club_changed(club_id, LadderInput())
