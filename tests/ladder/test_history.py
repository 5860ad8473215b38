"""Replay: the ladder is a fold of a policy over events (SPEC §3)."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.results import Result
from ladder.history import HistoryStep, rate_history
from ladder.policies.base import EventInput, GameInput, PlayerState
from ladder.policies.hsb import HsbPolicy
from ladder.policies.ladder import LadderPolicy

LADDER = LadderPolicy()
HSB = HsbPolicy()
POLICY_PARAMS = [pytest.param(LADDER, id="ladder"), pytest.param(HSB, id="hsb")]

W, D, L = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def match(event_id: int, first_game: int, white: int, black: int, *results: Result) -> EventInput:
    games = tuple(
        GameInput(id=first_game + i, round=i + 1, white=white, black=black, result=result)
        for i, result in enumerate(results)
    )
    return EventInput(id=event_id, rated=True, bughouse=False, games=games)


def test_each_event_starts_from_the_previous_events_results():
    # The seed's match twice: the second match is rated from 1383 / 1173.
    events = [match(10, 1, 1, 2, *[W] * 8, D, D), match(11, 11, 1, 2, *[D] * 10)]
    states = {
        1: PlayerState(1350.0, 0, junior=True),
        2: PlayerState(1200.0, 0),
        3: PlayerState(900.0, 7),
    }
    steps, final = rate_history(HSB, HSB.default_settings(), events, states)

    assert [step.event_id for step in steps] == [10, 11]
    assert steps[0].rating.players[1].post_rating == 1383
    second = steps[1].rating.players
    assert (second[1].pre_rating, second[2].pre_rating) == (1383, 1173)
    # 210 apart, p = 0.85: 20 x (5 - 8.5) + 3 = -67 and 20 x (5 - 1.5) + 3 = +73.
    assert (second[1].change, second[2].change) == (-67, 73)
    assert final == {
        1: PlayerState(1316.0, 20, junior=True),  # junior flag carried over
        2: PlayerState(1246.0, 20),
        3: PlayerState(900.0, 7),  # not in any event: unchanged, still returned
    }


@pytest.mark.parametrize("policy", POLICY_PARAMS)
def test_the_steps_are_what_the_policy_says_for_each_event(policy):
    events = [match(1, 1, 1, 2, W, L, D), match(2, 4, 2, 3, W)]
    states = {1: PlayerState(1500.0, 30), 2: PlayerState(1400.0, 30), 3: PlayerState(1450.0, 3)}
    steps, _ = rate_history(policy, policy.default_settings(), events, states)
    first = policy.rate_event(events[0], {1: states[1], 2: states[2]}, policy.default_settings())
    assert steps[0] == HistoryStep(event_id=1, rating=first)
    after_first = PlayerState(first.players[2].post_rating, first.players[2].rated_games_after)
    second = policy.rate_event(events[1], {2: after_first, 3: states[3]}, policy.default_settings())
    assert steps[1] == HistoryStep(event_id=2, rating=second)


class RecordingPolicy(LadderPolicy):
    """The ladder policy, noting which players each event was shown."""

    def __init__(self) -> None:
        self.shown: list[set[int]] = []

    def rate_event(self, event, before, settings):
        self.shown.append(set(before))
        return super().rate_event(event, before, settings)


def test_each_event_is_shown_only_its_own_participants():
    # What makes resuming exact: an event cannot depend on anyone outside it.
    policy = RecordingPolicy()
    events = [match(1, 1, 1, 2, W), match(2, 2, 3, 1, D)]
    states = {p: PlayerState(1200.0, 0) for p in (1, 2, 3, 4)}
    rate_history(policy, policy.default_settings(), events, states)
    assert policy.shown == [{1, 2}, {1, 3}]


def test_no_events_give_the_starting_states_back_as_a_new_dict():
    states = {1: PlayerState(1200.0, 0)}
    steps, final = rate_history(LADDER, LADDER.default_settings(), [], states)
    assert steps == []
    assert final == states
    assert final is not states


def test_a_participant_without_a_starting_state_is_a_value_error():
    with pytest.raises(ValueError, match=r"event 5: .*\[2\]"):
        rate_history(
            LADDER,
            LADDER.default_settings(),
            [match(5, 1, 1, 2, W)],
            {1: PlayerState(1200.0, 0)},
        )


# ---------------------------------------------------------------------------
# Properties over random histories

PLAYERS = list(range(1, 7))


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[EventInput], dict[int, PlayerState]]:
    states = {
        p: PlayerState(
            rating=draw(st.floats(100, 2800, allow_nan=False)),
            rated_games=draw(st.integers(0, 25)),
            junior=draw(st.booleans()),
        )
        for p in PLAYERS
    }
    events = []
    game_id = 0
    for event_id in range(draw(st.integers(0, 8))):
        games = []
        for _ in range(draw(st.integers(0, 8))):
            # Mostly played games, so ratings really move, plus every other kind.
            result = draw(st.sampled_from([W, D, L]) | st.sampled_from(list(Result)))
            white = draw(st.sampled_from(PLAYERS))
            black = None
            if not result.is_bye:
                black = draw(st.sampled_from([p for p in PLAYERS if p != white]))
            game_id += 1
            games.append(GameInput(game_id, draw(st.integers(1, 7)), white, black, result))
        rated, bughouse = draw(
            st.sampled_from([(True, False)] * 6 + [(False, False), (True, True), (False, True)])
        )
        events.append(EventInput(event_id, rated, bughouse, tuple(games)))
    return events, states


@pytest.mark.heavy
@pytest.mark.parametrize("policy", POLICY_PARAMS)
@settings(max_examples=200)
@given(history=histories(), data=st.data())
def test_resuming_from_any_event_equals_replaying_from_the_start(policy, history, data):
    events, states = history
    split = data.draw(st.integers(0, len(events)), label="split")
    config = policy.default_settings()

    all_steps, final = rate_history(policy, config, events, states)
    head_steps, middle = rate_history(policy, config, events[:split], states)
    tail_steps, resumed = rate_history(policy, config, events[split:], middle)

    assert head_steps + tail_steps == all_steps
    assert resumed == final
    assert len(all_steps) == len(events)


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@given(history=histories())
def test_replay_never_mutates_its_inputs(policy, history):
    events, states = history
    events_before, states_before = copy.deepcopy(events), dict(states)
    _, final = rate_history(policy, policy.default_settings(), events, states)
    assert events == events_before
    assert states == states_before
    assert final is not states
    assert set(final) == set(states)


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@given(history=histories())
def test_rated_games_only_grow_by_the_games_counted(policy, history):
    events, states = history
    steps, final = rate_history(policy, policy.default_settings(), events, states)
    for player, state in states.items():
        counted = sum(
            step.rating.players[player].games_counted
            for step in steps
            if player in step.rating.players
        )
        assert final[player].rated_games == state.rated_games + counted
        assert final[player].junior == state.junior
