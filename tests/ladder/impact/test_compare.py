"""ladder.impact.compare: two ladders compared, as the directors' previews count the moves."""

from ladder.impact.compare import compare_ladders
from ladder.policies.base import PlayerState as S


def test_a_move_too_small_to_show_is_not_counted():
    impact = compare_ladders(
        {1: S(1500.0, 9), 2: S(1400.0, 9)}, {1: S(1500.04, 9), 2: S(1401.0, 9)}
    )
    assert [m.player_id for m in impact.moves] == [2]
    assert impact.moved == 1 and impact.largest == 1.0


def test_moves_come_largest_first_whichever_their_sign():
    impact = compare_ladders(
        {1: S(1500.0, 9), 2: S(1500.0, 9), 3: S(1500.0, 9)},
        {1: S(1503.0, 9), 2: S(1485.8, 9), 3: S(1507.0, 9)},
    )
    assert [m.player_id for m in impact.moves] == [2, 3, 1]
    assert round(impact.largest, 1) == 14.2


def test_players_joining_or_leaving_the_ladder_count_but_not_as_the_largest_move():
    impact = compare_ladders(
        {1: None, 2: S(1200.0, 0), 3: S(1510.0, 4), 4: S(1500.0, 9)},
        {1: S(1230.0, 2), 2: S(1300.0, 0), 3: S(1200.0, 0), 4: S(1502.0, 9)},
    )
    # Player 2 has no rated game either way: their rating shows nowhere.
    assert [m.player_id for m in impact.moves] == [4, 3, 1]
    assert (impact.moved, impact.joined, impact.left, impact.largest) == (3, 1, 1, 2.0)


def test_nothing_moves_when_the_ladders_agree():
    ladder = {1: S(1500.0, 9), 2: None}
    impact = compare_ladders(ladder, dict(ladder))
    assert impact.moves == () and impact.largest == 0.0
