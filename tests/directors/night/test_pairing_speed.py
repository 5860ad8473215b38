"""The fast paths of directors/night/pairing/swiss.py (issues 22 and 34) pair exactly as the plain
library: round 1 as the rules fix it, the validity and bracket graphs set up in batches. Each
check pairs the same round twice, once as the site does and once with py4swiss's own methods
put back and round 1 left to the engine, and compares the pairings (or the refusals).
Pure, no database.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from clubs.results import Result
from directors.night.pairing import (
    DirectorRules,
    Entrant,
    PairingImpossible,
    PastGame,
    RoundPairing,
    baku_group_size,
    max_swiss_rounds,
    pair_swiss,
    swiss,
)

CORPUS = next(
    (
        parent / "shared" / "trf-corpus"
        for parent in Path(__file__).resolve().parents
        if (parent / "shared" / "trf-corpus").is_dir()
    ),
    Path("/nonexistent"),
)

Outcome = RoundPairing | str  # a pairing, or the refusal's message
# Seconds a test (about 140 s in all on 2 cores): `make test` runs them, `make test-fast` does not.
pytestmark = pytest.mark.heavy


@pytest.fixture
def plain(monkeypatch) -> Callable[..., Outcome]:
    """pair_swiss with py4swiss as it comes: its own methods back, round 1 to the engine."""
    swiss._dutch_engine()  # adapts the library on first use
    assert swiss.LIBRARY_METHODS, "the engine was not adapted"

    def pair_plainly(*args, **kwargs) -> Outcome:
        with monkeypatch.context() as undo:
            for (cls, name), method in swiss.LIBRARY_METHODS.items():
                undo.setattr(cls, name, method)
            undo.setattr(swiss, "_round_one_fixed", lambda *a: None)
            return outcome(*args, **kwargs)

    return pair_plainly


def outcome(*args, **kwargs) -> Outcome:
    try:
        return pair_swiss(*args, **kwargs)
    except PairingImpossible as exc:
        return str(exc)


def test_the_engine_is_adapted_only_for_the_release_read(plain):
    """A new py4swiss may rename or change the private methods replaced: read them again
    (validity_matcher.py, bracket/bracket_matcher.py, bracket/bracket_pairer.py;
    directors/night/pairing/speed.py and homogeneous.py say what each replacement does) before
    moving the pin."""
    from importlib.metadata import version

    from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
    from py4swiss.engines.dutch.bracket.bracket_pairer import BracketPairer
    from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

    assert version("py4swiss") == swiss._WEIGHTS_READ_IN
    assert set(swiss.LIBRARY_METHODS) == {
        (ValidityMatcher, "_set_up_computer"),
        (ValidityMatcher, "is_allowed_pair"),
        (ValidityMatcher, "finalize_match"),
        (ValidityMatcher, "is_valid_matching"),
        (BracketMatcher, "_set_up_computer"),
        (BracketMatcher, "finalize_match"),
        (BracketMatcher, "add_to_weights"),
        (BracketMatcher, "remove_weights"),
        (BracketMatcher, "update_matching"),
        (BracketPairer, "determine_homogeneous_exchanges"),
        (BracketPairer, "transpose_homogeneous_s2"),
    }
    for (cls, name), library_method in swiss.LIBRARY_METHODS.items():
        assert getattr(cls, name) is not library_method
        assert library_method.__module__.startswith("py4swiss."), name


def random_result(rng: random.Random) -> Result:
    x = rng.random()
    if x < 0.36:
        return Result.WHITE_WIN
    if x < 0.6:
        return Result.DRAW
    if x < 0.9:
        return Result.BLACK_WIN
    return rng.choice(
        [Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT, Result.DRAW]
    )


def random_rules(rng: random.Random, entrants: list[Entrant], rnd: int) -> DirectorRules:
    ids = [e.id for e in sorted(entrants, key=lambda e: e.seed)]
    couples = frozenset(
        tuple(rng.sample(ids, 2)) for _ in range(rng.choice([0, 0, 1, 3, len(ids) // 4]))
    )
    accelerated = frozenset(ids[: baku_group_size(len(ids))]) if rng.random() < 0.3 else frozenset()
    return DirectorRules(
        never_pair=couples, white_first=rng.random() < 0.5, accelerated=accelerated
    )


def play_both_ways(seed: int, plain: Callable[..., Outcome], players: int | None = None) -> int:
    """Pair every round of one generated event both ways; returns the rounds compared."""
    rng = random.Random(seed)
    n = players or rng.randint(4, 48)
    entrants = [Entrant(id=1000 + 7 * s, seed=s, rating=2400 - s) for s in range(1, n + 1)]
    rng.shuffle(entrants)
    total = min(rng.randint(3, 9), max_swiss_rounds(n))
    history: list[PastGame] = []
    ids = [e.id for e in entrants]
    for rnd in range(1, total + 1):
        away = rng.sample(ids, rng.choice([0, 0, 1, 2, max(1, n // 8)]))
        absent = set(away[: n - 2])
        rules = random_rules(rng, entrants, rnd)
        ours = outcome(entrants, history, rnd, total, absent, rules=rules)
        assert ours == plain(entrants, history, rnd, total, absent, rules=rules), (seed, rnd)
        if isinstance(ours, str):
            return rnd
        history += [PastGame(rnd, w, b, random_result(rng)) for w, b in ours.boards]
        if ours.bye is not None:
            history.append(PastGame(rnd, ours.bye, None, Result.BYE_PAIRING, allocated=True))
        history += [PastGame(rnd, pid, None, Result.BYE_HALF) for pid in absent]
    return total


def test_generated_events_pair_alike_both_ways(plain):
    """Fields of 4-48, odd and even, with absentees, pairing-allocated byes, forfeits,
    never-pair couples, both first colours and the Baku acceleration, every round."""
    compared = sum(play_both_ways(seed, plain) for seed in range(120))
    assert compared >= 500


@pytest.mark.parametrize("players", [61, 100, 121])
def test_larger_opens_pair_alike_both_ways(plain, players):
    for seed in range(2):
        play_both_ways(10_000 + players + seed, plain, players)


def test_round_one_is_fixed_only_where_the_rules_fix_it(plain):
    """The short cut in directors/night/pairing/swiss.py leaves a round 1 to the engine when a
    never-pair couple sits on a board of the standard pairing or the acceleration splits the
    field; the engine then moves the couple apart, so the two differ."""
    entrants = [Entrant(id=s, seed=s, rating=0) for s in range(1, 11)]
    apart = DirectorRules(never_pair=frozenset({(1, 6)}))
    assert swiss._round_one_fixed(entrants, [], 1, set(), apart) is None
    assert (1, 6) not in pair_swiss(entrants, [], 1, 5, rules=apart).boards
    baku = DirectorRules(accelerated=frozenset(range(1, 7)))
    assert swiss._round_one_fixed(entrants, [], 1, set(), baku) is None
    assert pair_swiss(entrants, [], 1, 5, rules=baku) == plain(entrants, [], 1, 5, rules=baku)
    elsewhere = DirectorRules(never_pair=frozenset({(1, 2)}), white_first=False)
    fixed = swiss._round_one_fixed(entrants, [], 1, set(), elsewhere)
    assert fixed is not None
    assert fixed == plain(entrants, [], 1, 5, rules=elsewhere)


# --- the corpus's real events, round by round ----------------------------------------------

GAME = {
    "1": Result.WHITE_WIN,
    "=": Result.DRAW,
    "0": Result.BLACK_WIN,
    "W": Result.UNRATED_WHITE_WIN,
    "D": Result.UNRATED_DRAW,
    "L": Result.UNRATED_BLACK_WIN,
    "+": Result.WHITE_FORFEIT_WIN,
    "-": Result.BLACK_FORFEIT_WIN,
}
UNPAIRED = {"U": Result.BYE_PAIRING, "F": Result.BYE_FULL, "H": Result.BYE_HALF}


def read_trf(path: Path) -> tuple[list[Entrant], dict[int, list[PastGame]], int]:
    """Entrants by starting number and each round's games and byes, from the fixed columns
    (round r's cell from column 92 + 10(r-1): opponent, colour, result)."""
    cells: dict[int, list[str]] = {}
    # Read as bytes decoded loosely: one file is Latin-1, one has bare CR line ends.
    for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
        if line.startswith("001 "):
            body = line[91:]
            cells[int(line[4:8])] = [body[i : i + 8].ljust(8) for i in range(0, len(body), 10)]
    rounds = max(len(row) for row in cells.values())
    games: dict[int, list[PastGame]] = {r: [] for r in range(1, rounds + 1)}
    for number, row in cells.items():
        for rnd, cell in enumerate(row, start=1):
            opponent = int(cell[:4]) if cell[:4].strip().isdigit() else 0
            colour, token = cell[5], cell[7]
            if opponent in cells and opponent != number:
                if colour == "w" or (colour not in "wb" and number < opponent):
                    both_lost = token == "-" and cells[opponent][rnd - 1][7] == "-"
                    result = Result.DOUBLE_FORFEIT if both_lost else GAME.get(token)
                    if result is not None:
                        games[rnd].append(PastGame(rnd, number, opponent, result))
            elif token in UNPAIRED:
                games[rnd].append(
                    PastGame(rnd, number, None, UNPAIRED[token], allocated=token == "U")
                )
    entrants = [Entrant(id=n, seed=n, rating=0) for n in sorted(cells)]
    return entrants, games, rounds


CORPUS_FILES = sorted(
    str(path.relative_to(CORPUS)) for path in CORPUS.glob("**/*.trf") if CORPUS.is_dir()
)


@pytest.mark.skipif(not CORPUS_FILES, reason="no shared TRF corpus here")
@pytest.mark.parametrize("name", CORPUS_FILES)
def test_every_round_of_the_corpus_pairs_alike_both_ways(plain, name):
    """Each round of each real event paired from the rounds before it, with those who were
    not paired in it (absent, requested byes) left out; and the round after the file's last
    (or a last round given with byes only, the file being the input for pairing it), with
    its requested byes left out."""
    entrants, games, rounds = read_trf(CORPUS / name)
    total = min(rounds + 1, max_swiss_rounds(len(entrants)))
    history: list[PastGame] = []
    compared = 0
    for rnd in range(1, total + 1):
        played = games.get(rnd, [])
        paired = {
            pid
            for g in played
            if g.black is not None or g.allocated
            for pid in (g.white, g.black)
            if pid is not None
        }
        absent = {e.id for e in entrants} - paired if paired else {g.white for g in played}
        if len(entrants) - len(absent) >= 2:
            ours = outcome(entrants, history, rnd, total, absent)
            assert ours == plain(entrants, history, rnd, total, absent), (name, rnd)
            compared += 1
        if not paired:
            break
        history += played
    assert compared >= 1


def test_the_library_answers_whenever_no_quick_proof_is_found(plain, monkeypatch):
    """The question "can the round still be completed?" is answered yes by a perfect
    matching found in Python (witness.py), else by the library's own validity graph, told
    then of every pair chosen so far. Both paths pair as the library does, and a "no" (a
    bracket collapsed, a round refused) is reached only through the library."""
    from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

    from directors.night.pairing import speed

    answers: list[tuple[bool, bool]] = []  # (a quick proof found, the answer)
    ours = ValidityMatcher.is_valid_matching

    def recorded(matcher) -> bool:
        proof = speed.perfect_matching(
            matcher._len,
            matcher._club_pages_blocked,
            matcher._club_pages_forced,
            matcher._club_pages_witness,
        )
        answer = ours(matcher)
        answers.append((proof is not None, answer))
        return answer

    monkeypatch.setattr(ValidityMatcher, "is_valid_matching", recorded)
    assert sum(play_both_ways(seed, plain) for seed in range(60)) >= 250
    assert (True, True) in answers and (False, False) in answers
    assert (True, False) not in answers  # a proof found is never overruled
    # Never a quick proof: the library answers every time, from its graph brought up to date.
    answers.clear()
    monkeypatch.setattr(speed, "perfect_matching", lambda *args: None)
    assert sum(play_both_ways(seed, plain) for seed in range(60, 100)) >= 150
    assert {proof for proof, _ in answers} == {False}
    assert {answer for _, answer in answers} == {True, False}


# --- homogeneous.py: brackets paired with fewer questions to the C++ matching -------------


def count_ways(monkeypatch) -> Counter[str]:
    """Counts each way homogeneous.py takes: the first matching proven or asked, the lower
    bracket left out, D.2 redone as the library does it, the transpositions done by the
    library or here, each mate proven or asked."""
    from directors.night.pairing import homogeneous

    ways: Counter[str] = Counter()

    def counted(name: str, yes: str, no: str) -> None:
        function = getattr(homogeneous, name)

        def wrapper(*args):
            answer = function(*args)
            ways[no if answer is None or answer is False else yes] += 1
            return answer

        monkeypatch.setattr(homogeneous, name, wrapper)

    counted("_residents_paired", "first proven", "first asked")
    counted("_no_exchange", "no exchange", "redone as the library")
    counted("_reads_are_fixed", "transposed here", "transposed by the library")
    counted("_proven_mate", "mate proven", "mate asked")
    alone = homogeneous.ResidentsAlone.__init__

    def residents_alone(self, *args):
        ways["lower bracket out"] += 1
        alone(self, *args)

    monkeypatch.setattr(homogeneous.ResidentsAlone, "__init__", residents_alone)
    return ways


def test_every_way_of_the_homogeneous_short_cuts_pairs_alike(plain, monkeypatch):
    """Generated events take every way of homogeneous.py, each often, with the pairings of
    the plain library: the proofs and their fallbacks alike."""
    ways = count_ways(monkeypatch)
    assert sum(play_both_ways(seed, plain) for seed in range(200, 260)) >= 250
    play_both_ways(10_061, plain, 61)
    assert min(ways.values()) >= 20, ways
    assert len(ways) == 9, ways


def test_every_mate_asked_from_another_state_pairs_alike(plain, monkeypatch):
    """Point C.2 of homogeneous.py: every mate of the transpositions is the same in all
    maximum matchings, so the C++ code asked from a state unlike the library's (its first
    matching never computed, the lower bracket left out, questions skipped) answers alike.
    Here no mate is proven: every one is asked."""
    from directors.night.pairing import homogeneous

    ways = count_ways(monkeypatch)
    monkeypatch.setattr(homogeneous, "_proven_mate", lambda *args: None)
    assert sum(play_both_ways(seed, plain) for seed in range(300, 340)) >= 150
    for players in (100, 121):
        play_both_ways(20_000 + players, plain, players)
    assert ways["transposed here"] >= 100 and ways["lower bracket out"] >= 50, ways


@pytest.mark.skipif(not CORPUS_FILES, reason="no shared TRF corpus here")
@pytest.mark.parametrize("name", CORPUS_FILES)
def test_every_round_of_the_corpus_pairs_alike_with_every_mate_asked(plain, monkeypatch, name):
    from directors.night.pairing import homogeneous

    monkeypatch.setattr(homogeneous, "_proven_mate", lambda *args: None)
    test_every_round_of_the_corpus_pairs_alike_both_ways(plain, name)


def play_open(players: int, rounds: int, plain: Callable[..., Outcome] | None, seed: int) -> int:
    """A large open: round 1 paired as the site does (tested against the engine above on
    smaller fields: it takes the plain engine minutes at this size), then rounds 2.. `rounds`
    paired both ways when `plain` is given. Returns the boards of the last round."""
    rng = random.Random(seed)
    entrants = [Entrant(id=50_000 + s, seed=s, rating=2600 - s) for s in range(1, players + 1)]
    ids = [e.id for e in entrants]
    history: list[PastGame] = []
    boards = 0
    for rnd in range(1, rounds + 1):
        absent = set(rng.sample(ids, players // 50)) if rnd > 1 else set()
        ours = outcome(entrants, history, rnd, 9, absent)
        assert isinstance(ours, RoundPairing), ours
        if plain is not None and rnd > 1:
            assert ours == plain(entrants, history, rnd, 9, absent), (players, rnd)
        boards = len(ours.boards)
        history += [PastGame(rnd, w, b, random_result(rng)) for w, b in ours.boards]
        if ours.bye is not None:
            history.append(PastGame(rnd, ours.bye, None, Result.BYE_PAIRING, allocated=True))
        history += [PastGame(rnd, pid, None, Result.BYE_ZERO) for pid in absent]
    return boards


@pytest.mark.parametrize("players", [301, 400])
def test_rounds_two_and_three_of_a_big_open_pair_alike_both_ways(plain, players):
    assert play_open(players, 3, plain, seed=players) >= (players - players // 50) // 2 - 1


@pytest.mark.slow
@pytest.mark.parametrize("players", [1000, 1001])
def test_rounds_two_and_three_of_a_thousand_pair_alike_both_ways(plain, players):
    """The size of issue 34's goal (about a minute per field: the plain engine is slow)."""
    assert play_open(players, 3, plain, seed=players) >= 480
