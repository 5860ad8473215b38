"""Rating policies: the club ladder (SPEC §2) and the HSB junior rating (seed 002)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.models import Ladder
from clubs.rating_policies import DEFAULT_POLICY, POLICY_LABELS
from clubs.results import Result
from ladder.policies import POLICIES, get_policy
from ladder.policies.base import (
    EventInput,
    GameInput,
    GameOutcome,
    PlayerState,
    RatingPolicy,
    UnratedReason,
)
from ladder.policies.hsb import HsbPolicy, HsbSettings, round_half_up
from ladder.policies.ladder import LadderPolicy, LadderSettings


def test_the_engine_has_one_policy_for_each_name_a_ladder_may_store():
    # The data names what a ladder may store (clubs.rating_policies), the engine computes it:
    # the two lists agree, in the same order, with the same labels, as the models' choices.
    assert list(POLICIES) == list(POLICY_LABELS)
    assert {name: policy.label for name, policy in POLICIES.items()} == POLICY_LABELS
    assert DEFAULT_POLICY in POLICIES
    field = Ladder._meta.get_field("rating_policy")
    assert list(field.choices) == list(POLICY_LABELS.items())
    assert field.default == DEFAULT_POLICY


LADDER = LadderPolicy()
HSB = HsbPolicy()

W, D, L = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def game(gid: int, white: int, black: int | None, result: Result, rnd: int = 1) -> GameInput:
    return GameInput(id=gid, round=rnd, white=white, black=black, result=result)


def event(*games: GameInput, rated: bool = True, bughouse: bool = False) -> EventInput:
    return EventInput(id=1, rated=rated, bughouse=bughouse, games=tuple(games))


def elo(rating: float, opponent: float) -> float:
    """Independent restatement of SPEC §2's expectation, to check against."""
    return 1 / (1 + 10 ** ((opponent - rating) / 400))


# ---------------------------------------------------------------------------
# Club ladder: the worked example


def test_ann_gains_13_76_against_four_established_opponents():
    ann = 1
    before = {
        ann: PlayerState(1400.0, 30),
        2: PlayerState(1500.0, 30),
        3: PlayerState(1300.0, 30),
        4: PlayerState(1600.0, 30),
        5: PlayerState(1350.0, 30),
    }
    # 2.5 points: draw with 1500, beat 1300 (as black), lose to 1600, beat 1350.
    rating = LADDER.rate_event(
        event(game(1, ann, 2, D), game(2, 3, ann, L), game(3, ann, 4, L), game(4, ann, 5, W)),
        before,
        LADDER.default_settings(),
    )
    out = rating.players[ann]
    assert out.k == 20
    assert out.provisional is False
    assert out.games_counted == 4
    assert out.actual == 2.5
    assert round(out.expected, 4) == 1.8117
    assert out.change == pytest.approx(13.76, abs=0.01)
    assert out.post_rating == pytest.approx(1413.76, abs=0.01)
    assert round(out.post_rating, 1) == 1413.8
    assert out.rated_games_after == 34
    # Full precision: nothing is rounded on the way.
    assert out.post_rating == 1400.0 + out.change
    assert out.change == 20 * (2.5 - math.fsum(elo(1400, r) for r in (1500, 1300, 1600, 1350)))


# ---------------------------------------------------------------------------
# Club ladder: protection rule


@pytest.mark.parametrize(
    ("white_games", "black_games", "rated_white", "rated_black", "reason"),
    [
        pytest.param(30, 30, True, True, None, id="established-vs-established"),
        pytest.param(2, 3, True, True, None, id="provisional-vs-provisional"),
        pytest.param(30, 2, False, True, UnratedReason.PROTECTED_WHITE, id="established-white"),
        pytest.param(2, 30, True, False, UnratedReason.PROTECTED_BLACK, id="established-black"),
    ],
)
def test_only_the_established_side_is_protected_against_a_provisional_opponent(
    white_games, black_games, rated_white, rated_black, reason
):
    before = {1: PlayerState(1500.0, white_games), 2: PlayerState(1300.0, black_games)}
    rating = LADDER.rate_event(event(game(7, 1, 2, L)), before, LADDER.default_settings())

    assert rating.games == {7: GameOutcome(rated_white, rated_black, reason)}
    white, black = rating.players[1], rating.players[2]
    # A side that is rated moves (this upset always moves a rated side) and counts the game.
    assert (white.change != 0, white.games_counted) == (rated_white, int(rated_white))
    assert (black.change != 0, black.games_counted) == (rated_black, int(rated_black))
    assert white.rated_games_after == white_games + int(rated_white)
    assert black.rated_games_after == black_games + int(rated_black)
    # The rated side is rated against the other's actual rating, protected or not.
    if rated_white:
        assert white.expected == elo(1500, 1300)
        assert white.change == white.k * (0 - elo(1500, 1300))
    if rated_black:
        assert black.expected == elo(1300, 1500)
        assert black.change == black.k * (1 - elo(1300, 1500))


def test_provisional_status_is_frozen_at_the_start_of_the_event():
    # Four games before: provisional for the whole event even though the
    # first game would make it five.
    before = {1: PlayerState(1200.0, 4), 2: PlayerState(1400.0, 30), 3: PlayerState(1300.0, 30)}
    rating = LADDER.rate_event(
        event(game(1, 1, 2, D, 1), game(2, 3, 1, D, 2)), before, LADDER.default_settings()
    )
    assert rating.games[1].reason is UnratedReason.PROTECTED_BLACK
    assert rating.games[2].reason is UnratedReason.PROTECTED_WHITE
    assert rating.players[1].provisional is True
    assert rating.players[1].rated_games_after == 6
    assert rating.players[2].post_rating == 1400.0
    assert rating.players[3].post_rating == 1300.0


@pytest.mark.parametrize(
    ("rated_games", "provisional"),
    [
        pytest.param(0, True, id="newcomer"),
        pytest.param(4, True, id="four-games"),
        pytest.param(5, False, id="five-games"),
    ],
)
def test_a_ladder_player_is_provisional_below_five_rated_games(rated_games, provisional):
    state = PlayerState(1200.0, rated_games)
    assert LADDER.is_provisional(state, LADDER.default_settings()) is provisional
    assert LADDER.is_provisional(state, LadderSettings(provisional_below=0)) is False


# ---------------------------------------------------------------------------
# Club ladder: K


@pytest.mark.parametrize(
    ("rule", "junior", "rating", "rated_games", "k"),
    [
        pytest.param(False, False, 1800.0, 30, 20, id="rule-off-adult"),
        pytest.param(False, True, 1800.0, 30, 20, id="rule-off-junior"),
        pytest.param(True, False, 1800.0, 30, 20, id="rule-on-adult"),
        pytest.param(True, True, 1800.0, 30, 40, id="rule-on-junior-under-2300"),
        pytest.param(True, True, 2299.9, 30, 40, id="rule-on-junior-just-under-2300"),
        pytest.param(True, True, 2300.0, 30, 20, id="rule-on-junior-at-2300"),
        pytest.param(True, True, 2400.0, 10, 40, id="rule-on-junior-over-2300-few-games"),
        pytest.param(False, False, 1800.0, 19, 40, id="nineteen-games"),
        pytest.param(False, False, 1800.0, 20, 20, id="twenty-games"),
    ],
)
def test_k_follows_the_game_count_and_the_optional_junior_rule(
    rule, junior, rating, rated_games, k
):
    settings = LadderSettings(junior_k_rule=rule)
    before = {1: PlayerState(rating, rated_games, junior), 2: PlayerState(1800.0, 30)}
    out = LADDER.rate_event(event(game(1, 1, 2, W)), before, settings).players[1]
    assert out.k == k
    assert out.change == k * (1 - elo(rating, 1800))


@pytest.mark.parametrize(
    ("rated_games", "k"),
    [pytest.param(19, 40, id="19-games-all-three-at-k40"), pytest.param(20, 20, id="20-games")],
)
def test_k_uses_the_pre_event_game_count_for_every_game_of_the_event(rated_games, k):
    before = {
        1: PlayerState(1500.0, rated_games),
        2: PlayerState(1450.0, 30),
        3: PlayerState(1600.0, 30),
        4: PlayerState(1550.0, 30),
    }
    rating = LADDER.rate_event(
        event(game(1, 1, 2, W, 1), game(2, 3, 1, D, 2), game(3, 1, 4, L, 3)),
        before,
        LADDER.default_settings(),
    )
    out = rating.players[1]
    # Expectations use pre-event ratings only, not ratings updated after game 1.
    expected = math.fsum([elo(1500, 1450), elo(1500, 1600), elo(1500, 1550)])
    assert out.k == k
    assert out.games_counted == 3
    assert out.expected == expected
    assert out.change == pytest.approx(k * (1.5 - expected), rel=1e-12)
    assert out.rated_games_after == rated_games + 3


def test_a_players_changes_are_summed_and_applied_once_at_the_end():
    # Two games against the same opponent: the second game's expectation must
    # not see the first game's change.
    before = {1: PlayerState(1500.0, 30), 2: PlayerState(1500.0, 30)}
    rating = LADDER.rate_event(
        event(game(1, 1, 2, W, 1), game(2, 2, 1, L, 2)), before, LADDER.default_settings()
    )
    assert rating.players[1].expected == 1.0
    assert rating.players[1].change == 20.0
    assert rating.players[2].change == -20.0


# ---------------------------------------------------------------------------
# HSB: the seed's examples

# Seed 002, "groep 6 van Grand Prix 2": name, points, old rating, the average
# opponent and norm score the seed prints (rounded), new rating.
GROUP6 = {
    "Fien": (4.0, 1349, 1302, 2.89, 1374),
    "Harry": (2.5, 1261, 1320, 2.01, 1274),
    "Erik M.": (2.5, 1306, 1311, 2.46, 1310),
    "Erik S.": (2.5, 1327, 1307, 2.67, 1327),
    "Kim": (2.5, 1283, 1315, 2.23, 1291),
    "Milanthy": (1.0, 1334, 1305, 2.74, 1302),
}
KEYS = {name: i for i, name in enumerate(GROUP6, start=1)}
F, H, M, S, K, Y = KEYS.values()  # Fien, Harry, Erik M., Erik S., Kim, Milanthy

# The seed gives only each player's points in a five-round, six-player round
# robin. HSB only uses the total score and the opponents, so any crosstable
# with those totals must give the printed ratings; two different ones are
# checked. Rounds follow the Berger table for six players.
BERGER_6 = [
    [(F, Y), (H, K), (M, S)],
    [(Y, S), (K, M), (F, H)],
    [(H, Y), (M, F), (S, K)],
    [(Y, K), (F, S), (H, M)],
    [(M, Y), (S, H), (K, F)],
]
# Fien beats everyone except Milanthy, whose only point is that win; each of
# the middle four beats Milanthy, loses to Fien and scores 1½ among themselves.
_WINNER_ALL_DRAWS = {
    frozenset((winner, loser)): winner
    for winner, losers in {F: (H, M, S, K), Y: (F,), H: (Y,), M: (Y,), S: (Y,), K: (Y,)}.items()
    for loser in losers
}
# Same, but the middle four play a cycle H > M > S > K > H with H-S and M-K drawn.
_WINNER_CYCLE = {
    **_WINNER_ALL_DRAWS,
    frozenset((H, M)): H,
    frozenset((M, S)): M,
    frozenset((S, K)): S,
    frozenset((K, H)): K,
}
CROSSTABLES = {"middle-four-all-draw": _WINNER_ALL_DRAWS, "middle-four-cycle": _WINNER_CYCLE}


def group6_event(winners: dict[frozenset[int], int]) -> EventInput:
    games = []
    for rnd, pairings in enumerate(BERGER_6, start=1):
        for white, black in pairings:
            winner = winners.get(frozenset((white, black)))
            result = D if winner is None else W if winner == white else L
            games.append(game(len(games) + 1, white, black, result, rnd))
    return event(*games)


def group6_before() -> dict[int, PlayerState]:
    return {KEYS[name]: PlayerState(float(row[1]), 40, junior=True) for name, row in GROUP6.items()}


@pytest.mark.parametrize("crosstable", CROSSTABLES.values(), ids=CROSSTABLES.keys())
def test_the_group6_crosstable_gives_the_seeds_points(crosstable):
    totals = {key: 0.0 for key in KEYS.values()}
    for g in group6_event(crosstable).games:
        assert g.black is not None
        totals[g.white] += g.result.scores[0]
        totals[g.black] += g.result.scores[1]
    assert totals == {KEYS[name]: row[0] for name, row in GROUP6.items()}
    assert len({frozenset((g.white, g.black)) for g in group6_event(crosstable).games}) == 15


@pytest.mark.parametrize("crosstable", CROSSTABLES.values(), ids=CROSSTABLES.keys())
@pytest.mark.parametrize("name", GROUP6.keys())
def test_hsb_grand_prix_group_6_comes_out_exactly_as_in_the_seed(name, crosstable):
    points, old, average, norm, new = GROUP6[name]
    rating = HSB.rate_event(group6_event(crosstable), group6_before(), HSB.default_settings())
    out = rating.players[KEYS[name]]
    assert out.post_rating == new
    assert out.change == new - old
    assert out.pre_rating == old
    assert out.actual == points
    assert out.games_counted == 5
    assert round(out.expected, 2) == norm
    assert out.k is None
    assert out.provisional is False
    assert out.rated_games_after == 45
    # The seed's "gemiddelde tegenstand", recovered from the printed formula.
    p = out.expected / 5
    assert round(old - (p - 0.5) * 600) == average
    assert all(g == GameOutcome(True, True, None) for g in rating.games.values())


# The seed's match: you (1350) score 9 out of 10 against Piet (1200). Only the
# total matters; the cases differ in how the 9 points and the colours fall.
# Each game: (you have white, your score).
MATCHES = {
    "9-wins-1-loss-always-white": [(True, 1.0)] * 9 + [(True, 0.0)],
    "8-wins-2-draws-alternating-colours": [(i % 2 == 0, 1.0) for i in range(8)]
    + [(True, 0.5), (False, 0.5)],
    "loss-first-then-9-wins-always-black": [(False, 0.0)] + [(False, 1.0)] * 9,
}
_BY_WHITE_SCORE = {1.0: W, 0.5: D, 0.0: L}


@pytest.mark.parametrize("match", MATCHES.values(), ids=MATCHES.keys())
def test_hsb_ten_game_match_1350_scoring_9_against_1200_gives_1383_and_1173(match):
    you, piet = 1, 2
    games = [
        game(i, you, piet, _BY_WHITE_SCORE[score], i)
        if you_white
        else game(i, piet, you, _BY_WHITE_SCORE[1 - score], i)
        for i, (you_white, score) in enumerate(match, start=1)
    ]
    rating = HSB.rate_event(
        event(*games),
        {you: PlayerState(1350.0, 0), piet: PlayerState(1200.0, 0)},
        HSB.default_settings(),
    )
    mine, his = rating.players[you], rating.players[piet]
    assert (mine.actual, his.actual) == (9, 1)
    assert (mine.expected, his.expected) == (7.5, 2.5)  # 75% and 25% of ten games
    assert (mine.change, his.change) == (33, -27)  # ±30 plus the bonus of 3
    assert (mine.post_rating, his.post_rating) == (1383, 1173)
    assert mine.games_counted == his.games_counted == 10


@pytest.mark.parametrize(
    ("bonus", "harry"),
    [
        pytest.param(3, 1274, id="bonus-3"),
        pytest.param(5, 1276, id="bonus-5"),
        pytest.param(8, 1279, id="bonus-8"),
    ],
)
def test_the_hsb_bonus_setting_is_added_for_the_event(bonus, harry):
    # Harry: 1261 + 9.8 + bonus, rounded.
    settings = HSB.parse_settings({"bonus": bonus})
    rating = HSB.rate_event(group6_event(_WINNER_ALL_DRAWS), group6_before(), settings)
    assert rating.players[H].post_rating == harry


@pytest.mark.parametrize(
    ("white", "black", "result", "white_after", "black_after"),
    [
        # p = 0.525 / 0.475: raw changes +12.5 and -6.5 are exact halves,
        # rounded toward +infinity.
        pytest.param(1015.0, 1000.0, W, 1028.0, 994.0, id="halves-round-toward-plus-infinity"),
        # Raw changes 2.5 / 3.5 and -0.5 / 6.5: in floats 20 x (score - p) + 3
        # comes out as 2.4999999999999996 and -0.5000000000000009, which would
        # round down; exact arithmetic rounds them up as the rule says.
        pytest.param(1015.0, 1000.0, D, 1018.0, 1004.0, id="half-that-floats-get-wrong"),
        pytest.param(1105.0, 1000.0, D, 1105.0, 1007.0, id="negative-half-floats-get-wrong"),
        # 400 points apart: p clamps to 100% and 0%, so only the bonus moves.
        pytest.param(1400.0, 1000.0, W, 1403.0, 1003.0, id="p-clamped-at-0-and-1"),
        pytest.param(1400.0, 1000.0, L, 1383.0, 1023.0, id="clamped-upset"),
        pytest.param(1000.0, 1000.0, D, 1003.0, 1003.0, id="equal-draw"),
        # Ratings stay as given (here a director's estimate with a fraction).
        pytest.param(1000.5, 1000.0, D, 1003.5, 1003.0, id="fractional-estimate"),
    ],
)
def test_hsb_single_game_changes(white, black, result, white_after, black_after):
    before = {1: PlayerState(white, 0), 2: PlayerState(black, 0)}
    rating = HSB.rate_event(event(game(1, 1, 2, result)), before, HSB.default_settings())
    assert rating.players[1].post_rating == white_after
    assert rating.players[2].post_rating == black_after


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        pytest.param(Fraction(25, 2), 13, id="12.5"),
        pytest.param(Fraction(-13, 2), -6, id="-6.5"),
        pytest.param(Fraction(-1, 2), 0, id="-0.5"),
        pytest.param(Fraction(24999, 10000), 2, id="2.4999"),
        pytest.param(Fraction(-25001, 10000), -3, id="-2.5001"),
        pytest.param(Fraction(-7), -7, id="-7"),
    ],
)
def test_hsb_rounds_halves_toward_plus_infinity(value, rounded):
    assert round_half_up(value) == rounded


def test_hsb_has_no_provisional_players_and_no_protection():
    before = {1: PlayerState(800.0, 0), 2: PlayerState(1300.0, 200)}
    assert not HSB.is_provisional(before[1], HSB.default_settings())
    rating = HSB.rate_event(event(game(1, 1, 2, D)), before, HSB.default_settings())
    assert rating.games[1] == GameOutcome(True, True, None)
    assert rating.players[2].change != 0
    assert rating.players[1].games_counted == rating.players[2].games_counted == 1


def test_hsb_bonus_needs_a_rated_game_in_the_event():
    before = {1: PlayerState(900.0, 3), 2: PlayerState(950.0, 3), 3: PlayerState(1000.0, 3)}
    rating = HSB.rate_event(
        event(game(1, 1, None, Result.BYE_FULL), game(2, 2, 3, Result.WHITE_FORFEIT_WIN)),
        before,
        HSB.default_settings(),
    )
    for player, state in before.items():
        assert rating.players[player].change == 0
        assert rating.players[player].post_rating == state.rating


# ---------------------------------------------------------------------------
# Never rated (both policies)

UNPLAYED = {
    Result.WHITE_FORFEIT_WIN: UnratedReason.FORFEIT,
    Result.BLACK_FORFEIT_WIN: UnratedReason.FORFEIT,
    Result.DOUBLE_FORFEIT: UnratedReason.FORFEIT,
    Result.NO_RESULT: UnratedReason.FORFEIT,
    Result.UNRATED_WHITE_WIN: UnratedReason.UNRATED_RESULT,
    Result.UNRATED_DRAW: UnratedReason.UNRATED_RESULT,
    Result.UNRATED_BLACK_WIN: UnratedReason.UNRATED_RESULT,
    Result.BYE_FULL: UnratedReason.BYE,
    Result.BYE_HALF: UnratedReason.BYE,
    Result.BYE_ZERO: UnratedReason.BYE,
    Result.BYE_PAIRING: UnratedReason.BYE,
    Result.BYE_PAIRING_HALF: UnratedReason.BYE,
    Result.BYE_PAIRING_ZERO: UnratedReason.BYE,
}
POLICY_PARAMS = [pytest.param(LADDER, id="ladder"), pytest.param(HSB, id="hsb")]


def test_the_unplayed_table_covers_every_result_that_is_not_played():
    assert set(UNPLAYED) == {r for r in Result if not r.is_played}


def _lone_game(result: Result) -> GameInput:
    return game(1, 1, None if result.is_bye else 2, result)


def _assert_nobody_moved(rating, before):
    assert set(rating.players) == {g for g in before}
    for player, state in before.items():
        out = rating.players[player]
        assert out.change == 0
        assert out.post_rating == state.rating
        assert out.games_counted == 0
        assert out.rated_games_after == state.rated_games
        assert out.expected == out.actual == 0


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@pytest.mark.parametrize("result", UNPLAYED.keys(), ids=[r.name.lower() for r in UNPLAYED])
def test_an_unplayed_result_changes_nothing_and_says_why(policy, result):
    before = {1: PlayerState(1500.0, 30)}
    if not result.is_bye:
        before[2] = PlayerState(1300.0, 30)
    rating = policy.rate_event(event(_lone_game(result)), before, policy.default_settings())
    assert rating.games == {1: GameOutcome(False, False, UNPLAYED[result])}
    _assert_nobody_moved(rating, before)


EVENT_FLAGS = [
    pytest.param(True, True, UnratedReason.BUGHOUSE, id="rated-bughouse"),
    pytest.param(False, True, UnratedReason.BUGHOUSE, id="unrated-bughouse"),
    pytest.param(False, False, UnratedReason.UNRATED_EVENT, id="unrated-event"),
]


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@pytest.mark.parametrize(("rated", "bughouse", "reason"), EVENT_FLAGS)
@pytest.mark.parametrize(
    "result", [W, D, L, Result.BYE_FULL, Result.WHITE_FORFEIT_WIN, Result.UNRATED_DRAW]
)
def test_no_game_of_a_bughouse_or_unrated_event_is_rated(policy, rated, bughouse, reason, result):
    # Event-wide reasons win over the game's own (bughouse before unrated).
    before = {1: PlayerState(1500.0, 30)}
    if not result.is_bye:
        before[2] = PlayerState(1300.0, 2)  # provisional: protection must not show either
    rating = policy.rate_event(
        event(_lone_game(result), rated=rated, bughouse=bughouse),
        before,
        policy.default_settings(),
    )
    assert rating.games == {1: GameOutcome(False, False, reason)}
    _assert_nobody_moved(rating, before)


@pytest.mark.parametrize("policy", POLICY_PARAMS)
def test_a_player_with_only_a_bye_still_appears_in_the_event(policy):
    before = {1: PlayerState(1500.0, 30), 2: PlayerState(1400.0, 30), 3: PlayerState(1450.0, 9)}
    rating = policy.rate_event(
        event(game(1, 1, 2, W), game(2, 3, None, Result.BYE_PAIRING)),
        before,
        policy.default_settings(),
    )
    assert set(rating.players) == {1, 2, 3}
    assert rating.players[3].change == 0
    assert rating.players[3].post_rating == 1450.0
    assert rating.players[1].change > 0


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@pytest.mark.parametrize("result", [W, D, L, Result.WHITE_FORFEIT_WIN])
def test_a_variant_game_is_never_rated_and_says_it_was_a_variant(policy, result):
    before = {1: PlayerState(1500.0, 30), 2: PlayerState(1300.0, 30)}
    chess960 = GameInput(id=1, round=1, white=1, black=2, result=result, variant=True)
    rating = policy.rate_event(event(chess960), before, policy.default_settings())
    assert rating.games == {1: GameOutcome(False, False, UnratedReason.VARIANT)}
    _assert_nobody_moved(rating, before)


@pytest.mark.parametrize("policy", POLICY_PARAMS)
def test_a_variant_game_beside_standard_games_leaves_them_rated_as_without_it(policy):
    before = {1: PlayerState(1500.0, 30), 2: PlayerState(1300.0, 30)}
    settings = policy.default_settings()
    standard = game(1, 1, 2, L)
    alone = policy.rate_event(event(standard), before, settings)
    variant = GameInput(id=2, round=2, white=1, black=2, result=W, variant=True)
    both = policy.rate_event(event(standard, variant), before, settings)
    assert both.players == alone.players
    assert both.games[1] == alone.games[1]
    assert both.games[2].reason is UnratedReason.VARIANT


def test_an_event_wide_reason_wins_over_a_variant():
    before = {1: PlayerState(1500.0, 30), 2: PlayerState(1300.0, 30)}
    variant = GameInput(id=1, round=1, white=1, black=2, result=W, variant=True)
    rating = LADDER.rate_event(event(variant, bughouse=True), before, LADDER.default_settings())
    assert rating.games[1].reason is UnratedReason.BUGHOUSE


# ---------------------------------------------------------------------------
# Malformed input


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@pytest.mark.parametrize(
    ("games", "before", "message"),
    [
        pytest.param(
            [game(1, 1, 2, Result.BYE_FULL)], {1, 2}, "has no opponent", id="bye-with-opponent"
        ),
        pytest.param([game(1, 1, None, W)], {1}, "needs two players", id="game-without-black"),
        pytest.param([game(1, 1, 1, W)], {1}, "themselves", id="self-pairing"),
        pytest.param(
            [game(1, 1, 2, W), game(1, 2, 1, W)], {1, 2}, "appears twice", id="duplicate-game-id"
        ),
        pytest.param([game(1, 1, 2, W)], {1}, r"players \[2\]", id="missing-state"),
    ],
)
def test_malformed_events_are_rejected(policy, games, before, message):
    states = {p: PlayerState(1200.0, 0) for p in before}
    with pytest.raises(ValueError, match=message):
        policy.rate_event(event(*games), states, policy.default_settings())


# ---------------------------------------------------------------------------
# Order independence (SPEC §2: "The result never depends on the order of games")

PLAYED = [W, D, L]


@st.composite
def events_with_states(draw: st.DrawFn) -> tuple[EventInput, dict[int, PlayerState]]:
    players = draw(st.lists(st.integers(1, 50), min_size=2, max_size=8, unique=True))
    before = {
        p: PlayerState(
            rating=draw(st.floats(100, 2800, allow_nan=False)),
            rated_games=draw(st.integers(0, 30)),
            junior=draw(st.booleans()),
        )
        for p in players
    }
    games = []
    for gid in range(draw(st.integers(0, 15))):
        result = draw(st.sampled_from(PLAYED) | st.sampled_from(list(Result)))
        white = draw(st.sampled_from(players))
        black = None
        if not result.is_bye:
            black = draw(st.sampled_from([p for p in players if p != white]))
        games.append(game(gid, white, black, result, draw(st.integers(1, 9))))
    rated, bughouse = draw(st.sampled_from([(True, False)] * 6 + [(False, False), (True, True)]))
    ev = EventInput(
        id=draw(st.integers(1, 999)), rated=rated, bughouse=bughouse, games=tuple(games)
    )
    # Players who only appear in ``before`` are allowed but not rated.
    return ev, before


@pytest.mark.parametrize("policy", POLICY_PARAMS)
@given(data=st.data())
def test_shuffling_the_games_of_an_event_never_changes_its_rating(policy, data):
    ev, before = data.draw(events_with_states())
    shuffled = data.draw(st.permutations(ev.games))
    settings = data.draw(
        st.sampled_from([policy.default_settings(), policy.parse_settings({"junior_k_rule": True})])
        if policy is LADDER
        else st.just(policy.default_settings())
    )
    original = policy.rate_event(ev, before, settings)
    reordered = policy.rate_event(
        EventInput(ev.id, ev.rated, ev.bughouse, tuple(shuffled)), before, settings
    )
    assert reordered == original
    # Only participants appear, and every game has an outcome.
    assert set(original.players) == {g.white for g in ev.games} | {
        g.black for g in ev.games if g.black is not None
    }
    assert set(original.games) == {g.id for g in ev.games}


# ---------------------------------------------------------------------------
# Settings


def test_empty_settings_give_the_defaults():
    assert LADDER.parse_settings({}) == LADDER.default_settings() == LadderSettings()
    assert LadderSettings() == LadderSettings(1200.0, 40.0, 20.0, 20, 5, False, 2300.0)
    assert HSB.parse_settings({}) == HSB.default_settings() == HsbSettings(800.0, 3)
    assert LADDER.start_rating(LADDER.default_settings()) == 1200
    assert HSB.start_rating(HSB.default_settings()) == 800


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param({"start_rating": "1200"}, "start_rating", id="start-rating-string"),
        pytest.param({"start_rating": True}, "start_rating", id="start-rating-bool"),
        pytest.param({"start_rating": float("nan")}, "start_rating", id="start-rating-nan"),
        pytest.param({"start_rating": -1}, "start_rating", id="start-rating-negative"),
        pytest.param({"k_high": None}, "k_high", id="k-high-none"),
        pytest.param({"k_high": 0}, "k_high", id="k-high-zero"),
        pytest.param({"k_low": 1000}, "k_low", id="k-low-huge"),
        pytest.param({"k_high": 10, "k_low": 20}, "k_high", id="k-high-below-k-low"),
        pytest.param({"k_threshold": 20.5}, "k_threshold", id="threshold-fraction"),
        pytest.param({"k_threshold": -1}, "k_threshold", id="threshold-negative"),
        pytest.param({"provisional_below": "5"}, "provisional_below", id="provisional-string"),
        pytest.param({"junior_k_rule": 1}, "junior_k_rule", id="junior-rule-int"),
        pytest.param({"junior_k_rule": "yes"}, "junior_k_rule", id="junior-rule-string"),
        pytest.param({"junior_k_max_rating": float("inf")}, "junior_k_max_rating", id="inf"),
        pytest.param({"k_hihg": 40}, "k_hihg", id="misspelt-field"),
        pytest.param({"bonus": 3}, "bonus", id="hsb-field-on-ladder"),
    ],
)
def test_bad_ladder_settings_are_rejected_naming_the_field(raw, field):
    with pytest.raises(ValueError, match=field):
        LADDER.parse_settings(raw)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        pytest.param({"bonus": 2}, "bonus", id="bonus-2"),
        pytest.param({"bonus": 9}, "bonus", id="bonus-9"),
        pytest.param({"bonus": 3.5}, "bonus", id="bonus-fraction"),
        pytest.param({"bonus": "3"}, "bonus", id="bonus-string"),
        pytest.param({"bonus": True}, "bonus", id="bonus-bool"),
        pytest.param({"start_rating": "800"}, "start_rating", id="start-rating-string"),
        pytest.param({"k_high": 40}, "k_high", id="ladder-field-on-hsb"),
    ],
)
def test_bad_hsb_settings_are_rejected_naming_the_field(raw, field):
    with pytest.raises(ValueError, match=field):
        HSB.parse_settings(raw)


@pytest.mark.parametrize("bonus", range(3, 9))
def test_every_hsb_bonus_from_3_to_8_is_accepted(bonus):
    assert HSB.parse_settings({"bonus": bonus}).bonus == bonus


def test_whole_number_floats_are_accepted_for_counts():
    assert LADDER.parse_settings({"k_threshold": 30.0}).k_threshold == 30
    assert HSB.parse_settings({"bonus": 5.0}).bonus == 5


@pytest.mark.parametrize(
    ("policy", "settings"),
    [
        pytest.param(LADDER, LadderSettings(), id="ladder-defaults"),
        pytest.param(
            LADDER, LadderSettings(1500.5, 32.0, 16.0, 30, 10, True, 2100.0), id="ladder-custom"
        ),
        pytest.param(HSB, HsbSettings(), id="hsb-defaults"),
        pytest.param(HSB, HsbSettings(650.0, 8), id="hsb-custom"),
    ],
)
def test_settings_round_trip_through_json(policy, settings):
    stored = json.loads(json.dumps(policy.settings_to_dict(settings)))
    assert policy.parse_settings(stored) == settings


# ---------------------------------------------------------------------------
# Registry


@pytest.mark.parametrize(
    ("name", "cls"), [pytest.param("ladder", LadderPolicy), pytest.param("hsb", HsbPolicy)]
)
def test_get_policy_finds_each_registered_policy(name, cls):
    policy = get_policy(name)
    assert isinstance(policy, cls)
    assert isinstance(policy, RatingPolicy)
    assert policy.name == name


def test_every_registered_policy_is_filed_under_its_own_name():
    assert set(POLICIES) == {"ladder", "hsb"}
    assert all(policy.name == name for name, policy in POLICIES.items())


@pytest.mark.parametrize("name", ["elo", "", "Ladder"])
def test_an_unknown_policy_name_is_a_value_error_listing_the_known_ones(name):
    with pytest.raises(ValueError, match=r"unknown rating policy .*known policies: hsb, ladder"):
        get_policy(name)
