"""PGN files whose Round tags other programs write: matches' round.game, a lost round, an
engine match tagged round 1 throughout (issue 23, part 6)."""

from dataclasses import replace

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, ImportFileError, parse_file
from tests.corpus import TRF_CORPUS

from .test_pgn import games_of, parse_pgn, pgn_game

CORPUS = TRF_CORPUS
CAPO_DORSO = CORPUS / "open_capo_dorso_2012_accelerated.trf"
PGN_RESULTS = {
    Result.WHITE_WIN: "1-0",
    Result.BLACK_WIN: "0-1",
    Result.DRAW: "1/2-1/2",
    Result.WHITE_FORFEIT_WIN: "+/-",
    Result.BLACK_FORFEIT_WIN: "-/+",
    Result.DOUBLE_FORFEIT: "-/-",
}


def test_a_knockouts_match_games_are_games_of_their_round():
    event = parse_pgn(
        pgn_game(Round="1.1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Round="1.1", White="Cid", Black="Dan", Result="1/2-1/2"),
        pgn_game(Round="1.2", White="Bob", Black="Ann", Result="1/2-1/2"),
        pgn_game(Round="1.2", White="Dan", Black="Cid", Result="1-0"),
        *(pgn_game(Round=f"4.{n}", White="Ann", Black="Dan", Result="1-0") for n in range(1, 21)),
        pgn_game(Round="1.11", White="Cid", Black="Dan", Result="0-1"),
    )
    rounds = [game.round for game in event.games]
    assert rounds == [1] * 5 + [4] * 20
    assert event.rounds == 2
    assert event.rounds_from_order is False
    assert event.warnings == ()


def test_a_swiss_rounds_boards_and_plain_rounds_mix():
    event = parse_pgn(
        pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Round="4.1", White="Ann", Black="Cid", Result="1-0"),
        pgn_game(Round="4.20", White="Bob", Black="Dan", Result="0-1"),
    )
    assert [(game.round, game.white, game.black) for game in event.games] == [
        (1, 1, 2),
        (4, 1, 3),
        (4, 2, 4),
    ]


def test_an_engine_match_tagged_round_1_throughout_is_numbered_in_file_order():
    event = parse_pgn(
        *(
            pgn_game(Round="1", White=white, Black=black, Result="1/2-1/2")
            for white, black in [("Stockfish", "Leela")] * 3 + [("Leela", "Stockfish")] * 3
        )
    )
    assert [game.round for game in event.games] == [1, 2, 3, 4, 5, 6]
    assert event.rounds == 6
    assert event.rounds_from_order is True
    assert event.warnings == (
        "Line 1: every game of the file is tagged round 1, but Stockfish plays again on line 8 "
        "(as in an engine match): the games were numbered into 6 rounds in file order, a new "
        "round starting whenever a player would play twice in one. Change a game's round in "
        "the results grid if the event went otherwise.",
    )


def test_a_one_round_file_where_nobody_plays_twice_keeps_its_round():
    event = parse_pgn(
        pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Round="1", White="Cid", Black="Dan", Result="1-0"),
    )
    assert [game.round for game in event.games] == [1, 1]
    assert event.rounds_from_order is False
    assert event.warnings == ()


# --- one game whose round is lost, among numbered ones --------------------------------------


def as_pgn(event: ImportedEvent, lost: set[int] = frozenset()) -> str:
    """The event's games as a PGN file in round order, the games at `lost` with Round "?"."""
    names = {player.key: player.name for player in event.players}
    games = []
    for index, game in enumerate(event.games):
        result = game.result
        if game.black is None:
            black, result = "BYE", Result.WHITE_WIN if result.scores[0] == 1 else Result.DRAW
        else:
            black = names[game.black]
        games.append(
            pgn_game(
                Event="Capo d'Orso",
                Round="?" if index in lost else str(game.round),
                White=names[game.white],
                Black=black,
                Result=PGN_RESULTS.get(result, "*"),
            )
        )
    return "\n".join(games)


@pytest.fixture(scope="module")
def capo_dorso() -> ImportedEvent:
    if not CAPO_DORSO.exists():
        pytest.skip("the shared TRF corpus is not here")
    event = parse_file(CAPO_DORSO.read_bytes(), "trf")
    # Byes other than full and half points have no PGN form: keep games and those byes.
    kept = tuple(
        game
        for game in event.games
        if game.black is not None or game.result in (Result.BYE_FULL, Result.BYE_HALF)
    )

    return replace(event, games=kept)


def test_the_capo_dorso_games_read_back_from_pgn_in_their_rounds(capo_dorso):
    read = parse_file(as_pgn(capo_dorso).encode(), "pgn")
    assert len(read.games) > 340
    assert sorted(game.round for game in read.games) == sorted(
        game.round for game in capo_dorso.games
    )


@pytest.mark.parametrize("where", ["middle", "first of a round"])
def test_a_game_whose_round_is_unknown_goes_into_the_round_it_fits_in_file_order(capo_dorso, where):
    games = capo_dorso.games
    starts = [i for i in range(1, len(games)) if games[i].round != games[i - 1].round]
    index = starts[3] + 5 if where == "middle" else starts[3]
    text = as_pgn(capo_dorso, lost={index})
    read = parse_file(text.encode(), "pgn")
    line = 1 + sum(game.count("\n") + 1 for game in text.split("\n[Event")[:index])
    assert [game.round for game in read.games if game.line == line] == [games[index].round]
    assert sorted(game.round for game in read.games) == sorted(game.round for game in games)
    assert read.warnings == (
        f"Line {line}: this game's Round tag is '?', so it was put in round "
        f"{games[index].round}: the round of the games around it in the file, where neither "
        "player has a game. Change its round in the results grid if it was played in another.",
    )
    assert read.rounds_from_order is False


def test_a_game_without_a_round_whose_players_are_busy_around_it_gets_a_new_round():
    event = parse_pgn(
        pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Round="2", White="Bob", Black="Ann", Result="1-0"),
        pgn_game(White="Ann", Black="Bob", Result="1/2-1/2"),
        pgn_game(Round="?", White="Bob", Black="Ann", Result="0-1"),
    )
    assert games_of(event) == [
        (1, 1, 2, Result.WHITE_WIN),
        (2, 2, 1, Result.WHITE_WIN),
        (3, 1, 2, Result.DRAW),
        (4, 2, 1, Result.BLACK_WIN),
    ]
    assert event.warnings[0] == (
        "Line 15: this game's Round tag is missing, so it was put in round 3: a new round after "
        "the last, as its players already have a game in the rounds of the games around it in "
        "the file. Change its round in the results grid if it was played in another."
    )
    assert event.warnings[1].startswith("Line 21: this game's Round tag is '?', so it was put ")
    assert all(warning.startswith("Line ") for warning in event.warnings)


def test_a_round_tag_that_is_text_among_numbered_ones_is_refused():
    with pytest.raises(ImportFileError) as raised:
        parse_pgn(
            pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
            pgn_game(Round="Playoff", White="Bob", Black="Ann", Result="1-0"),
        )
    assert raised.value.message.startswith("Line 8: the Round tag is 'Playoff'")


def test_untagged_games_take_the_round_of_the_nearest_tagged_game_before_them_else_after():
    # Runs of untagged games between tagged ones (the neighbours are found in two passes over
    # the file, not by looking around each untagged game): a game goes into the round of the
    # nearest tagged game before it, else (no game before it, or a player busy there) the
    # nearest after it.
    event = parse_pgn(
        pgn_game(White="Cid", Black="Dee", Result="1-0"),  # nothing tagged before: round 2
        pgn_game(Round="2", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(White="Eve", Black="Fay", Result="1-0"),  # round 2
        pgn_game(White="Gus", Black="Hal", Result="1-0"),  # round 2
        pgn_game(White="Ann", Black="Hal", Result="1-0"),  # both busy in 2: the round after, 3
        pgn_game(Round="3", White="Bob", Black="Cid", Result="1-0"),
        pgn_game(Round="4", White="Ann", Black="Cid", Result="1-0"),
    )
    assert [game.round for game in sorted(event.games, key=lambda g: g.line)] == [
        2, 2, 2, 2, 3, 3, 4
    ]  # fmt: skip
