"""The importers stop reading at the first entrant, round or game past the limits they are
given, and at the byte cap: a file far past a limit costs no more than one at the limit.

Each "stops reading" case puts a line the parser would refuse after the point where the limit
is passed: the refusal names the limit, so the parser never reached that line.
"""

from __future__ import annotations

import pytest

from directors.importers import Limits, SeveralEventsError, TooLargeError, parse_file

SMALL = Limits(entrants=4, rounds=2, games=5, file_bytes=100_000)


def csv(*rows: str) -> bytes:
    return ("round,white,black,result\n" + "\n".join(rows) + "\n").encode()


def pgn(*games: tuple[str, str, str]) -> bytes:
    """Games of (round, white, black), each a white win, headers only."""
    return "".join(
        f'[Event "Open"]\n[Round "{r}"]\n[White "{w}"]\n[Black "{b}"]\n[Result "1-0"]\n\n1-0\n\n'
        for r, w, b in games
    ).encode()


def trf(*players: tuple[int, list[tuple[int, str, str]]]) -> bytes:
    """Player lines of (rank, [(opponent, colour, result) per round])."""
    lines = ["012 Open"]
    for rank, cells in players:
        line = f"001 {rank:>4}      {'Player ' + str(rank):<33} {1500:>4}".ljust(80)
        line += f"{0:>4.1f} {rank:>4}"
        lines.append(line.ljust(91) + "  ".join(f"{o:>4} {c} {r}" for o, c, r in cells))
    return ("\n".join(lines) + "\n").encode()


BROKEN_CSV_ROW = "x,Ann,Bob,1-0"  # a round that is not a number
BROKEN_PGN_GAME = b'[Event "Open"]\n[Round "1"]\n[White "Ann"]\n[Result "1-0"]\n\n1-0\n\n'


@pytest.mark.parametrize(
    ("data", "fmt", "what"),
    [
        # The 5th name, then a row that would be an error.
        (csv("1,A,B,1-0", "1,C,D,1-0", "2,A,E,1-0", BROKEN_CSV_ROW), "csv", "entrants"),
        (csv("1,A,B,1-0", "2,A,B,0-1", "3,A,B,1-0", BROKEN_CSV_ROW), "csv", "rounds"),
        # Entrants without a game (a name-only row, as our export writes them) count too.
        (csv("1,A,B,1-0", ",C,,", ",D,,", ",E,,", BROKEN_CSV_ROW), "csv", "entrants"),
        (
            csv("1,A,B,1-0", "1,C,D,1-0", "2,A,C,1-0", "2,B,D,1-0", "2,E,,bye", BROKEN_CSV_ROW),
            "csv",
            "entrants",
        ),
        (
            pgn(("1", "A", "B"), ("1", "C", "D"), ("2", "A", "E")) + BROKEN_PGN_GAME,
            "pgn",
            "entrants",
        ),
        (pgn(("1", "A", "B"), ("2", "A", "B"), ("3", "A", "B")) + BROKEN_PGN_GAME, "pgn", "rounds"),
    ],
)
def test_a_file_is_refused_at_the_first_item_past_a_limit_before_the_rest_is_read(data, fmt, what):
    with pytest.raises(TooLargeError) as caught:
        parse_file(data, fmt, limits=SMALL)
    assert caught.value.what == what


def test_the_games_limit_counts_games_and_byes_as_they_are_read():
    limits = Limits(entrants=100, rounds=100, games=3, file_bytes=100_000)
    rows = ["1,A,B,1-0", "1,C,,bye", "2,A,C,1-0", "2,B,,bye", BROKEN_CSV_ROW]
    with pytest.raises(TooLargeError) as caught:
        parse_file(csv(*rows), "csv", limits=limits)
    assert caught.value.what == "games"
    assert caught.value.message == (
        "These results have more than 3 games and byes; an event can have at most 3."
    )


def test_a_trf_file_past_the_games_limit_is_refused():
    limits = Limits(entrants=100, rounds=100, games=2, file_bytes=100_000)
    # Two games and a bye: within the entrants and rounds limits, past the games limit.
    data = trf(
        (1, [(2, "w", "1"), (0, "-", "F")]),
        (2, [(1, "b", "0"), (3, "w", "1")]),
        (3, [(0, "-", "-"), (2, "b", "0")]),
    )
    with pytest.raises(TooLargeError) as caught:
        parse_file(data, "trf", limits=limits)
    assert caught.value.what == "games"
    assert len(parse_file(data, "trf").games) == 3


def test_a_pgn_file_numbered_into_rounds_past_the_limit_is_refused():
    # No usable Round tag: the three games of A and B are numbered into three rounds.
    data = pgn(("?", "A", "B"), ("?", "A", "B"), ("?", "A", "B"))
    with pytest.raises(TooLargeError) as caught:
        parse_file(data, "pgn", limits=SMALL)
    assert caught.value.what == "rounds"
    assert parse_file(data, "pgn").rounds == 3


def test_a_pgn_file_stops_at_the_game_past_the_limit():
    limits = Limits(entrants=100, rounds=100, games=2, file_bytes=100_000)
    data = pgn(("1", "A", "B"), ("1", "C", "D"), ("2", "A", "C")) + BROKEN_PGN_GAME
    with pytest.raises(TooLargeError, match="more than 2 games and byes"):
        parse_file(data, "pgn", limits=limits)


def test_a_trf_file_stops_at_the_player_line_past_the_entrants_limit():
    limits = Limits(entrants=2, rounds=10, games=100, file_bytes=100_000)
    players = [(rank, [(rank + 1 if rank % 2 else rank - 1, "w", "1")]) for rank in (1, 2, 3)]
    data = trf(*players) + b"001 broken line\n"
    with pytest.raises(TooLargeError) as caught:
        parse_file(data, "trf", limits=limits)
    assert caught.value.message == (
        "These results have more than 2 entrants; an event can have at most 2."
    )


def test_a_trf_file_stops_at_the_player_line_with_a_round_past_the_limit():
    limits = Limits(entrants=10, rounds=2, games=100, file_bytes=100_000)
    data = trf((1, [(2, "w", "1"), (2, "b", "0"), (2, "w", "1")])) + b"001 broken line\n"
    with pytest.raises(TooLargeError) as caught:
        parse_file(data, "trf", limits=limits)
    assert caught.value.what == "rounds"


def test_a_trf_round_of_only_byes_does_not_count_against_the_rounds_limit():
    # Round 3 is a bye only: announced, not played, and not stored.
    limits = Limits(entrants=10, rounds=2, games=100, file_bytes=100_000)
    cells = [(2, "w", "1"), (2, "b", "0")]
    data = trf((1, [*cells, (0, "-", "F")]), (2, [(1, "b", "0"), (1, "w", "1")]))
    data = data.replace(b"   0 - F", b"0000 - F")
    assert parse_file(data, "trf", limits=limits).rounds == 2


def test_a_file_over_the_byte_cap_is_refused_unread():
    limits = Limits(entrants=100, rounds=100, games=100, file_bytes=20)
    with pytest.raises(TooLargeError) as caught:
        parse_file(b"\x00" * 21, "csv", limits=limits)  # NUL bytes: reading it would refuse it
    assert caught.value.what == "bytes"


@pytest.mark.parametrize("fmt", ["csv", "pgn"])
def test_a_file_at_the_limits_is_read_whole(fmt):
    limits = Limits(entrants=4, rounds=2, games=4, file_bytes=100_000)
    pairs = [("1", "A", "B"), ("1", "C", "D"), ("2", "A", "C"), ("2", "B", "D")]
    data = csv(*(f"{r},{w},{b},1-0" for r, w, b in pairs)) if fmt == "csv" else pgn(*pairs)
    event = parse_file(data, fmt, limits=limits)
    assert (len(event.players), event.rounds, len(event.games)) == (4, 2, 4)


def test_without_limits_a_parser_reads_everything():
    rows = [f"{r},A,B,1-0" for r in range(1, 40)]
    assert parse_file(csv(*rows), "csv").rounds == 39


def test_a_pgn_file_of_several_events_counts_each_event_apart():
    # Three entrants in each event, five in the file: still offered as a choice of events.
    limits = Limits(entrants=3, rounds=5, games=10, file_bytes=100_000)
    first = pgn(("1", "A", "B"), ("2", "A", "C"))
    second = pgn(("1", "D", "E"), ("2", "D", "A")).replace(b"Open", b"Blitz")
    event = parse_file(first + second, "pgn", event="Blitz", limits=limits)
    assert sorted(p.name for p in event.players) == ["A", "D", "E"]


def test_a_pgn_file_whose_tags_alone_pass_the_games_limit_is_refused_before_it_is_read():
    # The first game is broken: python-chess never read it, the tag lines were enough.
    limits = Limits(entrants=100, rounds=100, games=3, file_bytes=100_000)
    data = BROKEN_PGN_GAME + pgn(("1", "A", "B"), ("1", "C", "D"), ("2", "A", "C"))
    with pytest.raises(TooLargeError, match="more than 3 games and byes"):
        parse_file(data, "pgn", limits=limits)
    untagged = data.replace(b'[Event "Open"]\n', b"")
    with pytest.raises(TooLargeError, match="more than 3 games and byes"):
        parse_file(untagged, "pgn", limits=limits)


def test_the_first_count_of_a_pgn_file_counts_each_event_apart():
    limits = Limits(entrants=100, rounds=100, games=2, file_bytes=100_000)
    first = pgn(("1", "A", "B"), ("2", "A", "C"))
    second = pgn(("1", "D", "E"), ("2", "D", "F")).replace(b"Open", b"Blitz")
    with pytest.raises(SeveralEventsError):
        parse_file(first + second, "pgn", limits=limits)
    assert len(parse_file(first + second, "pgn", event="Blitz", limits=limits).games) == 2


@pytest.mark.parametrize("dummy", ["spielfrei", "Bye", "Freilos"])
def test_a_bye_dummy_is_no_entrant_while_the_file_is_read(dummy):
    """A field exactly at the entrants limit, plus the dummy a program writes for the bye."""
    limits = Limits(entrants=3, rounds=10, games=100, file_bytes=100_000)
    four = trf(
        (1, [(2, "w", "1")]), (2, [(1, "b", "0")]), (3, [(4, "w", "1")]), (4, [(3, "b", "0")])
    )
    with_dummy = four.replace(f"{'Player 4':<33}".encode(), f"{dummy:<33}".encode())
    read = parse_file(with_dummy, "trf", limits=limits)
    assert [p.name for p in read.players] == ["Player 1", "Player 2", "Player 3"]
    rows = ["1,A,B,1-0", f"1,C,{dummy},1-0"]
    assert len(parse_file(csv(*rows), "csv", limits=limits).players) == 3


def test_a_fourth_person_past_a_limit_of_three_is_still_refused_beside_a_dummy():
    limits = Limits(entrants=3, rounds=10, games=100, file_bytes=100_000)
    with pytest.raises(TooLargeError, match="entrants"):
        parse_file(csv("1,A,B,1-0", "1,C,spielfrei,1-0", "2,D,A,1-0"), "csv", limits=limits)


def test_untagged_games_numbered_past_the_rounds_limit_stop_at_the_first_one_past_it():
    # One game tagged round 1, then untagged games of the same two players: each would go into
    # a new round after the last. The numbering stops at the game that needs round 3 (the
    # limit is 2) instead of numbering all of them and counting afterwards.
    from directors.importers.pgn_rounds import Seat, number_rounds

    players = ((1, "A"), (2, "B"))
    seats = [Seat(1, "1", players)] + [Seat(line, "?", players) for line in range(2, 2000)]
    with pytest.raises(TooLargeError) as caught:
        number_rounds(seats, max_rounds=2)
    assert (caught.value.what, caught.value.limit) == ("rounds", 2)
    assert number_rounds(seats[:2], max_rounds=2).rounds == [1, 2]
    assert number_rounds(seats).rounds == list(range(1, 2000))  # no limit: every game numbered
    data = pgn(("1", "A", "B"), ("?", "A", "B"), ("?", "A", "B"))
    with pytest.raises(TooLargeError, match="more than 2 rounds"):
        parse_file(data, "pgn", limits=SMALL)
