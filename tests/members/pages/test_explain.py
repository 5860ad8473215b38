"""The written sums of the player page: chosen so that they add up from the printed numbers.

No database: ladder.explain is plain arithmetic on decimals.
"""

from __future__ import annotations

import math
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clubs.results import Result
from ladder.explain import (
    EloSum,
    HsbSum,
    elo_sum,
    hsb_sum,
    is_half,
    plain,
    rounded,
    to_decimal,
)
from ladder.policies.base import EventInput, GameInput, PlayerState
from ladder.policies.hsb import HsbPolicy, HsbSettings
from ladder.policies.ladder import expected_score


def decimals(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def assert_elo_adds_up(s: EloSum) -> None:
    digits = decimals(s.change)
    recomputed = (s.k * (s.score - s.expected)).quantize(
        Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP
    )
    assert recomputed == s.change, s
    assert not is_half(s.k * (s.score - s.expected), digits), s
    assert s.before + s.change == s.after, s
    assert decimals(s.before) == decimals(s.after) == digits >= 1
    assert decimals(s.expected) >= 4


def assert_hsb_adds_up(s: HsbSum) -> None:
    assert s.factor * (s.score - s.games * s.p) + s.bonus == s.exact
    assert math.floor(s.exact + Decimal("0.5")) == s.change
    assert s.before + s.change == s.after
    assert decimals(s.p) >= 4 and decimals(s.before) >= 1
    if s.opponents_average is not None:
        assert recomputed_p(s) == s.p, s


def recomputed_p(s: HsbSum) -> Decimal:
    """p as a reader works it out from the printed rating and average: 0.5 + (rating −
    average) / 600, kept between 0 and 1, rounded half up to p's printed decimals, or cut
    off there where the page marks p as cut ("…")."""
    assert s.opponents_average is not None
    with localcontext() as context:
        context.prec = 60
        value = Decimal("0.5") + (s.before - s.opponents_average) / 600
    value = min(max(value, Decimal(0)), Decimal(1))
    return value.quantize(s.p, ROUND_FLOOR if s.p_cut else ROUND_HALF_UP)


def event_of(pre: float, k: float, opponents: list[float], scores: list[float]) -> dict:
    expected = math.fsum(expected_score(pre, o) for o in opponents)
    actual = math.fsum(scores)
    change = k * (actual - expected)
    return {"pre": pre, "k": k, "actual": actual, "expected": expected, "post": pre + change}


def test_the_spec_example_reads_20_times_2_5_minus_1_8117_is_13_8():
    s = elo_sum(**event_of(1400, 20, [1500, 1300, 1600, 1350], [0.5, 1, 0, 1]))
    assert (s.k, s.score, s.expected, s.change) == (
        20,
        Decimal("2.5"),
        Decimal("1.8117"),
        Decimal("13.8"),
    )
    assert (str(s.before), str(s.after)) == ("1400.0", "1413.8")
    assert_elo_adds_up(s)


def test_the_expected_score_is_written_with_four_decimals_so_40_times_the_difference_is_right():
    # The "40 × (4.5 − 4.24) = +10.3": with 4.2425 the product is 10.3 indeed.
    s = elo_sum(pre=1500.0, k=40, actual=4.5, expected=4.2425, post=1500.0 + 40 * 0.2575)
    assert (str(s.expected), str(s.change)) == ("4.2425", "10.3")
    assert_elo_adds_up(s)
    # "40 × (4 − 2.67) = 53.2 beside +53.3": 40 × (4 − 2.6686) = 53.256.
    s = elo_sum(pre=1300.0, k=40, actual=4, expected=2.6686, post=1300.0 + 40 * (4 - 2.6686))
    assert (str(s.expected), str(s.change)) == ("2.6686", "53.3")
    assert_elo_adds_up(s)


def test_a_change_that_one_decimal_cannot_add_up_is_written_with_two():
    # 1400.04 + 0.04 = 1400.08 would read 1400.0 + 0.0 = 1400.1 with one decimal.
    s = elo_sum(pre=1400.04, k=20, actual=0.5, expected=0.498, post=1400.08)
    assert (str(s.before), str(s.change), str(s.after)) == ("1400.04", "0.04", "1400.08")
    assert_elo_adds_up(s)


def test_a_product_exactly_halfway_is_not_left_to_the_readers_rounding_habit():
    # 20 × (2 − 1.2375) = 15.25 exactly: 15.2 or 15.3 depends on the calculator.
    s = elo_sum(pre=1400.0, k=20, actual=2, expected=1.2375, post=1415.25)
    assert (str(s.change), str(s.after)) == ("15.25", "1415.25")
    assert_elo_adds_up(s)


def test_a_non_whole_k_is_written_as_set():
    s = elo_sum(**event_of(1234.5, 32.5, [1300, 1100], [1, 0.5]))
    assert s.k == Decimal("32.5") and str(plain(to_decimal(40.0))) == "40"
    assert_elo_adds_up(s)


@given(
    pre=st.floats(min_value=100, max_value=2800, allow_nan=False),
    k=st.sampled_from([40.0, 20.0, 32.5, 17.5, 100.0, 1.0, 16.25]),
    opponents=st.lists(st.floats(min_value=100, max_value=2800), min_size=1, max_size=11),
    data=st.data(),
)
def test_every_ladder_event_adds_up_from_its_printed_numbers(pre, k, opponents, data):
    scores = data.draw(st.lists(st.sampled_from([0, 0.5, 1]), min_size=len(opponents),
                                max_size=len(opponents)))  # fmt: skip
    assert_elo_adds_up(elo_sum(**event_of(pre, k, opponents, scores)))


def hsb_event(rating: float, opponents: list[float], scores: list[float], bonus: int) -> dict:
    """An HSB event rated by the policy itself: one player against the given opponents."""
    games = tuple(
        GameInput(n, 1, 0, n + 1, {1: Result.WHITE_WIN, 0.5: Result.DRAW, 0: Result.BLACK_WIN}[s])
        for n, s in enumerate(scores)
    )
    before = {
        0: PlayerState(rating, 10),
        **{n + 1: PlayerState(o, 10) for n, o in enumerate(opponents)},
    }
    out = HsbPolicy().rate_event(
        EventInput(1, True, False, games), before, HsbSettings(bonus=bonus)
    )
    me = out.players[0]
    return {
        "pre": me.pre_rating,
        "actual": me.actual,
        "games": me.games_counted,
        "expected": me.expected,
        "change": me.change,
        "post": me.post_rating,
        "opponent_ratings": opponents,
        "bonus": bonus,
    }


def test_the_hsb_match_example_reads_20_times_9_minus_10_times_0_75_plus_3_is_33():
    s = hsb_sum(**hsb_event(1350, [1200] * 10, [1] * 9 + [0], 3))
    assert s is not None
    assert (s.p, s.exact, s.change, str(s.after)) == (Decimal("0.7500"), 33, 33, "1383.0")
    assert not s.was_rounded and str(s.opponents_average) == "1200.0"
    assert_hsb_adds_up(s)


def test_an_exact_half_with_a_repeating_p_still_rounds_the_way_the_rule_did():
    # p = 0.541666…: rounded to 0.5417 the sum is 10.498 (10), yet the rule gave 10.5 -> 11.
    event = hsb_event(1200, [1175] * 3, [1, 1, 0], 3)
    assert event["change"] == 11
    s = hsb_sum(**event)
    assert s is not None and s.p == Decimal("0.5416") and s.change == 11
    assert_hsb_adds_up(s)


def test_a_stale_bonus_setting_does_not_make_the_sum_wrong():
    # Rated with bonus 8; the page reads the setting as 3 while the replay is pending.
    s = hsb_sum(**{**hsb_event(1300, [1250, 1320], [1, 0.5], 8), "bonus": 3})
    assert s is not None and s.bonus == 8
    assert_hsb_adds_up(s)


def test_the_opponents_average_is_written_so_that_p_follows_from_it():
    s = hsb_sum(**hsb_event(819, [800, 801, 800], [1, 0, 0], 5))
    assert s is not None
    share = Decimal("0.5") + (s.before - s.opponents_average) / 600
    assert rounded(share, decimals(s.p)) == s.p


def test_p_follows_from_the_printed_rating_not_the_stored_one():
    # The rating 959.625 prints as 959.6: p from the printed numbers is 0.5 + 58.1 / 600 =
    # 0.59683… -> 0.5968. p from the stored rating (0.596875 -> 0.5969) could not be had
    # from any printed average, and the page printed 901.50000000 beside it.
    s = hsb_sum(**hsb_event(959.625, [901.5], [0.5], 5))
    assert s is not None
    assert (str(s.before), str(s.opponents_average), str(s.p)) == ("959.6", "901.5", "0.5968")
    assert (s.exact, s.change) == (Decimal("3.064"), 3)
    assert_hsb_adds_up(s)


def test_an_exact_half_with_a_repeating_p_is_cut_off_and_says_so():
    # 1200 against 1175 three times: p = 13/24 = 0.541666…, and 20 × (2 − 3p) + 3 = 10.5
    # exactly, which the rule rounds up to 11. Any rounding of p tips it to 10, so p is cut
    # off (0.5416…), still what 0.5 + 25 / 600 gives, cut.
    s = hsb_sum(**hsb_event(1200, [1175] * 3, [1, 1, 0], 3))
    assert s is not None and s.p_cut and (s.p, s.change) == (Decimal("0.5416"), 11)
    assert_hsb_adds_up(s)
    # Where the sum does not hinge on an exact half, p is rounded, from the printed average
    # 1175.3 (0.5 + 24.7 / 600 = 0.54116…; the stored 1175.33… would give 0.5411).
    rounded_p = hsb_sum(**hsb_event(1200, [1175, 1175, 1176], [1, 1, 0], 3))
    assert rounded_p is not None and not rounded_p.p_cut and rounded_p.p == Decimal("0.5412")
    assert_hsb_adds_up(rounded_p)


@given(
    rating=st.integers(min_value=400, max_value=2400),
    opponents=st.lists(st.integers(min_value=400, max_value=2400), min_size=1, max_size=12),
    bonus=st.integers(min_value=3, max_value=8),
    data=st.data(),
)
def test_every_hsb_event_adds_up_from_its_printed_numbers(rating, opponents, bonus, data):
    scores = data.draw(st.lists(st.sampled_from([0, 0.5, 1]), min_size=len(opponents),
                                max_size=len(opponents)))  # fmt: skip
    s = hsb_sum(**hsb_event(float(rating), [float(o) for o in opponents], scores, bonus))
    assert s is not None and s.bonus == bonus
    assert_hsb_adds_up(s)
    assert s.change == math.floor(
        20 * (Fraction(sum(scores)) - len(opponents) * Fraction(str(s.p))) + bonus + Fraction(1, 2)
    )


@given(
    # Ratings with decimals (a roster's starting ratings, a fractional start rating), in
    # eighths and quarters so that the binary float is the decimal number itself: the page
    # prints the rating rounded, and p must follow from what it prints.
    rating=st.integers(min_value=3200, max_value=19200).map(lambda n: n / 8),
    opponents=st.lists(
        st.integers(min_value=1600, max_value=9600).map(lambda n: n / 4), min_size=1, max_size=12
    ),
    bonus=st.integers(min_value=3, max_value=8),
    data=st.data(),
)
def test_every_hsb_event_with_decimal_ratings_adds_up_from_its_printed_numbers(
    rating, opponents, bonus, data
):
    scores = data.draw(st.lists(st.sampled_from([0, 0.5, 1]), min_size=len(opponents),
                                max_size=len(opponents)))  # fmt: skip
    s = hsb_sum(**hsb_event(rating, opponents, scores, bonus))
    assert s is not None and s.bonus == bonus
    assert_hsb_adds_up(s)


@pytest.mark.parametrize(
    ("value", "digits", "expected"),
    [(15.25, 1, True), (15.24, 1, False), (-2.5, 0, True), (13.0, 0, False)],
)
def test_is_half(value, digits, expected):
    assert is_half(to_decimal(value), digits) is expected
