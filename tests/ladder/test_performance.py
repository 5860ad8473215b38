"""Performance rating (TPR, FIDE C.07 art. 10.2 with B.02 table 8.1(a)); no database."""

from __future__ import annotations

import pytest

from clubs.results import Result
from ladder.performance import dp, event_performances, performance_rating
from ladder.tiebreaks import Game


@pytest.mark.parametrize(
    ("p", "expected"),
    [
        (0.0, -800),  # the table's ends: FIDE gives ±800 for a zero or a perfect score
        (1.0, 800),
        (0.5, 0),
        (0.75, 193),
        (0.25, -193),
        (0.99, 677),
        (2 / 3, 125),  # p = .67
        (0.375, -87),  # rounds half up to .38: dp(.38) = -dp(.62)
    ],
)
def test_dp_reads_the_fide_table(p: float, expected: int) -> None:
    assert dp(p) == expected


def test_dp_refuses_a_fraction_outside_zero_to_one() -> None:
    with pytest.raises(ValueError):
        dp(1.5)


def test_performance_by_hand() -> None:
    # 2 of 3 against 1600, 1800, 2000: average 1800, p = .67, dp 125 -> 1925.
    assert performance_rating([(1600, 1.0), (1800, 0.0), (2000, 1.0)]) == 1925
    # Half a point rounds up: 1887.5 + 193 = 2080.5 -> 2081.
    assert performance_rating([(1650, 1), (1600, 1), (2100, 0.5), (2200, 0.5)]) == 2081
    assert performance_rating([]) is None


def test_held_exercise_tpr_values() -> None:
    # IA Mario Held, "Exercises in Tie-Breaking" (FIDE, 2024), exercises 19-20, players 2,
    # 11, 12: Bruno (2) scored 4 of 5 against 1750, 1900, 2200, 1450, 2100: 1880 + 240 = 2120.
    # Maria (11) scored 1½ of 4 over the board (her forfeit win is not a game): 1862.5 - 87.
    # Nick (12) played one game, lost to 2050: 2050 - 800.
    ratings = {2: 2150, 10: 1750, 7: 1900, 1: 2200, 16: 1450, 3: 2100, 11: 1700, 5: 2000}
    ratings |= {9: 1800, 12: 1650, 4: 2050, 14: 1550}
    games = [
        Game(1, 10, 2, Result.BLACK_WIN),
        Game(2, 2, 7, Result.WHITE_WIN),
        Game(3, 1, 2, Result.DRAW),
        Game(4, 2, 16, Result.WHITE_WIN),
        Game(5, 3, 2, Result.DRAW),
        Game(1, 3, 11, Result.DRAW),
        Game(2, 11, 16, Result.BLACK_WIN),
        Game(3, 5, 11, Result.WHITE_WIN),
        Game(4, 11, 9, Result.WHITE_FORFEIT_WIN),
        Game(5, 11, 7, Result.WHITE_WIN),
        Game(1, 12, 4, Result.BLACK_WIN),
        Game(2, 12, None, Result.BYE_PAIRING),
        Game(3, 12, 14, Result.WHITE_FORFEIT_WIN),
    ]
    tpr = event_performances(games, ratings)
    assert (tpr[2], tpr[11], tpr[12]) == (2120, 1776, 1250)
    assert tpr[14] is None  # only a forfeit: no game over the board


def test_an_unrated_opponent_is_left_out() -> None:
    games = [Game(1, 1, 2, Result.WHITE_WIN), Game(2, 1, 3, Result.DRAW)]
    tpr = event_performances(games, {1: 1500, 2: None, 3: 1700})
    assert tpr[1] == 1700  # only the draw with 3 counts: 1700 + 0
    assert tpr[2] == 1500 - 800
