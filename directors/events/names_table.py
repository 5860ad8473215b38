"""What the names table adds to the suggestions (directors/events/names.py): each candidate's
ladder details, the filters a director narrows the table by, and the bulk decisions.

A candidate is "likely" unless it is weak (only alike as text, `matching.is_weak`): a weak
candidate is shown apart, never preselected, and never counts as a suggestion.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery

from clubs.models import Entry, Event, Ladder, Player
from directors.events.names import Action, Candidate, NameDecision, NameReview


class Show(enum.StrEnum):
    """The table's filters, as the page's `?show=` links name them."""

    OPEN = "open"  # every name still to confirm (the default)
    DECIDE = "decide"  # a likely candidate but none the same name: the director decides
    SUGGESTED = "suggested"  # the same name as exactly one player: preselected
    NEW = "new"  # no likely player on the roster: none, or weak ones only
    ALL = "all"  # every entrant, confirmed ones too


def read_show(value: str | None, *, legacy_all: bool = False) -> Show:
    """The filter a query string asks for; `?all=1` (the page's older link) is "all"."""
    if legacy_all:
        return Show.ALL
    try:
        return Show(value or Show.OPEN)
    except ValueError:
        return Show.OPEN


def likely(review: NameReview) -> list[Candidate]:
    return [c for c in review.candidates if not c.weak]


def weak(review: NameReview) -> list[Candidate]:
    return [c for c in review.candidates if c.weak]


def kind_of(review: NameReview) -> Show:
    """Which filter an unconfirmed review belongs to (a confirmed one: ALL only)."""
    if review.player_id is not None:
        return Show.ALL
    if review.preselected is not None:
        return Show.SUGGESTED
    if not likely(review):
        return Show.NEW
    return Show.DECIDE


def shown(reviews: Iterable[NameReview], show: Show) -> list[NameReview]:
    if show == Show.ALL:
        return list(reviews)
    if show == Show.OPEN:
        return [r for r in reviews if r.player_id is None]
    return [r for r in reviews if kind_of(r) == show]


def counts(reviews: Iterable[NameReview]) -> dict[Show, int]:
    """How many unconfirmed names each filter shows (ALL: the reviews given)."""
    found = dict.fromkeys(Show, 0)
    for review in reviews:
        found[Show.ALL] += 1
        if review.player_id is None:
            found[Show.OPEN] += 1
            found[kind_of(review)] += 1
    return found


class Bulk(enum.StrEnum):
    SAME_NAME = "same_name"  # link every name to the one player of the same name
    NEW = "new"  # every name with a game and no likely player: a new player


def bulk_decisions(reviews: Iterable[NameReview], action: Bulk) -> list[NameDecision]:
    """The decisions a bulk button makes for the unconfirmed reviews.

    SAME_NAME links only preselected candidates (the same name after normalisation as
    exactly one player); NEW makes a player of each name with a game over the board and no
    likely candidate (weak candidates do not hold it back), starting as the event says."""
    decisions = []
    for review in reviews:
        if review.player_id is not None:
            continue
        if action == Bulk.SAME_NAME and review.preselected is not None:
            decisions.append(
                NameDecision(review.entry_id, Action.LINK, review.preselected.player_id)
            )
        elif action == Bulk.NEW and not review.played_no_game and kind_of(review) == Show.NEW:
            decisions.append(NameDecision(review.entry_id, Action.NEW))
    return decisions


@dataclass(frozen=True)
class PlayerDetails:
    """What tells two candidates apart (Emma and Eva de Vries): their ladder standing."""

    rating: float | None
    rated_games: int
    provisional: bool
    last_event: str | None  # the latest published event they played, this one aside
    last_event_date: dt.date | None
    held: bool = False  # first met in a draft, on no club page yet (clubs.models.Player.held)


def candidate_details(event: Event, reviews: Sequence[NameReview]) -> dict[int, PlayerDetails]:
    """Every candidate's details, in one query however many names and candidates."""
    ids = {c.player_id for review in reviews for c in review.candidates}
    ids.update(r.player_id for r in reviews if r.player_id is not None)
    if not ids:
        return {}
    published = event.is_published
    latest = (
        Entry.objects.filter(
            player=OuterRef("pk"),
            event__status=Event.Status.PUBLISHED,
            event__deleted_at__isnull=True,
        )
        .exclude(event_id=event.pk)
        .order_by("-event__date", "-event__order_in_day", "-event__created_at", "-event_id")
    )
    rows = (
        Player.objects.filter(pk__in=ids)
        # The names step shows each candidate's standing on the club's first ladder.
        .rated_on(Ladder.objects.first_of(event.club_id))
        .annotate(
            last_event=Subquery(latest.values("event__name")[:1]),
            last_event_date=Subquery(latest.values("event__date")[:1]),
        )
        .values_list(
            "id", "rating", "rated_games", "provisional", "last_event", "last_event_date", "held"
        )
    )
    # Held while no published event knows them: none elsewhere, and this one is a draft.
    return {
        pid: PlayerDetails(
            rating, games, provisional, last, last_date, held and last is None and not published
        )
        for pid, rating, games, provisional, last, last_date, held in rows
    }
