"""Round-1 colours with entrants absent (issue 33 part 4): the drawn colour alternates by
board among the players paired, as bbpPairings numbers them (its rankIndex counts only the
players in the round), not by starting number. Pure, no database.

Checked three ways: against caissify-pairings (the second engine of tests/directors/night)
given the players present numbered as bbpPairings numbers them; against the rule written out
here (S1[i] against S2[i], the higher player taking the drawn colour on odd boards); and
on the real round 1 of the Capo d'Orso open of 2012 (/work/shared/trf-corpus), paired by
JaVaFo with no. 36 absent.
"""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from clubs.results import Result
from directors.night.pairing import DirectorRules, Entrant, PastGame, RoundPairing, pair_swiss

# The corpus sits in "shared" beside the checkout: /work/shared for /work/main, and a level
# further up for a worktree (/work/wt/NAME), so look up the ancestors for it.
CORPUS = next(
    (
        parent / "shared" / "trf-corpus"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "trf-corpus").is_dir()
    ),
    Path("/nonexistent"),
)
CAPO_DORSO = CORPUS / "open_capo_dorso_2012_accelerated.trf"


def by_the_rule(present_in_seed_order: list[int], white_first: bool) -> RoundPairing:
    """C.04.3 round 1 written out: the lowest takes the bye of an odd field; S1[i] meets
    S2[i]; the higher player has the drawn colour on boards 1, 3, 5, ... and the other
    colour on boards 2, 4, ..."""
    players = list(present_in_seed_order)
    bye = players.pop() if len(players) % 2 else None
    half = len(players) // 2
    boards = []
    for board, (high, low) in enumerate(zip(players[:half], players[half:], strict=True)):
        high_white = (board % 2 == 0) == white_first
        boards.append((high, low) if high_white else (low, high))
    return RoundPairing(boards=tuple(boards), bye=bye)


def caissify_round_one(present_in_seed_order: list[int], white_first: bool) -> RoundPairing:
    """Round 1 by caissify-pairings' Dutch engine, the present players numbered 1..n."""
    from caissify_pairings import generate_pairings

    players = [
        {
            "id": pid,
            "name": str(pid),
            "score": 0.0,
            "rating": 3000 - n,
            "starting_number": n,
            "pairing_number": n,
            "color_hist": [],
            "float_history": [],
            "bye_count": 0,
            "forfeit_win_count": 0,
        }
        for n, pid in enumerate(present_in_seed_order, start=1)
    ]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=set(),
            round_number=1,
            total_rounds=3,
            initial_color="white" if white_first else "black",
        )
    boards = tuple((r["white_id"], r["black_id"]) for r in rows if r.get("black_id") is not None)
    byes = [r["white_id"] for r in rows if r.get("black_id") is None]
    return RoundPairing(boards=boards, bye=byes[0] if byes else None)


@pytest.mark.parametrize("white_first", [True, False])
@pytest.mark.parametrize(
    ("field", "absent_seeds"),
    [
        (10, {4}),  # even field, one absent: 9 paired, a bye
        (11, {4}),  # odd field, one absent: 10 paired
        (12, {3, 7}),
        (13, {2, 5, 6}),
        (20, {1}),  # the top seed absent: seed 2 takes the drawn colour
        (21, {20, 21}),  # absentees at the bottom change nothing above them
    ],
)
def test_round_one_with_absentees_alternates_colours_by_board(field, absent_seeds, white_first):
    entrants = [Entrant(id=100 + s, seed=s, rating=0) for s in range(1, field + 1)]
    absent = {100 + s for s in absent_seeds}
    present = [e.id for e in entrants if e.id not in absent]
    rules = DirectorRules(white_first=white_first)

    ours = pair_swiss(entrants, [], 1, 5, absent, rules=rules)

    assert ours == by_the_rule(present, white_first)
    assert ours == caissify_round_one(present, white_first)


def test_round_one_with_many_random_absentees_agrees_with_the_second_engine():
    rng = random.Random(33)
    for _ in range(40):
        field = rng.randint(4, 40)
        seeds = rng.sample(range(1, 500), field)
        entrants = [Entrant(id=10_000 + s, seed=s, rating=0) for s in seeds]
        absent = set(rng.sample([e.id for e in entrants], rng.randint(1, field - 2)))
        white_first = rng.random() < 0.5
        present = [e.id for e in sorted(entrants, key=lambda e: e.seed) if e.id not in absent]
        rules = DirectorRules(white_first=white_first)
        ours = pair_swiss(entrants, [], 1, 3, absent, rules=rules)
        assert ours == caissify_round_one(present, white_first), (field, absent)


def test_an_absentee_who_played_before_still_counts_for_the_drawn_colour():
    """bbpPairings leaves out of its numbering only the players never yet in a pairing; one
    who played and is absent now still counts. Seed 1 plays round 1 and is away in round 2;
    seeds 2 and 3, away in round 1 (requested byes, no pairing), meet in round 2 with no
    colour history: seed 2 is number 2 of those counted, so he has the other colour."""
    entrants = [Entrant(id=s, seed=s, rating=0) for s in range(1, 6)]
    history = [
        PastGame(1, 2, None, Result.BYE_ZERO),
        PastGame(1, 3, None, Result.BYE_HALF),
        PastGame(1, 1, 4, Result.DRAW),
        PastGame(1, 5, None, Result.BYE_PAIRING, allocated=True),
    ]
    paired = pair_swiss(entrants, history, 2, 3, absent={1, 4, 5})
    assert paired.boards == ((3, 2),)
    # Seed 1 absent with no pairing before: seed 2 is number 1 of those counted, and white.
    entrants = [Entrant(id=s, seed=s, rating=0) for s in range(1, 5)]
    paired = pair_swiss(entrants, [], 1, 3, absent={1})
    assert paired.boards == ((2, 3),)
    assert paired.bye == 4


def read_capo_dorso_round_one() -> tuple[list[int], dict[int, tuple[str, int]]]:
    """Starting numbers, and round 1 as (colour, opponent) per player (0 = none), from the
    TRF's fixed columns (opponent at 92-95, colour at 97)."""
    numbers: list[int] = []
    round_one: dict[int, tuple[str, int]] = {}
    for line in CAPO_DORSO.read_text(encoding="utf-8").splitlines():
        if line.startswith("001"):
            number = int(line[4:8])
            numbers.append(number)
            round_one[number] = (line[96], int(line[91:95]))
    return numbers, round_one


needs_corpus = pytest.mark.skipif(not CAPO_DORSO.exists(), reason="no shared TRF corpus here")


@needs_corpus
def test_capo_dorso_2012_round_one_without_acceleration_with_no_36_absent():
    """The case of issue 33: 83 present, no. 84 has the bye; board 36 is 37 against 78 and,
    the 36th board among those present, gives the higher player black: 78-37."""
    numbers, _ = read_capo_dorso_round_one()
    entrants = [Entrant(id=n, seed=n, rating=0) for n in numbers]
    ours = pair_swiss(entrants, [], 1, 9, absent={36})
    assert ours.boards[35] == (78, 37)
    assert ours.boards[34] == (35, 77)
    assert ours.bye == 84
    assert ours == by_the_rule([n for n in numbers if n != 36], white_first=True)


@needs_corpus
def test_capo_dorso_2012_round_one_as_paired_by_javafo():
    """The event's real round 1 (accelerated: nos. 1-43 with a virtual point, the file's XXA),
    every board and colour, including group B where the absentee above moves the colours."""
    numbers, round_one = read_capo_dorso_round_one()
    entrants = [Entrant(id=n, seed=n, rating=0) for n in numbers]
    rules = DirectorRules(accelerated=frozenset(range(1, 44)))
    ours = pair_swiss(entrants, [], 1, 9, absent={36}, rules=rules)
    played = {
        (n, opponent) if colour == "w" else (opponent, n)
        for n, (colour, opponent) in round_one.items()
        if opponent
    }
    assert set(ours.boards) == played
    assert (44, 64) in played  # 44 is the 43rd present: white, though an even number
    assert ours.bye == 84 and round_one[84] == ("-", 0)
