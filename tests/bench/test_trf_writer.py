"""bench/kit/trf.py: the TRF-16 file bench/pairing.py hands bbpPairings says what pair_swiss
was told (issue 34). Read back through the project's own TRF importer it gives the same games,
byes and points, and the players to pair are numbered as pair_swiss numbers them."""

from __future__ import annotations

from bench.kit.trf import boards_differing, read_pairing, starting_numbers, write_trf
from clubs.results import RESULT_SCORES, Result
from directors.importers.trf import parse_trf
from directors.night.pairing.swiss import Entrant, PastGame

ENTRANTS = [Entrant(id=100 + s, seed=s, rating=2300 - 10 * s) for s in range(1, 9)]
UNRATED = Entrant(id=109, seed=9, rating=0)
HISTORY = [
    PastGame(1, 101, 105, Result.WHITE_WIN),
    PastGame(1, 106, 102, Result.DRAW),
    PastGame(1, 103, 107, Result.BLACK_FORFEIT_WIN),
    PastGame(1, 108, 104, Result.UNRATED_WHITE_WIN),
    PastGame(1, 109, None, Result.BYE_PAIRING, allocated=True),
    PastGame(2, 107, 101, Result.BLACK_WIN),
    PastGame(2, 102, 103, Result.UNRATED_DRAW),
    PastGame(2, 104, 109, Result.DOUBLE_FORFEIT),
    PastGame(2, 105, None, Result.BYE_HALF),
    PastGame(2, 106, None, Result.BYE_FULL),
    # 108 has no entry in round 2: an absence, written as a zero-point bye.
]


def test_the_file_reads_back_as_the_same_games() -> None:
    trf = write_trf([*ENTRANTS, UNRATED], HISTORY, 3, 5, absent={104})
    event = parse_trf(trf.text.encode())

    read = {
        (g.round, trf.player_of[g.white], g.black and trf.player_of[g.black], g.result)
        for g in event.games
    }
    assert read == {(g.round, g.white, g.black, g.result) for g in HISTORY} | {
        (2, 108, None, Result.BYE_ZERO)
    }
    points = {trf.player_of[p.key]: p.declared_points for p in event.players}
    for pid in points:
        won = sum(
            RESULT_SCORES[g.result][0 if g.white == pid else 1]
            for g in HISTORY
            if pid in (g.white, g.black)
        )
        assert points[pid] == won
    ratings = {trf.player_of[p.key]: p.rating for p in event.players}
    assert ratings[101] == 2290 and ratings[109] is None


def test_the_round_to_pair_and_the_engine_settings() -> None:
    trf = write_trf(ENTRANTS, HISTORY[:4], 2, 5, absent={104}, white_first=False)
    lines = trf.text.splitlines()
    absentee = next(line for line in lines if line[4:8] == f"{trf.number[104]:4d}")
    # The round being paired holds a zero-point bye for the absentee, nothing for the others.
    assert absentee[91:].split("  ")[-1].strip() == "0000 - Z"
    present = next(line for line in lines if line[4:8] == f"{trf.number[101]:4d}")
    assert len(present.rstrip()) == 99  # one round cell: round 1's
    assert "XXR 5" in lines and "XXC black1" in lines
    assert not any(line.startswith("BBU") for line in lines)


def test_a_pairing_allocated_bye_worth_half_a_point_is_declared() -> None:
    history = [
        PastGame(1, 101, 102, Result.WHITE_WIN),
        PastGame(1, 103, None, Result.BYE_PAIRING_HALF, allocated=True),
    ]
    trf = write_trf(ENTRANTS[:3], history, 2, 3)
    assert "BBU  0.5" in trf.text.splitlines()
    points = {trf.player_of[p.key]: p.declared_points for p in parse_trf(trf.text.encode()).players}
    assert points[103] == 0.5


def test_numbering_follows_pair_swiss() -> None:
    # 104 is absent and was never in a pairing: numbered after the others, as pair_swiss does.
    numbers = starting_numbers(ENTRANTS, [PastGame(1, 101, 102, Result.DRAW)], absent={104})
    assert [pid for pid, _ in sorted(numbers.items(), key=lambda item: item[1])] == [
        *(101, 102, 103, 105, 106, 107, 108, 104),
    ]


def test_reading_bbppairings_answer() -> None:
    player_of = {1: 101, 2: 102, 3: 103}
    boards, bye = read_pairing("2\n2 1\n3 0\n", player_of)
    assert boards == [(102, 101)] and bye == 103
    assert boards_differing([(102, 101)], boards) == 0
    assert boards_differing([(101, 102)], boards) == 1  # the colours count
