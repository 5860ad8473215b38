"""directors/night/pairing/: FIDE Dutch Swiss rounds and Berger round robins, without a database.

The Swiss checks replay a few hundred seeded random events and judge every round with a
checker written here from the FIDE rules (C.04.1, C.04.3 till 2026), independent of the
library that pairs: it only reads the history and the pairing. A second, independent Dutch
engine (caissify-pairings, pure Python) pairs a subset of the same rounds for comparison.
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from dataclasses import dataclass, field

import networkx as nx
import pytest

from clubs.results import RESULT_SCORES, Result
from directors.night.pairing import (
    Entrant,
    PairingImpossible,
    PastGame,
    RoundPairing,
    max_swiss_rounds,
    pair_swiss,
    round_robin,
)

PLAYED = {
    Result.WHITE_WIN,
    Result.DRAW,
    Result.BLACK_WIN,
    Result.UNRATED_WHITE_WIN,
    Result.UNRATED_DRAW,
    Result.UNRATED_BLACK_WIN,
}


# --- the independent checker ------------------------------------------------------------


@dataclass
class Record:
    """What the rules need to know of one player, read from the history alone."""

    score: float = 0.0
    colours: list[str] = field(default_factory=list)  # "W"/"B" of games played over the board
    opponents: set[int] = field(default_factory=set)  # played over the board
    pairing_byes: int = 0
    forfeit_wins: int = 0


def records(ids, history):
    recs = {pid: Record() for pid in ids}
    for g in history:
        white_points, black_points = RESULT_SCORES[g.result]
        recs[g.white].score += white_points
        if g.black is None:
            recs[g.white].pairing_byes += g.result == Result.BYE_PAIRING
            continue
        recs[g.black].score += black_points
        if g.result in PLAYED:
            recs[g.white].colours.append("W")
            recs[g.black].colours.append("B")
            recs[g.white].opponents.add(g.black)
            recs[g.black].opponents.add(g.white)
        recs[g.white].forfeit_wins += g.result == Result.WHITE_FORFEIT_WIN
        recs[g.black].forfeit_wins += g.result == Result.BLACK_FORFEIT_WIN
    return recs


def colours_legal(colours):
    """C.04.1.f/g: colour difference within +-2, never three of one colour in a row."""
    diff = colours.count("W") - colours.count("B")
    return abs(diff) <= 2 and not any(
        colours[i] == colours[i + 1] == colours[i + 2] for i in range(len(colours) - 2)
    )


def must_get(colours):
    """The colour a player must have next to stay legal (A.6.a absolute preference)."""
    diff = colours.count("W") - colours.count("B")
    if diff >= 2:
        return "B"
    if diff <= -2:
        return "W"
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return "B" if colours[-1] == "W" else "W"
    return None


class Rules:
    """The absolute criteria for one round: who may meet, who may take the bye."""

    def __init__(self, recs, round_number, total_rounds):
        self.recs = recs
        self.last_round = round_number == total_rounds
        # A.7: topscorers have more than 50% of the maximum possible score when the final
        # round is paired; only they (and their opponents) may break the colour limits.
        self.top = {
            pid for pid, r in recs.items() if self.last_round and r.score > (round_number - 1) / 2
        }

    def may_meet(self, a, b):
        if b in self.recs[a].opponents:
            return False
        need_a, need_b = must_get(self.recs[a].colours), must_get(self.recs[b].colours)
        clash = need_a is not None and need_a == need_b
        return not clash or a in self.top or b in self.top

    def may_take_bye(self, pid):
        return self.recs[pid].pairing_byes == 0 and self.recs[pid].forfeit_wins == 0

    def completable_without_bye(self, players):
        return len(players) % 2 == 0 and self.completable(players)

    def completable(self, players):
        """Can all of `players` be paired (one eligible player taking the bye if odd)?"""
        graph = nx.Graph()
        graph.add_nodes_from(players)
        players = sorted(players)
        graph.add_edges_from(
            (a, b) for i, a in enumerate(players) for b in players[i + 1 :] if self.may_meet(a, b)
        )
        if len(players) % 2:
            graph.add_edges_from(("bye", p) for p in players if self.may_take_bye(p))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        return 2 * len(matching) == graph.number_of_nodes()


def check_round(entrants, history, round_number, total_rounds, absent, pairing: RoundPairing):
    ids = [e.id for e in entrants]
    recs = records(ids, history)
    rules = Rules(recs, round_number, total_rounds)
    present = [pid for pid in ids if pid not in absent]
    seated = [pid for board in pairing.boards for pid in board]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    # Every present player is paired exactly once or is the bye; nobody absent is paired.
    assert sorted(seated) == sorted(present)
    assert (pairing.bye is not None) == (len(present) % 2 == 1)
    for white, black in pairing.boards:
        # C.04.1.b: no two players meet twice (a forfeit is no game:
        # directors/night/pairing/swiss.py).
        assert black not in recs[white].opponents, (white, black)
        for pid, colour, opponent in ((white, "W", black), (black, "B", white)):
            if not colours_legal([*recs[pid].colours, colour]):
                # C.04.3 A.7/C.3: only in the last round, and only where a topscorer plays.
                assert rules.last_round and {pid, opponent} & rules.top, (pid, recs[pid].colours)
    if pairing.bye is not None:
        # C.04.1.d: no second pairing-allocated bye, none after a forfeit win.
        assert rules.may_take_bye(pairing.bye)
        # The bye belongs to the last bracket, the lowest score group with the players moved
        # down into it. FIDE pairs those moved-down players first, so the bye may go above
        # the lowest score: with 0.5, 0.5 and 0 in the last bracket and the two 0.5s having
        # met, one 0.5 has the bye. What C.04.3 does guarantee (C.6, the bracket's score
        # differences are minimised): an eligible player of the lowest score who plays X
        # would have had the bye instead, with the bye's player taking X, were that legal.
        bye_score = recs[pairing.bye].score
        lowest = min(recs[pid].score for pid in present)
        opponent = {a: b for a, b in pairing.boards} | {b: a for a, b in pairing.boards}
        for pid in present:
            if lowest == recs[pid].score < bye_score and rules.may_take_bye(pid):
                assert not rules.may_meet(pairing.bye, opponent[pid]), (pid, pairing.bye)
    # Score groups (C.04.3 C.4/C.5, bracket by bracket from the top): when the leaders can
    # all be paired among themselves and everyone else can still be paired, no leader
    # floats down.
    top_score = max(recs[pid].score for pid in present)
    leaders = [pid for pid in present if recs[pid].score == top_score]
    others = [pid for pid in present if recs[pid].score != top_score]
    if (
        len(leaders) % 2 == 0
        and rules.completable_without_bye(leaders)
        and rules.completable(others)
    ):
        for white, black in pairing.boards:
            assert (white in leaders) == (black in leaders), (white, black, leaders)
    return rules


# --- a random club night ------------------------------------------------------------------


def random_result(rng):
    x = rng.random()
    if x < 0.38:
        return Result.WHITE_WIN
    if x < 0.62:
        return Result.DRAW
    if x < 0.93:
        return Result.BLACK_WIN
    if x < 0.95:
        return rng.choice([Result.UNRATED_WHITE_WIN, Result.UNRATED_DRAW])
    return rng.choice([Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT])


def random_event(seed):
    """Entrants with ids unrelated to their seeds, and a number of rounds that fits."""
    rng = random.Random(seed)
    n = rng.randint(5, 40)
    ids = rng.sample(range(100, 1000), n)
    entrants = [Entrant(id=pid, seed=s, rating=2400 - 20 * s) for s, pid in enumerate(ids, 1)]
    rng.shuffle(entrants)
    total = min(rng.randint(3, 9), max_swiss_rounds(n))
    return rng, entrants, total


def play_event(seed, stats, on_round=None):
    """Pair and play every round of one random event, checking each round."""
    rng, entrants, total = random_event(seed)
    ids = [e.id for e in entrants]
    history: list[PastGame] = []
    withdrawn: set[int] = set()
    for rnd in range(1, total + 1):
        if rnd > 1 and rng.random() < 0.25:
            withdrawn.add(rng.choice(ids))
        requested = set()
        if rnd > 1 and rng.random() < 0.35:
            requested = {rng.choice(ids) for _ in range(rng.randint(1, 2))} - withdrawn
        absent = withdrawn | requested
        present = [pid for pid in ids if pid not in absent]
        if len(present) < 2:
            with pytest.raises(PairingImpossible):
                pair_swiss(entrants, history, rnd, total, absent)
            return
        try:
            pairing = pair_swiss(entrants, history, rnd, total, absent)
        except PairingImpossible:
            # Confirm independently that no legal pairing of this round exists.
            rules = Rules(records(ids, history), rnd, total)
            assert not rules.completable(present), (seed, rnd)
            stats["impossible"] += 1
            return
        check_round(entrants, history, rnd, total, absent, pairing)
        stats["rounds"] += 1
        if on_round:
            on_round(entrants, history, rnd, total, absent, pairing)
        for white, black in pairing.boards:
            result = random_result(rng)
            stats["forfeits"] += result.is_forfeit
            history.append(PastGame(rnd, white, black, result))
        if pairing.bye is not None:
            history.append(PastGame(rnd, pairing.bye, None, Result.BYE_PAIRING))
        history.extend(PastGame(rnd, pid, None, Result.BYE_HALF) for pid in requested)


@pytest.mark.heavy
def test_generated_swiss_rounds_keep_the_fide_absolute_criteria():
    stats = Counter()
    seed = 0
    while stats["rounds"] < 500:
        play_event(seed, stats)
        seed += 1
    assert stats["rounds"] >= 500
    assert stats["forfeits"] > 0  # forfeited pairs were offered for re-pairing


# --- a second implementation ------------------------------------------------------------


def caissify_pairing(entrants, history, rnd, total, absent):
    """The same round paired by caissify-pairings' Dutch engine, fed from the history the way
    its README asks (played colours, floats per round, byes, forfeit wins)."""
    from caissify_pairings import generate_pairings

    seed_of = {e.id: e.seed for e in entrants}
    ids = [e.id for e in entrants]
    score_after = {0: dict.fromkeys(ids, 0.0)}
    for r in range(1, rnd):
        recs = records(ids, [g for g in history if g.round <= r])
        score_after[r] = {pid: recs[pid].score for pid in ids}
    recs = records(ids, history)
    players = []
    for pid in ids:
        if pid in absent:
            continue
        floats = []
        for r in range(1, rnd):
            game = next((g for g in history if g.round == r and pid in (g.white, g.black)), None)
            if game is None or game.black is None or game.result not in PLAYED:
                floats.append("down")  # A.4.b: not playing is a downfloat
                continue
            other = game.black if game.white == pid else game.white
            mine, theirs = score_after[r - 1][pid], score_after[r - 1][other]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        players.append(
            {
                "id": pid,
                "name": str(pid),
                "score": recs[pid].score,
                "rating": 3000 - seed_of[pid],
                "starting_number": seed_of[pid],
                "pairing_number": seed_of[pid],
                "color_hist": ["white" if c == "W" else "black" for c in recs[pid].colours],
                "float_history": floats,
                "bye_count": recs[pid].pairing_byes,
                "forfeit_win_count": recs[pid].forfeit_wins,
            }
        )
    met = {(min(a, b), max(a, b)) for a in ids for b in recs[a].opponents}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rows = generate_pairings(
            system="dutch",
            players=players,
            previous_pairings=met,
            round_number=rnd,
            total_rounds=total,
        )
    boards = tuple((r["white_id"], r["black_id"]) for r in rows if r.get("black_id") is not None)
    byes = [r["white_id"] for r in rows if r.get("black_id") is None]
    return RoundPairing(boards=boards, bye=byes[0] if byes else None)


@pytest.mark.heavy
def test_a_second_dutch_engine_agrees_on_most_rounds():
    """caissify-pairings states 0 discrepancies with bbpPairings up to 20 players; we compare
    who meets whom (and the bye) on events of at most 20.

    Counted discrepancies, explained: (1) colours only: caissify ranks a pair's two players by
    pairing number when granting colour preferences, where C.04.3 E.4 (with A.2) ranks by
    score first; colours are therefore left out of the comparison. (2) Different pairs in a
    few percent of rounds, mostly after forfeits and absences, where the two engines
    disagree on floats for unplayed rounds; both pairings pass the checker above.
    With the pinned versions: 128 of 134 rounds meet alike, 109 of them with the same colours.
    """
    stats = Counter()

    def compare(entrants, history, rnd, total, absent, ours):
        theirs = caissify_pairing(entrants, history, rnd, total, absent)
        same = {frozenset(b) for b in ours.boards} == {frozenset(b) for b in theirs.boards}
        stats["same" if same and ours.bye == theirs.bye else "different"] += 1
        if rnd == 1:  # round 1 is fixed by the rules: top half against bottom half
            assert same and ours.bye == theirs.bye

    seed, events = 1000, 0
    while events < 25:
        _, entrants, _ = random_event(seed)
        if len(entrants) <= 20:
            play_event(seed, Counter(), on_round=compare)
            events += 1
        seed += 1
    total = stats["same"] + stats["different"]
    assert total >= 100
    assert stats["same"] / total >= 0.9, stats


# --- py4swiss as directors/night/pairing/swiss.py calls it ----------------------------------------


@pytest.fixture
def library_weights(monkeypatch):
    """Pair with py4swiss as it comes (its own methods, round 1 by the engine), as before
    issue 22 (tests/directors/night/test_pairing_speed.py holds the other checks)."""
    from directors.night.pairing import swiss

    swiss._dutch_engine()  # directors/night/pairing/swiss.py adapts py4swiss on first use
    assert swiss.LIBRARY_METHODS, "the engine was not adapted"

    def pair_plainly(*args):
        with monkeypatch.context() as plain:
            for (cls, name), method in swiss.LIBRARY_METHODS.items():
                plain.setattr(cls, name, method)
            plain.setattr(swiss, "_round_one_fixed", lambda *a: None)
            return pair_swiss(*args)

    return pair_plainly


@pytest.mark.heavy
def test_remembered_pair_weights_give_the_library_s_own_pairings(library_weights):
    """The 500-round check again, each round also paired by py4swiss's own weights."""
    stats = Counter()

    def compare(entrants, history, rnd, total, absent, ours):
        assert library_weights(entrants, history, rnd, total, absent) == ours, (rnd, total)
        stats["compared"] += 1

    seed = 0
    while stats["compared"] < 500:
        play_event(seed, Counter(), on_round=compare)
        seed += 1


@pytest.mark.heavy
def test_remembered_pair_weights_give_the_library_s_own_pairings_in_a_large_open(
    library_weights,
):
    """150 players, 5 rounds: score groups of dozens, MDPs, absentees, forfeits, a bye."""
    rng = random.Random(22)
    entrants = [Entrant(id=5000 + s, seed=s, rating=2500 - s) for s in range(1, 152)]
    history: list[PastGame] = []
    for rnd in range(1, 6):
        absent = set(rng.sample([e.id for e in entrants], 4)) if rnd > 1 else set()
        ours = pair_swiss(entrants, history, rnd, 9, absent)
        assert library_weights(entrants, history, rnd, 9, absent) == ours, rnd
        history += [PastGame(rnd, w, b, random_result(rng)) for w, b in ours.boards]
        if ours.bye is not None:
            history.append(PastGame(rnd, ours.bye, None, Result.BYE_PAIRING))
        history += [PastGame(rnd, pid, None, Result.BYE_ZERO) for pid in absent]


def test_py4swiss_is_the_release_whose_pair_weights_were_read():
    from importlib.metadata import version

    from directors.night.pairing.swiss import _WEIGHTS_READ_IN

    # Another release pairs correctly but slowly (directors/night/pairing/swiss.py leaves it as it
    # comes). Read the methods directors/night/pairing/speed.py replaces, and the quality criteria,
    # again before moving the pin.
    assert version("py4swiss") == _WEIGHTS_READ_IN


# --- small cases by hand ------------------------------------------------------------------


def four(rating_start=2000):
    return [Entrant(id=10 * s, seed=s, rating=rating_start - s) for s in range(1, 5)]


def test_round_one_is_top_half_against_bottom_half_with_seed_one_white():
    entrants = [Entrant(id=100 + s, seed=s, rating=0) for s in range(1, 8)]
    pairing = pair_swiss(entrants, [], 1, 5)
    # C.04.3: S1 = seeds 1-3 against S2 = seeds 4-6, colours alternating; 7 has the bye.
    assert pairing == RoundPairing(boards=((101, 104), (105, 102), (103, 106)), bye=107)


def test_same_input_gives_the_same_pairing_whatever_the_order():
    rng, entrants, total = random_event(7)
    history: list[PastGame] = []
    for rnd in range(1, 4):
        pairing = pair_swiss(entrants, history, rnd, total)
        history += [PastGame(rnd, w, b, random_result(rng)) for w, b in pairing.boards]
        if pairing.bye:
            history.append(PastGame(rnd, pairing.bye, None, Result.BYE_PAIRING))
    absent = [entrants[0].id, entrants[3].id]
    first = pair_swiss(entrants, history, 4, total, absent)
    assert pair_swiss(entrants, history, 4, total, absent) == first
    shuffled = random.Random(1)
    for _ in range(5):
        e, h, a = list(entrants), list(history), list(absent)
        shuffled.shuffle(e)
        shuffled.shuffle(h)
        shuffled.shuffle(a)
        assert pair_swiss(e, h, 4, total, set(a)) == first


def test_players_who_met_by_forfeit_may_be_paired_again():
    entrants = four()
    history = [
        PastGame(1, 10, 30, Result.WHITE_FORFEIT_WIN),
        PastGame(1, 40, 20, Result.DRAW),
    ]
    # Only 10 and 30 are left in round 2; their forfeit was not a game, so they may meet.
    pairing = pair_swiss(entrants, history, 2, 3, absent={20, 40})
    assert {frozenset(b) for b in pairing.boards} == {frozenset({10, 30})}
    history[0] = PastGame(1, 10, 30, Result.WHITE_WIN)
    with pytest.raises(PairingImpossible):
        pair_swiss(entrants, history, 2, 3, absent={20, 40})


def test_a_requested_bye_does_not_stop_a_pairing_allocated_bye():
    entrants = [Entrant(id=s, seed=s, rating=0) for s in range(1, 6)]
    history = [
        PastGame(1, 1, 3, Result.DRAW),
        PastGame(1, 4, 2, Result.DRAW),
        PastGame(1, 5, None, Result.BYE_ZERO),
    ]
    # 5 asked for a zero-point bye in round 1 and is alone on the lowest score: the round-2
    # pairing-allocated bye is his. (With a half-point bye he would tie with everyone, and the
    # Dutch would spare him a second downfloat in a row: C.04.3 A.4.b.)
    assert pair_swiss(entrants, history, 2, 3).bye == 5


def test_fewer_than_two_present_players_cannot_be_paired():
    with pytest.raises(PairingImpossible, match="fewer than two"):
        pair_swiss(four(), [], 1, 3, absent={10, 20, 30})


def test_a_swiss_with_more_rounds_than_possible_is_refused():
    with pytest.raises(PairingImpossible, match="at most 3 rounds"):
        pair_swiss(four(), [], 1, 4)


def test_a_round_where_everyone_left_has_met_cannot_be_paired():
    history = [PastGame(1, 10, 20, Result.WHITE_WIN), PastGame(1, 30, 40, Result.DRAW)]
    with pytest.raises(PairingImpossible, match="repeat a game"):
        pair_swiss(four(), history, 2, 3, absent={30, 40})


def test_history_of_the_round_being_paired_is_refused():
    with pytest.raises(ValueError, match="round 2"):
        pair_swiss(four(), [PastGame(2, 10, 20, Result.DRAW)], 2, 3)


# --- round robin --------------------------------------------------------------------------

# FIDE C.05 Annex 1, the Berger tables, as published (white-black, board 1 first).
BERGER_4 = ["1-4 2-3", "4-3 1-2", "2-4 3-1"]
BERGER_6 = [
    "1-6 2-5 3-4",
    "6-4 5-3 1-2",
    "2-6 3-1 4-5",
    "6-5 1-4 2-3",
    "3-6 4-2 5-1",
]


def table(rounds):
    return [" ".join(f"{w}-{b}" for w, b in r.boards) for r in rounds]


def test_round_robin_of_four_and_six_follows_the_berger_tables():
    assert table(round_robin([1, 2, 3, 4])) == BERGER_4
    assert table(round_robin([1, 2, 3, 4, 5, 6])) == BERGER_6


def test_odd_round_robin_gives_the_dummy_s_opponent_the_bye():
    # Five players play the table of six; whoever meets number 6 has the bye.
    rounds = round_robin([1, 2, 3, 4, 5])
    expected = [" ".join(p for p in r.split() if "6" not in p) for r in BERGER_6]
    assert table(rounds) == expected
    assert [r.bye for r in rounds] == [1, 4, 2, 5, 3]


def test_round_robin_maps_seed_positions_to_ids():
    rounds = round_robin([70, 50, 90, 10])
    assert rounds[0].boards == ((70, 10), (50, 90))


def test_double_round_robin_repeats_the_table_with_colours_reversed():
    single = round_robin([1, 2, 3, 4, 5, 6])
    double = round_robin([1, 2, 3, 4, 5, 6], double=True)
    assert double[:5] == single
    assert table(double[5:]) == [
        " ".join("-".join(reversed(p.split("-"))) for p in r.split()) for r in BERGER_6
    ]


@pytest.mark.parametrize("n", range(3, 17))
@pytest.mark.parametrize("double", [False, True])
def test_every_pair_meets_once_per_cycle(n, double):
    ids = [100 + i for i in range(n)]
    rounds = round_robin(ids, double=double)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(rounds) == per_cycle * (2 if double else 1)
    for cycle in range(2 if double else 1):
        part = rounds[cycle * per_cycle : (cycle + 1) * per_cycle]
        met = Counter(frozenset(b) for r in part for b in r.boards)
        assert set(met.values()) == {1}
        assert len(met) == n * (n - 1) // 2
        for r in part:
            seated = [p for b in r.boards for p in b] + ([r.bye] if r.bye is not None else [])
            assert sorted(seated) == ids
        # An odd field: everyone has the bye exactly once per cycle.
        if n % 2:
            assert sorted(r.bye for r in part) == ids
    if double:
        first = {b for r in rounds[:per_cycle] for b in r.boards}
        assert {(b, w) for r in rounds[per_cycle:] for w, b in r.boards} == first


def test_berger_tables_agree_with_a_second_implementation():
    from caissify_pairings.engines.round_robin import berger_round

    for n in range(4, 17, 2):
        ours = [list(r.boards) for r in round_robin(list(range(1, n + 1)))]
        assert ours == [berger_round(n, r) for r in range(1, n)]


def test_round_robin_needs_two_players():
    with pytest.raises(PairingImpossible):
        round_robin([1])
