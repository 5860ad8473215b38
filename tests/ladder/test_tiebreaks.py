"""FIDE tie-breaks (C.07) against the FIDE worked examples and small hand-computed events.

The published values are from IA Mario Held, "Exercises in Tie-Breaking" (FIDE Arbiters'
Commission, March 2024, for C.07 as in force from 1 April 2024): a 16-player, 5-round Swiss
with every kind of unplayed round, the same event run to 9 rounds, and a 6-player round robin.
"""

from __future__ import annotations

import random

import pytest

from clubs.results import Result
from ladder.tiebreaks import DEFAULT_ORDER, Game, Rules, Tiebreak, Values, compute, parse_order

R = Result
_BYES = {"H": R.BYE_HALF, "U": R.BYE_PAIRING, "Z": R.BYE_ZERO, "F": R.BYE_FULL}
_RESULTS = {
    (1.0, False): R.WHITE_WIN,
    (0.5, False): R.DRAW,
    (0.0, False): R.BLACK_WIN,
    (1.0, True): R.WHITE_FORFEIT_WIN,
    (0.0, True): R.BLACK_FORFEIT_WIN,
}


def crosstable(text: str) -> list[Game]:
    """Games from a crosstable: per player, per round `<opponent><colour><result>` or a bye
    letter (H half-point, U pairing-allocated, Z zero-point); `+`/`-` is a forfeit."""
    games: list[Game] = []
    seen: set[tuple[int, int]] = set()
    for line in text.strip().splitlines():
        player, *cells = line.split()
        for round_no, cell in enumerate(cells, 1):
            if cell in _BYES:
                games.append(Game(round_no, int(player), None, _BYES[cell]))
                continue
            opponent, colour, mark = int(cell[:-2]), cell[-2], cell[-1]
            seen.add((round_no, int(player)))
            if (round_no, opponent) in seen:
                continue
            mine = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0}[mark]
            white, black = (int(player), opponent) if colour == "w" else (opponent, int(player))
            white_points = mine if colour == "w" else 1.0 - mine
            games.append(Game(round_no, white, black, _RESULTS[white_points, mark in "+-"]))
    return games


# Held's crosstable (start number, then rounds 1-5). 12 withdraws after round 3 (Z Z);
# 9 takes a half-point bye, then loses by forfeit to 11, then gets the pairing bye.
SWISS_5 = crosstable("""
 1  9w1 13b=  2w= 15b1  4w=
 2 10b1  7w1  1b= 16w1  3b=
 3 11w=  6b1  8w1  4b=  2w=
 4 12b1  H   13w1  3w=  1b=
 5 13w0 15b0 11w1  7b= 10w1
 6 14b0  3w0  U   10w1  8b1
 7 15w1  2b0 16b0  5w= 11b0
 8 16b= 14w1  3b0 13w1  6w0
 9  1b0 10w0  H   11b-  U
10  2w0  9b1 15w0  6b0  5b0
11  3b= 16w0  5b0  9w+  7w1
12  4w0  U   14w+  Z    Z
13  5b1  1w=  4b0  8b0 14w0
14  6w1  8b0 12b-  Z   13b1
15  7b0  5w1 10b1  1w0 16b0
16  8w= 11b1  7w1  2b0 15w1
""")
PLAYERS = list(range(1, 17))

# Held, exercises 1-8, 11-13, 27 and 28 (C.07 arts. 7.1, 7.2, 8.1, 9.1, 14.1, 16).
PUBLISHED = {
    # player: (Buchholz, Buchholz Cut-1, Sonneborn-Berger, WIN, WON)
    1: (12.5, 11.0, 8.00, 2, 2),
    2: (13.0, 12.0, 9.50, 3, 3),
    3: (15.5, 13.0, 10.50, 2, 2),
    4: (15.0, 11.5, 9.75, 2, 2),
    5: (8.5, 7.5, 4.25, 2, 2),
    6: (12.0, 11.0, 6.50, 3, 2),
    7: (14.5, 12.5, 3.25, 1, 1),
    8: (13.5, 12.0, 5.25, 2, 2),
    9: (9.0, 7.5, 2.25, 1, 0),
    10: (13.0, 11.5, 1.50, 1, 1),
    11: (13.5, 12.0, 5.75, 2, 1),
    12: (11.5, 9.5, 4.00, 2, 0),
    13: (14.0, 12.0, 4.25, 1, 1),
    14: (11.0, 9.0, 4.50, 2, 2),
    15: (12.0, 11.0, 3.50, 2, 2),
    16: (12.5, 11.0, 7.25, 3, 3),
}


def _table(values: list[Values]) -> dict[int, tuple[float, float, float, int, int]]:
    return {
        v.player: (v.buchholz, v.buchholz_cut1, v.sonneborn_berger, v.rounds_won, v.wins)
        for v in values
    }


def test_the_fide_exercise_values_under_the_2024_rules() -> None:
    assert _table(compute(PLAYERS, SWISS_5, rules=Rules.FIDE_2024)) == PUBLISHED


def test_the_2026_caps_on_the_dummy_opponent_change_only_the_rounds_they_reach() -> None:
    # Not published by FIDE; by hand from arts. 16.4.1 and 16.4.2 (in force 1 March 2026):
    # 4's half-point bye: dummy min(own 3.5, ½ x 5 rounds) = 2.5, not 3.5: BH 15 -> 14,
    #   SB 9.75 -> 9.25 (½ x 2.5); Cut-1 still cuts that VUR: 14 - 2.5 = 11.5.
    # 6's pairing bye: min(3, 2.5) = 2.5: BH 12 -> 11.5, Cut-1 11 -> 10.5, SB 6.5 -> 6.
    # 11's forfeit win against 9: min(own 2.5, 9's adjusted 1.5) = 1.5: BH 13.5 -> 12.5,
    #   Cut-1 12 -> 11, SB 5.75 -> 4.75. (9's adjusted score keeps the forfeit loss's 0.)
    expected = dict(PUBLISHED)
    expected[4] = (14.0, 11.5, 9.25, 2, 2)
    expected[6] = (11.5, 10.5, 6.00, 3, 2)
    expected[11] = (12.5, 11.0, 4.75, 2, 1)
    assert _table(compute(PLAYERS, SWISS_5)) == expected


def ranks(values: list[Values]) -> dict[int, int]:
    return {v.player: v.rank for v in values}


def test_direct_encounter_leaves_a_group_tied_when_not_all_met() -> None:
    # Held, exercises 23 and 24: 1, 3, 4, 16 (3½) and 5, 8, 11 (2½) never all met, and
    # nobody's score among them is out of the others' reach (art. 6.2).
    got = ranks(compute(PLAYERS, SWISS_5, (Tiebreak.DIRECT_ENCOUNTER,)))
    assert [got[p] for p in (1, 3, 4, 16)] == [2, 2, 2, 2]
    assert [got[p] for p in (5, 8, 11)] == [7, 7, 7]


def test_direct_encounter_over_nine_rounds() -> None:
    # Held, exercise 25: 1, 2, 4, 6 (6 points) all met: 6 scored 2, 1 and 4 1½, 2 one;
    # 1 and 4 drew, so they stay tied. The 4½ and 4 groups did not all meet.
    swiss_9 = crosstable("""
     1  9w1 13b=  2w= 15b1  4w=  6b=  3b= 16w=  8b1
     2 10b1  7w1  1b= 16w1  3b1  4w=  6w0 15b=  5w=
     3 11w=  6b1  8w1  4b=  2w0 16b1  1w= 14w1 10b1
     4 12b1  H   13w1  3w=  1b=  2b= 16w=  6b= 15w1
     5 13w0 15b0 11w1  7b= 10w1 14b0  9b1  8w0  2b=
     6 14b0  3w0  U   10w1  8b1  1w=  2b1  4w= 16b1
     7 15w1  2b0 16b0  5w= 11b0 10b0 13w1  9w1 14b1
     8 16b= 14w1  3b0 13w1  6w0 11b= 15w=  5b1  1w0
     9  1b0 10w0  H   11b-  U   13b1  5w0  7b0 12w=
    10  2w0  9b1 15w0  6b0  5b0  7w1 12b1 11w1  3w0
    11  3b= 16w0  5b0  9w+  7w1  8w= 14b0 10b0 13w=
    12  4w0  U   14w+  Z    Z   15b0 10w0 13b=  9b=
    13  5b1  1w=  4b0  8b0 14w0  9w0  7b0 12w= 11b=
    14  6w1  8b0 12b-  Z   13b1  5w1 11w1  3b0  7w0
    15  7b0  5w1 10b1  1w0 16b0 12w1  8b=  2w=  4b0
    16  8w= 11b1  7w1  2b0 15w1  3w0  4b=  1b=  6w0
    """)
    assert ranks(compute(PLAYERS, swiss_9, (Tiebreak.DIRECT_ENCOUNTER,))) == {
        1: 3, 2: 5, 3: 1, 4: 3, 5: 9, 6: 2, 7: 6, 8: 6,
        9: 14, 10: 9, 11: 13, 12: 14, 13: 16, 14: 9, 15: 9, 16: 6,
    }  # fmt: skip


# Held's round robin: 5 loses round 4 to 6 by forfeit.
ROUND_ROBIN = crosstable("""
1 5w=  2w1  3b1  4w0  6b1
2 6w1  1b0  5w1  3w=  4b1
3 4w1  6b1  1w0  2b=  5w1
4 3b0  5b0  6w=  1b1  2w0
5 1b=  4w1  2b0  6w-  3b0
6 2b0  3w0  4b=  5b+  1w0
""")


def test_a_round_robin_counts_a_forfeit_as_a_game_against_its_opponent() -> None:
    values = compute(
        [1, 2, 3, 4, 5, 6], ROUND_ROBIN, (Tiebreak.DIRECT_ENCOUNTER,), round_robin=True
    )
    # Held, exercise 14: Sonneborn-Berger, 6's forfeit win worth 5's 1½.
    assert {v.player: v.sonneborn_berger for v in values} == {
        1: 9.25, 2: 6.25, 3: 6.25, 4: 4.25, 5: 3.25, 6: 2.25
    }  # fmt: skip
    # Held, exercise 26: 1 beat 2 and 3, who drew; among 4, 5, 6 the forfeit decides.
    assert ranks(values) == {1: 1, 2: 2, 3: 2, 4: 6, 5: 5, 6: 4}
    # As a Swiss the forfeit is no meeting, so 4, 5 and 6 could not be told apart.
    swiss = ranks(compute([1, 2, 3, 4, 5, 6], ROUND_ROBIN, (Tiebreak.DIRECT_ENCOUNTER,)))
    assert [swiss[p] for p in (4, 5, 6)] == [4, 4, 4]


def test_a_withdrawal_counts_as_draws_for_the_opponents_a_forfeit_loss_does_not() -> None:
    # Held's 12 (0, PAB 1, forfeit win 1, Z, Z = 2) counts 2 + ½ + ½ = 3 for 4, who beat him;
    # 9 (0, 0, H ½, forfeit loss 0, PAB 1 = 1½) counts 1½ for 1: the half-point bye and the
    # forfeit loss come before a round 9 did not choose (art. 16.3).
    # 1's Buchholz: 9 (1½) + 13 (1½) + 2 (4) + 15 (2) + 4 (3½) = 12.5, as published.
    one = next(v for v in compute(PLAYERS, SWISS_5) if v.player == 1)
    assert one.buchholz == 12.5


def test_cut_1_removes_a_voluntary_unplayed_round_before_a_lower_opponent() -> None:
    # Held's 14: 6 (3), 8 (2½), forfeit loss (own 2), Z (own 2), 13 (1½) = 11; Cut-1 cuts a
    # VUR's 2, not 13's 1½ (art. 16.5): 9. Cut-2 cuts both VURs: 11 - 4 = 7.
    fourteen = next(v for v in compute(PLAYERS, SWISS_5) if v.player == 14)
    assert (fourteen.buchholz, fourteen.buchholz_cut1, fourteen.buchholz_cut2) == (11.0, 9.0, 7.0)


def test_cut_2_removes_the_two_lowest_when_there_is_no_unplayed_round() -> None:
    # Held's 5 met 13 (1½), 15 (2), 11 (2½), 7 (1½), 10 (1): 8.5; Cut-2 drops 1 and 1½.
    five = next(v for v in compute(PLAYERS, SWISS_5) if v.player == 5)
    assert (five.buchholz_cut1, five.buchholz_cut2) == (7.5, 6.0)


def test_standings_after_a_round_ignore_the_later_games() -> None:
    # After round 2: 2 has 2 (beat 10 and 7); 1 and 4 have 1½. 4's half-point bye is a VUR
    # against a dummy of min(own 1½, ½ x 2 rounds) = 1; 12 (0, then PAB) counts 1 for 4.
    after_two = {v.player: v for v in compute(PLAYERS, SWISS_5, up_to_round=2)}
    assert (after_two[2].points, after_two[1].points, after_two[4].points) == (2.0, 1.5, 1.5)
    assert after_two[4].buchholz == 1.0 + 1.0
    assert after_two[2].rank == 1
    assert after_two[12].points == 1.0  # round 3's forfeit win is not counted yet


# Four players all end on 1.5 and every pair met:
# R1: 1-2 1-0, 3-4 draw; R2: 1-3 draw, 2-4 1-0; R3: 1-4 0-1, 2-3 draw.
ALL_TIED = [
    Game(1, 1, 2, R.WHITE_WIN),
    Game(1, 3, 4, R.DRAW),
    Game(2, 1, 3, R.DRAW),
    Game(2, 2, 4, R.WHITE_WIN),
    Game(3, 1, 4, R.BLACK_WIN),
    Game(3, 2, 3, R.DRAW),
]


def test_ties_left_after_every_tiebreak_share_a_rank_in_start_order() -> None:
    # Buchholz 4.5 each, Sonneborn-Berger 2.25 each, direct encounter 1.5 each;
    # 1, 2 and 4 won one game, 3 none.
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
        # Any order of the members: wins first changes nothing, Buchholz then decides.
        ((Tiebreak.WINS, Tiebreak.ROUNDS_WON, Tiebreak.BUCHHOLZ), [(3, 1), (1, 2), (2, 3), (4, 4)]),
    ],
)
def test_the_club_order_decides_which_tiebreak_separates(
    order: tuple[Tiebreak, ...], ranks: list[tuple[int, int]]
) -> None:
    assert [(v.player, v.rank) for v in compute([2, 1, 3, 4], MET, order)] == ranks


def test_direct_encounter_ranks_first_a_score_the_others_cannot_reach() -> None:
    # R1: 1-2 1-0, 3-4 1-0; R2: 3-1 0-1, 2-5 1-0; R3: 4-2 0-1, 5-3 0-1, 1 zero-point bye.
    # 1, 2 and 3 end on 2; 1 beat 2 and 3, who never met. Against the group 1 scored 2;
    # 2 and 3 scored 0 and could reach at most 0 + 1 (their missing game) = 1 < 2, so 1 is
    # ranked first (art. 6.2); 2 and 3 then stay tied (no game between them).
    games = [
        Game(1, 1, 2, R.WHITE_WIN),
        Game(1, 3, 4, R.WHITE_WIN),
        Game(2, 3, 1, R.BLACK_WIN),
        Game(2, 2, 5, R.WHITE_WIN),
        Game(3, 4, 2, R.BLACK_WIN),
        Game(3, 5, 3, R.BLACK_WIN),
        Game(3, 1, None, R.BYE_ZERO),
    ]
    values = {v.player: v for v in compute([1, 2, 3, 4, 5], games, (Tiebreak.DIRECT_ENCOUNTER,))}
    assert (values[1].points, values[2].points, values[3].points) == (2.0, 2.0, 2.0)
    assert (values[1].rank, values[2].rank, values[3].rank) == (1, 2, 2)


def test_a_forfeit_is_not_a_win_over_the_board_nor_a_meeting_in_a_swiss() -> None:
    games = [Game(1, 1, 2, R.WHITE_FORFEIT_WIN), Game(2, 2, 1, R.WHITE_WIN)]
    values = {v.player: v for v in compute([1, 2], games, (Tiebreak.DIRECT_ENCOUNTER,))}
    assert (values[1].wins, values[2].wins) == (0, 1)
    assert (values[1].rounds_won, values[2].rounds_won) == (1, 1)
    # Only the game played in round 2 is an encounter: 2 won it.
    assert (values[2].rank, values[1].rank) == (1, 2)


def test_parse_order_checks_a_clubs_stored_codes() -> None:
    assert parse_order([]) == DEFAULT_ORDER
    assert parse_order(["de", "sb", "bh-c2"]) == (
        Tiebreak.DIRECT_ENCOUNTER,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.BUCHHOLZ_CUT2,
    )
    with pytest.raises(ValueError, match="unknown"):
        parse_order(["bh", "aro"])
    with pytest.raises(ValueError, match="twice"):
        parse_order(["bh", "sb", "bh"])


def test_leaders_only_ranks_the_top_score_as_the_whole_table_does():
    """The events list asks only who won: the same first place, the same values, for any
    games (random Swiss-like rounds with draws, forfeits and byes)."""
    rng = random.Random(7)
    results = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN, Result.WHITE_FORFEIT_WIN]
    for _ in range(200):
        players = list(range(1, rng.randint(3, 12)))
        games = []
        for round_no in range(1, rng.randint(2, 6)):
            shuffled = players[:]
            rng.shuffle(shuffled)
            for white, black in zip(shuffled[::2], shuffled[1::2], strict=False):
                games.append(Game(round_no, white, black, rng.choice(results)))
            if len(shuffled) % 2:
                games.append(Game(round_no, shuffled[-1], None, Result.BYE_PAIRING))
        whole = compute(players, games)
        top = compute(players, games, leaders_only=True)
        assert [v.player for v in top] == [v.player for v in whole if v.points == whole[0].points]
        assert [v.rank for v in top] == [v.rank for v in whole][: len(top)]
        assert [v.buchholz for v in top] == [v.buchholz for v in whole][: len(top)]


@pytest.mark.parametrize("rules", [Rules.FIDE_2024, Rules.FIDE_2026])
def test_a_pairing_bye_worth_half_a_point_is_not_the_players_choice(rules):
    """A club night may score the pairing's bye ½: still not a voluntary unplayed round, so
    Cut-1 drops the lowest opponent, not the bye (C.07 16.2, 16.5). A requested half-point
    bye is voluntary and goes first. A: the bye, then beats C, who lost both games."""

    def cut1(bye: Result) -> float:
        games = [
            Game(1, 1, None, bye),
            Game(1, 2, 3, Result.WHITE_WIN),
            Game(2, 1, 3, Result.WHITE_WIN),
            Game(2, 2, 4, Result.WHITE_WIN),
        ]
        return next(
            v for v in compute([1, 2, 3, 4], games, rules=rules) if v.player == 1
        ).buchholz_cut1

    assert cut1(Result.BYE_HALF) == 0.0  # the bye's dummy dropped, C's 0 kept
    assert cut1(Result.BYE_PAIRING_HALF) > 0.0  # C's 0 dropped, the dummy kept


def _buchholz_of(player: int, games: list[Game], rules: Rules) -> float:
    return next(v for v in compute([1, 2, 3, 4], games, rules=rules) if v.player == player).buchholz


@pytest.mark.parametrize("rules", [Rules.FIDE_2024, Rules.FIDE_2026])
@pytest.mark.parametrize(
    ("bye", "counted"),
    [
        # A zero- or half-point bye in a player's last round is a VUR after their last
        # played round: their opponents count it as a draw (16.3.2).
        (Result.BYE_ZERO, 0.5),
        (Result.BYE_HALF, 0.5),
        # A full-point bye is not the player's choice (16.2): its point counts as it is.
        (Result.BYE_FULL, 1.0),
    ],
)
def test_a_requested_bye_in_the_last_round_counts_for_the_opponents_per_c07(rules, bye, counted):
    """1 beat 2 in round 1; 2 took a bye in round 2. 1's Buchholz is 2's score as C.07 reads
    it plus 3's 1 point (two draws, nothing unplayed)."""
    games = [
        Game(1, 1, 2, Result.WHITE_WIN),
        Game(1, 3, 4, Result.DRAW),
        Game(2, 1, 3, Result.DRAW),
        Game(2, 2, None, bye),
        Game(2, 4, None, Result.BYE_ZERO),
    ]
    assert _buchholz_of(1, games, rules) == counted + 1.0


@pytest.mark.parametrize("rules", [Rules.FIDE_2024, Rules.FIDE_2026])
@pytest.mark.parametrize(
    ("bye", "counted"),
    [(Result.BYE_ZERO, 0.0), (Result.BYE_HALF, 0.5), (Result.BYE_FULL, 1.0)],
)
def test_a_requested_bye_before_a_played_round_counts_as_scored(rules, bye, counted):
    """2 took a bye in round 1 and lost to 1 in round 2: a VUR before the last played round
    counts its own points for the opponents (16.3.1), a zero-point bye nothing."""
    games = [
        Game(1, 2, None, bye),
        Game(1, 1, 3, Result.DRAW),
        Game(2, 1, 2, Result.WHITE_WIN),
        Game(2, 3, 4, Result.DRAW),
    ]
    assert _buchholz_of(1, games, rules) == counted + 1.0


@pytest.mark.parametrize("rules", [Rules.FIDE_2024, Rules.FIDE_2026])
def test_a_zero_point_bye_is_the_players_choice_and_a_full_point_bye_is_not(rules):
    """Cut-1 drops a VUR's contribution first (16.5): a zero-point bye's, as a half-point
    bye's; a full-point bye is not a VUR, so the lowest opponent goes instead."""

    def cut1(bye: Result) -> float:
        games = [
            Game(1, 1, None, bye),
            Game(1, 2, 3, Result.WHITE_WIN),
            Game(2, 1, 3, Result.WHITE_WIN),
            Game(2, 2, 4, Result.WHITE_WIN),
        ]
        return next(
            v for v in compute([1, 2, 3, 4], games, rules=rules) if v.player == 1
        ).buchholz_cut1

    assert cut1(Result.BYE_ZERO) == 0.0  # the bye's dummy dropped, C's 0 kept
    assert cut1(Result.BYE_FULL) > 0.0  # C's 0 dropped, the dummy kept
