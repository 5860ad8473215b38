"""FIDE tie-breaks (C.07, 2023) on small hand-computed tournaments; no database."""

from __future__ import annotations

import pytest

from ladder.results import Result
from ladder.tiebreaks import Game, Tiebreak, compute

R = Result

# Five players, three rounds, with every kind of unplayed round:
# R1: 1-2 1-0, 3-4 0-1, 5 pairing-allocated bye (not a VUR, art. 16.2)
# R2: 1-4 draw, 5-2 forfeit win for 5 (a VUR for 2), 3 requested half-point bye (a VUR)
# R3: 1-5 1-0, 4-3 1-0, 2 withdrawn: no game at all (a zero-point VUR)
SWISS = [
    Game(1, 1, 2, R.WHITE_WIN),
    Game(1, 3, 4, R.BLACK_WIN),
    Game(1, 5, None, R.BYE_PAIRING),
    Game(2, 1, 4, R.DRAW),
    Game(2, 5, 2, R.WHITE_FORFEIT_WIN),
    Game(2, 3, None, R.BYE_HALF),
    Game(3, 1, 5, R.WHITE_WIN),
    Game(3, 4, 3, R.WHITE_WIN),
]
# Scores: 1 = 2.5, 2 = 0, 3 = 0.5, 4 = 2.5, 5 = 2.
# What an opponent contributes, each VUR counted as a draw (art. 16.3):
#   1 = 2.5, 2 = 0 + ½ (forfeit loss) + ½ (absent) = 1, 3 = 0 + ½ (half bye) + 0 = 0.5,
#   4 = 2.5, 5 = 1 (PAB) + 1 (forfeit win) + 0 = 2.
# Own unplayed rounds score the player's own points (dummy opponent, art. 16.4).
SWISS_VALUES = [
    # player, points, Buchholz, Cut-1, Sonneborn-Berger, wins
    # 1: 2 (1) + 4 (2.5) + 5 (2) = 5.5; cut 1 -> 4.5; SB 1*1 + ½*2.5 + 1*2 = 4.25
    (1, 2.5, 5.5, 4.5, 4.25, 2),
    # 4: 3 (0.5) + 1 (2.5) + 3 (0.5) = 3.5; cut 0.5 -> 3; SB 1*0.5 + ½*2.5 + 1*0.5 = 2.25
    (4, 2.5, 3.5, 3.0, 2.25, 2),
    # 5: PAB (own 2) + forfeit win (own 2) + 1 (2.5) = 6.5; cut 2 -> 4.5; SB 1*2 + 1*2 + 0 = 4;
    #    no game won over the board
    (5, 2.0, 6.5, 4.5, 4.0, 0),
    # 3: 4 (2.5) + half bye (own 0.5) + 4 (2.5) = 5.5; the VUR is cut first -> 5;
    #    SB 0 + ½*0.5 + 0 = 0.25
    (3, 0.5, 5.5, 5.0, 0.25, 0),
    # 2: 1 (2.5) + forfeit loss (own 0) + absent (own 0) = 2.5; a VUR cut -> 2.5; SB 0
    (2, 0.0, 2.5, 2.5, 0.0, 0),
]


def test_unplayed_rounds_count_as_the_fide_regulations_say() -> None:
    values = compute([1, 2, 3, 4, 5], SWISS)
    got = [
        (v.player, v.points, v.buchholz, v.buchholz_cut1, v.sonneborn_berger, v.wins)
        for v in values
    ]
    assert got == SWISS_VALUES
    assert [v.rank for v in values] == [1, 2, 3, 4, 5]


def test_buchholz_cut_1_breaks_the_tie_before_buchholz() -> None:
    # Players 1 and 4 both have 2.5; Cut-1 4.5 against 3 puts 1 first.
    ranks = {v.player: v.rank for v in compute([4, 1, 2, 3, 5], SWISS)}
    assert (ranks[1], ranks[4]) == (1, 2)


def test_cut_1_removes_a_voluntary_unplayed_round_before_a_lower_opponent() -> None:
    # 1 beats 2 (who ends on 0), then takes a half-point bye: 1.5 points.
    # Contributions: 2 (0) and the bye (own 1.5). Cut-1 drops the bye (art. 16.5), not 2's 0.
    games = [Game(1, 1, 2, R.WHITE_WIN), Game(2, 1, None, R.BYE_HALF), Game(2, 2, None, R.BYE_ZERO)]
    one = next(v for v in compute([1, 2], games) if v.player == 1)
    # 2's score for 1's Buchholz: 0 + ½ (zero bye is a VUR, counted as a draw) = 0.5
    assert (one.buchholz, one.buchholz_cut1) == (2.0, 0.5)


# Four players all end on 1.5 and every pair met:
# R1: 1-2 1-0, 3-4 draw; R2: 1-3 draw, 2-4 1-0; R3: 1-4 0-1, 2-3 draw.
# Buchholz 4.5 each, Sonneborn-Berger 2.25 each (e.g. 1: 1*1.5 + ½*1.5), direct encounter 1.5 each;
# wins: 1, 2 and 4 won one game, 3 none.
ALL_TIED = [
    Game(1, 1, 2, R.WHITE_WIN),
    Game(1, 3, 4, R.DRAW),
    Game(2, 1, 3, R.DRAW),
    Game(2, 2, 4, R.WHITE_WIN),
    Game(3, 1, 4, R.BLACK_WIN),
    Game(3, 2, 3, R.DRAW),
]


def test_ties_left_after_every_tiebreak_share_a_rank_in_start_order() -> None:
    values = compute([1, 2, 3, 4], ALL_TIED)
    assert [(v.player, v.rank) for v in values] == [(1, 1), (2, 1), (4, 1), (3, 4)]
    assert {(v.buchholz, v.sonneborn_berger, v.direct_encounter) for v in values} == {
        (4.5, 2.25, 1.5)
    }


# R1: 1-2 1-0, 3-4 1-0; R2: 3-1 1-0, 2-4 1-0. Scores 3 = 2, 1 = 1, 2 = 1, 4 = 0.
MET = [
    Game(1, 1, 2, R.WHITE_WIN),
    Game(1, 3, 4, R.WHITE_WIN),
    Game(2, 3, 1, R.WHITE_WIN),
    Game(2, 2, 4, R.WHITE_WIN),
]


@pytest.mark.parametrize(
    ("order", "ranks"),
    [
        # 1 and 2 are tied and met: 1 scored 1 against 2.
        ((Tiebreak.DIRECT_ENCOUNTER,), [(3, 1), (1, 2), (2, 3), (4, 4)]),
        # Buchholz: 1 met 2 (1) and 3 (2) = 3; 2 met 1 (1) and 4 (0) = 1.
        ((Tiebreak.BUCHHOLZ,), [(3, 1), (1, 2), (2, 3), (4, 4)]),
        # Wins: one each; no tie-break at all leaves them sharing rank 2.
        ((Tiebreak.WINS,), [(3, 1), (2, 2), (1, 2), (4, 4)]),
        ((), [(3, 1), (2, 2), (1, 2), (4, 4)]),
    ],
)
def test_the_club_order_decides_which_tiebreak_separates(
    order: tuple[Tiebreak, ...], ranks: list[tuple[int, int]]
) -> None:
    assert [(v.player, v.rank) for v in compute([2, 1, 3, 4], MET, order)] == ranks


def test_direct_encounter_is_left_out_when_not_every_tied_pair_met() -> None:
    # R1: 1-2 0-1, 3-4 1-0; R2: 1-3 1-0, 2-4 0-1: all four on 1, 1 and 4 never met.
    games = [
        Game(1, 1, 2, R.BLACK_WIN),
        Game(1, 3, 4, R.WHITE_WIN),
        Game(2, 1, 3, R.WHITE_WIN),
        Game(2, 2, 4, R.BLACK_WIN),
    ]
    values = compute([1, 2, 3, 4], games, (Tiebreak.DIRECT_ENCOUNTER,))
    assert {v.rank for v in values} == {1}
    assert {v.direct_encounter for v in values} == {0.0}


def test_a_forfeit_is_not_a_win_over_the_board_but_counts_in_direct_encounter() -> None:
    games = [Game(1, 1, 2, R.WHITE_FORFEIT_WIN), Game(2, 2, 1, R.WHITE_WIN)]
    values = {v.player: v for v in compute([1, 2], games, (Tiebreak.DIRECT_ENCOUNTER,))}
    assert (values[1].wins, values[2].wins) == (0, 1)
    assert (values[1].direct_encounter, values[2].direct_encounter) == (1.0, 1.0)
    assert values[1].rank == values[2].rank == 1
