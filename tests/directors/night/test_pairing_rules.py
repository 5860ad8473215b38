"""The director's rules handed to the pairing engine (directors.night.pairing.DirectorRules): pure,
no database. Each is checked against what the engine then pairs."""

from __future__ import annotations

import pytest

from directors.night.pairing import (
    DirectorRules,
    Entrant,
    PairingImpossible,
    baku_group_size,
    baku_virtual_points,
    pair_swiss,
)

EIGHT = [Entrant(id=n * 10, seed=n, rating=2000 - n) for n in range(1, 9)]


def test_without_rules_round_one_is_top_half_against_bottom_half():
    paired = pair_swiss(EIGHT, [], 1, 5)
    assert paired.boards == ((10, 50), (60, 20), (30, 70), (80, 40))


def test_a_never_pair_couple_is_kept_apart():
    apart = DirectorRules(never_pair=frozenset({(50, 10)}))  # either order
    paired = pair_swiss(EIGHT, [], 1, 5, rules=apart)
    assert all({10, 50} != set(board) for board in paired.boards)
    assert (10, 60) in paired.boards  # the next best opponent for seed 1


def test_a_couple_that_cannot_be_kept_apart_makes_the_round_impossible():
    two = EIGHT[:2]
    with pytest.raises(PairingImpossible):
        pair_swiss(two, [], 1, 1, rules=DirectorRules(never_pair=frozenset({(10, 20)})))


def test_seed_one_may_start_with_black():
    paired = pair_swiss(EIGHT, [], 1, 5, rules=DirectorRules(white_first=False))
    assert paired.boards[0] == (50, 10)
    # Every board alternates from there, as with white first, mirrored.
    assert paired.boards == ((50, 10), (20, 60), (70, 30), (40, 80))


def test_with_seed_one_absent_the_drawn_colour_goes_to_the_first_player_paired():
    """bbpPairings numbers only the players in the round (issue 33): with seed 1 absent in
    round 1, seed 2 is number 1 and takes the drawn colour, black here, and the colours
    alternate by board from there (tests/directors/night/test_round_one_colours.py)."""
    paired = pair_swiss(EIGHT, [], 1, 5, absent={10}, rules=DirectorRules(white_first=False))
    assert paired.boards == ((50, 20), (30, 60), (70, 40))
    assert paired.bye == 80


def test_the_baku_group_is_half_rounded_up_to_even():
    assert [baku_group_size(n) for n in (8, 9, 10, 161)] == [4, 6, 6, 82]


@pytest.mark.parametrize(
    ("rounds", "points"),
    [
        (9, [1, 1, 1, 0.5, 0.5, 0, 0, 0, 0]),  # C.04.5.1's own example
        (5, [1, 1, 0.5, 0, 0]),
        (1, [1]),
    ],
)
def test_baku_virtual_points_per_round(rounds, points):
    assert [baku_virtual_points(r, rounds) for r in range(1, rounds + 1)] == points


def test_accelerated_round_one_pairs_within_each_group():
    group_a = frozenset({10, 20, 30, 40})
    paired = pair_swiss(EIGHT, [], 1, 5, rules=DirectorRules(accelerated=group_a))
    for board in paired.boards:
        assert (board[0] in group_a) == (board[1] in group_a), board
    assert {frozenset(b) for b in paired.boards} == {
        frozenset({10, 30}), frozenset({20, 40}), frozenset({50, 70}), frozenset({60, 80}),
    }  # fmt: skip


def test_without_acceleration_the_same_field_pairs_across_the_groups():
    group_a = {10, 20, 30, 40}
    paired = pair_swiss(EIGHT, [], 1, 5)
    assert all((w in group_a) != (b in group_a) for w, b in paired.boards)
