"""Corrections, merges, undos, crashed replays and sweeps in any order (hypothesis)."""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

import ladder.replay
from clubs.models import Club, Event, Game, Merge, Player
from clubs.results import Result
from directors.events import publishing
from directors.roster.merging import RosterChangeError, merge_players, undo_merge
from ladder.changes import LadderInput, club_changed
from ladder.jobs import sweep_ladders
from ladder.replay import verify_ladder
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db(transaction=True)
RESULTS = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN, Result.WHITE_FORFEIT_WIN]
_slugs = itertools.count()


class CrashedReplay(Exception):
    pass


class LadderMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.club = make_club(slug=f"machine-{next(_slugs)}")
        self.players = make_players(self.club, [f"Player {i}" for i in range(6)])
        for day in range(1, 5):
            p = self.players
            make_event(
                self.club,
                [(1, p[day % 6], p[(day + 1) % 6], Result.WHITE_WIN),
                 (2, p[(day + 2) % 6], p[(day + 3) % 6], Result.DRAW)],
                date=dt.date(2026, 1, day),
            )  # fmt: skip
        with transaction.atomic():
            club_changed(self.club.pk, LadderInput())  # publishing the history: replays on commit
        self.crash_pending = False
        self._refresh()

    def _refresh(self) -> None:
        self.club = Club.objects.get(pk=self.club.pk)

    def _events(self) -> list[Event]:
        return list(Event.objects.filter(club=self.club).order_by("pk"))

    @rule(pick=st.integers(0, 100), result=st.sampled_from(RESULTS))
    def correct_a_result(self, pick: int, result: Result) -> None:
        games = list(Game.objects.filter(event__club=self.club).order_by("pk"))
        game = games[pick % len(games)]
        with transaction.atomic():
            Game.objects.filter(pk=game.pk).update(result=result)
            club_changed(self.club.pk, LadderInput(from_date=game.event.date))

    @rule(pick=st.integers(0, 100))
    def delete_or_restore_an_event(self, pick: int) -> None:
        event = self._events()[pick % 4]
        if event.deleted_at is None:
            publishing.delete_event(event.pk, event.edit_version, None)
        else:
            publishing.restore_event(event.pk, event.edit_version, None)

    @rule(i=st.integers(0, 5), j=st.integers(0, 5))
    def merge_two_players(self, i: int, j: int) -> None:
        kept, merged = (
            Player.objects.get(pk=self.players[i].pk),
            Player.objects.get(pk=self.players[j].pk),
        )
        with contextlib.suppress(RosterChangeError):
            merge_players(self.club, kept, merged, None)

    @rule(pick=st.integers(0, 100))
    def undo_a_merge(self, pick: int) -> None:
        merges = list(Merge.objects.filter(club=self.club, undone_at__isnull=True).order_by("pk"))
        if merges:
            with contextlib.suppress(RosterChangeError):
                undo_merge(merges[pick % len(merges)], None)

    @rule(pick=st.integers(0, 100), result=st.sampled_from(RESULTS))
    def correction_whose_replay_crashes(self, pick: int, result: Result) -> None:
        original = ladder.replay.rate_events

        def crash(*args, **kwargs):
            raise CrashedReplay("the worker died mid-replay")

        ladder.replay.rate_events = crash
        try:
            self.correct_a_result(pick, result)
        finally:
            ladder.replay.rate_events = original
        self.crash_pending = True

    @rule()
    def sweep(self) -> None:
        sweep_ladders(older_than_seconds=0)
        self.crash_pending = False

    @invariant()
    def the_ladder_is_current_unless_a_replay_crashed_and_then_equals_a_pure_replay(self) -> None:
        self._refresh()
        if not self.crash_pending:
            assert self.club.ladder_is_current
        if self.club.ladder_is_current:
            assert verify_ladder(self.club) == []


def test_any_interleaving_leaves_no_ladder_stale_after_a_sweep_and_every_ladder_correct():
    run_state_machine_as_test(
        LadderMachine,
        settings=settings(
            max_examples=12,
            stateful_step_count=12,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_long_interleavings():
    """`make test-long`: many more and longer interleavings."""
    run_state_machine_as_test(
        LadderMachine,
        settings=settings(
            max_examples=200,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
