from datetime import date
from pathlib import Path

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, ImportFileError, SeveralEventsError, parse_file

FILES = Path(__file__).parent / "files"


def pgn_game(moves: str = "*", **tags: str) -> str:
    return "".join(f'[{tag} "{value}"]\n' for tag, value in tags.items()) + f"\n{moves}\n"


def parse_pgn(*games: str) -> ImportedEvent:
    return parse_file("\n".join(games).encode(), "pgn")


def games_of(event: ImportedEvent) -> list[tuple[int, int, int | None, Result]]:
    return [(game.round, game.white, game.black, game.result) for game in event.games]


@pytest.fixture(scope="module")
def club_rapid() -> ImportedEvent:
    return parse_file((FILES / "club_rapid_2024.pgn").read_bytes(), "pgn")


def test_pgn_file_with_several_games_and_byes(club_rapid):
    assert games_of(club_rapid) == [
        (1, 1, 2, Result.WHITE_WIN),
        (1, 3, 4, Result.DRAW),
        (1, 5, None, Result.BYE_FULL),
        (2, 2, 3, Result.BLACK_WIN),
        (2, 4, 5, Result.NO_RESULT),
        (2, 1, None, Result.BYE_HALF),
    ]
    assert [game.line for game in club_rapid.games] == [1, 17, 28, 38, 49, 59]
    assert club_rapid.rounds == 2


def test_pgn_header_fields(club_rapid):
    assert club_rapid.name == "Thursday Rapid"
    assert club_rapid.date == date(2024, 3, 7)  # EventDate beats the partial Date
    assert club_rapid.time_control == "900+10"
    assert club_rapid.warnings == ()


def test_pgn_players_in_order_of_first_appearance(club_rapid):
    assert [(p.key, p.name, p.rating, p.line) for p in club_rapid.players] == [
        (1, "Smith, Anna", 1650, 6),
        (2, "Jones, Bob", 1500, 7),
        (3, "Brown, Carla", 1580, 21),
        (4, "Davies, Frank", None, 22),
        (5, "Evans, Grace", None, 32),
    ]
    assert {(p.junior, p.declared_points) for p in club_rapid.players} == {(None, None)}


RESULTS = [
    pytest.param("1-0", Result.WHITE_WIN, id="1-0"),
    pytest.param("0-1", Result.BLACK_WIN, id="0-1"),
    pytest.param("1/2-1/2", Result.DRAW, id="1/2-1/2"),
    pytest.param("½-½", Result.DRAW, id="½-½"),
    pytest.param("*", Result.NO_RESULT, id="* is no result"),
    pytest.param("+/-", Result.WHITE_FORFEIT_WIN, id="+/- forfeit"),
    pytest.param("-/+", Result.BLACK_FORFEIT_WIN, id="-/+ forfeit"),
    pytest.param("-/-", Result.DOUBLE_FORFEIT, id="-/- double forfeit"),
]


@pytest.mark.parametrize(("tag", "expected"), RESULTS)
def test_result_tag_is_authoritative(tag, expected):
    event = parse_pgn(pgn_game("1. e4 e5 0-1", Round="1", White="Ann", Black="Bob", Result=tag))
    assert games_of(event) == [(1, 1, 2, expected)]


BYES = [
    pytest.param("Ann", "BYE", "1-0", Result.BYE_FULL, id="white against BYE wins"),
    pytest.param("Ann", "bye", "1/2-1/2", Result.BYE_HALF, id="half-point bye"),
    pytest.param("Ann", "Bye", "0-1", Result.BYE_ZERO, id="zero-point bye"),
    pytest.param("BYE", "Ann", "0-1", Result.BYE_FULL, id="black against BYE wins"),
    pytest.param("BYE", "Ann", "1-0", Result.BYE_ZERO, id="black against BYE loses"),
    pytest.param("Ann", "BYE", "+/-", Result.BYE_FULL, id="bye written as a forfeit"),
]


@pytest.mark.parametrize(("white", "black", "result", "expected"), BYES)
def test_game_against_bye_is_a_bye(white, black, result, expected):
    event = parse_pgn(pgn_game(Round="2", White=white, Black=black, Result=result))
    assert games_of(event) == [(2, 1, None, expected)]
    assert [player.name for player in event.players] == ["Ann"]


ROUNDS = [
    pytest.param("3", 3, id="3"),
    pytest.param("3.1", 3, id="round.board"),
    pytest.param("03", 3, id="leading zero"),
    pytest.param("12.4.1", 12, id="round.board.game"),
]


@pytest.mark.parametrize(("tag", "expected"), ROUNDS)
def test_round_tag(tag, expected):
    event = parse_pgn(pgn_game(Round=tag, White="Ann", Black="Bob", Result="1-0"))
    assert event.games[0].round == expected


DATES = [
    pytest.param(["2024.03.14"], date(2024, 3, 14), (), id="full date"),
    pytest.param(["2024.03.14", "2024.03.07"], date(2024, 3, 7), (), id="earliest wins"),
    pytest.param(
        ["2024.03.??"],
        date(2024, 3, 1),
        (
            "Line 2: the date has no day (2024.03.??); the 1st of the month was used as the "
            "event date.",
        ),
        id="day unknown",
    ),
    pytest.param(["2024.??.??"], None, (), id="only a year"),
    pytest.param(["????.??.??"], None, (), id="unknown"),
    pytest.param(["2024.02.30"], None, (), id="impossible"),
]


@pytest.mark.parametrize(("values", "expected", "warnings"), DATES)
def test_event_date_from_the_date_tags(values, expected, warnings):
    games = [
        pgn_game(Event="Club", Date=value, Round=str(n), White="Ann", Black="Bob", Result="1-0")
        for n, value in enumerate(values, start=1)
    ]
    event = parse_pgn(*games)
    assert event.date == expected
    assert event.warnings == warnings


def test_same_name_in_another_case_is_the_same_player():
    event = parse_pgn(
        pgn_game(Round="1", White="Smith, Anna", Black="Bob", Result="1-0"),
        pgn_game(Round="2", White="bob", Black="SMITH,  ANNA", Result="0-1"),
    )
    assert [player.name for player in event.players] == ["Smith, Anna", "Bob"]
    assert games_of(event) == [(1, 1, 2, Result.WHITE_WIN), (2, 2, 1, Result.BLACK_WIN)]


FIRST_ROUND_GAME = pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0")

ERRORS = [
    pytest.param(
        [pgn_game(Round="1", Black="Bob", Result="1-0")],
        "Line 1: this game has no White player (the White tag).",
        id="no White",
    ),
    pytest.param(
        [pgn_game(Round="1", White="Ann", Black="?", Result="1-0")],
        "Line 1: this game has no Black player (the Black tag).",
        id="Black is ?",
    ),
    pytest.param(
        [pgn_game(Round="1", White="Ann", Black="Bob")],
        "Line 1: the Result tag is missing; it must be 1-0, 0-1, 1/2-1/2 or *.",
        id="no Result",
    ),
    pytest.param(
        [pgn_game(Round="1", White="Ann", Black="Bob", Result="2-0")],
        "Line 1: the Result tag is '2-0'; it must be 1-0, 0-1, 1/2-1/2 or *.",
        id="unknown Result",
    ),
    pytest.param(
        [FIRST_ROUND_GAME, pgn_game(Round="Final", White="Cid", Black="Dan", Result="1-0")],
        "Line 8: the Round tag is 'Final'; every game needs its round number, such as 3 or 3.1.",
        id="a Round that is no number where other games have one",
    ),
    pytest.param(
        [
            pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
            pgn_game(Round="1", White="Cid", Black="Ann", Result="1-0"),
            pgn_game(Round="2", White="Bob", Black="Cid", Result="1-0"),
        ],
        "Line 8: Ann plays twice in round 1 (also in the game on line 1).",
        id="same player twice in a round",
    ),
    pytest.param(
        [
            pgn_game(Round="4.1", White="Ann", Black="Bob", Result="1-0"),
            pgn_game(Round="4.2", White="Ann", Black="Cid", Result="1-0"),
        ],
        "Line 8: Ann plays twice in round 4 (also in the game on line 1).",
        id="two games of one round against different opponents are no match",
    ),
    pytest.param(
        [
            pgn_game(Round="4.1", White="Ann", Black="Bob", Result="1-0"),
            pgn_game(Round="4.1", White="Bob", Black="Ann", Result="1-0"),
            pgn_game(Round="5.1", White="Ann", Black="Bob", Result="1-0"),
        ],
        "Line 8: Bob plays twice in round 4 (also in the game on line 1).",
        id="a match's game number twice",
    ),
    pytest.param(
        [pgn_game(Round="1", White="Ann", Black="ann", Result="1-0")],
        "Line 1: Ann is paired with themselves.",
        id="paired with themselves",
    ),
    pytest.param(
        [pgn_game(Round="1", White="BYE", Black="bye", Result="1-0")],
        "Line 1: both players of this game are called BYE.",
        id="two byes",
    ),
    pytest.param(
        [pgn_game(Round="1", White="Ann", Black="BYE", Result="*")],
        "Line 1: the bye of Ann needs a result of 1-0, 0-1 or 1/2-1/2 giving Ann 1, 0 or ½ points.",
        id="bye without result",
    ),
    pytest.param(
        ["1. e4 e5 *"],
        'Line 1: a game should start here with its tags, such as [White "Smith, Anna"].',
        id="moves without tags",
    ),
]


@pytest.mark.parametrize(("games", "message"), ERRORS)
def test_bad_pgn_is_rejected_naming_the_game_line(games, message):
    with pytest.raises(ImportFileError) as raised:
        parse_pgn(*games)
    assert raised.value.message == message
    assert raised.value.line == int(message.split(":")[0].removeprefix("Line "))


def test_a_game_whose_tags_follow_the_last_games_moves_without_an_empty_line_is_a_game():
    # Once refused, as python-chess read the second game's tags as the first one's movetext;
    # a tag line after movetext can only start a new game, ended or not.
    text = (
        '[Round "1"]\n[White "Ann"]\n[Black "Bob"]\n[Result "1-0"]\n\n1. e4 1-0\n'
        '[Round "1"]\n[White "Cid"]\n[Black "Dan"]\n[Result "0-1"]\n\n1. d4\n'
        '[Round "2"]\n[White "Ann"]\n[Black "Cid"]\n[Result "1/2-1/2"]\n\n1. c4 1/2-1/2\n'
    )
    event = parse_file(text.encode(), "pgn")
    assert games_of(event) == [
        (1, 1, 2, Result.WHITE_WIN),
        (1, 3, 4, Result.BLACK_WIN),
        (2, 1, 3, Result.DRAW),
    ]
    assert [game.line for game in event.games] == [1, 7, 13]


def test_pgn_with_no_games_is_rejected():
    with pytest.raises(ImportFileError) as raised:
        parse_file(b"% only an escape line\n", "pgn")
    assert raised.value.message.startswith("No games were found")


def test_escaped_quotes_in_tags_are_undone():
    event = parse_pgn(pgn_game(Round="1", White='Sean \\"Shark\\" Lee', Black="Bob", Result="1-0"))
    assert event.players[0].name == 'Sean "Shark" Lee'


def test_pgn_in_windows_1252_is_read():
    game = pgn_game(Round="1", White="Müller, Jürgen", Black="Groß, Änne", Result="1-0")
    event = parse_file(game.encode("cp1252"), "pgn")
    assert [player.name for player in event.players] == ["Müller, Jürgen", "Groß, Änne"]


# --- Files without rounds -----------------------------------------------------------------------


@pytest.mark.parametrize("round_tag", [None, "?", "-", "0"], ids=["no Round", "?", "-", "0"])
def test_a_match_without_rounds_gets_one_round_a_game_in_file_order(round_tag):
    tags = {} if round_tag is None else {"Round": round_tag}
    event = parse_pgn(
        pgn_game(**tags, White="Ann", Black="Bob", Result="1-0"),
        pgn_game(**tags, White="Bob", Black="Ann", Result="1/2-1/2"),
        pgn_game(**tags, White="Ann", Black="Bob", Result="0-1"),
    )
    assert games_of(event) == [
        (1, 1, 2, Result.WHITE_WIN),
        (2, 2, 1, Result.DRAW),
        (3, 1, 2, Result.BLACK_WIN),
    ]
    assert event.rounds == 3
    assert event.rounds_from_order is True
    assert any(
        "no round numbers" in warning and "3 rounds" in warning for warning in event.warnings
    )


def test_games_without_rounds_share_a_round_until_a_player_would_play_twice():
    event = parse_pgn(
        pgn_game(White="Ann", Black="Bob", Result="1-0"),
        pgn_game(White="Cid", Black="Dan", Result="0-1"),
        pgn_game(White="Eve", Black="BYE", Result="1-0"),
        pgn_game(White="Ann", Black="Cid", Result="1/2-1/2"),
        pgn_game(White="Bob", Black="Dan", Result="1-0"),
    )
    assert [(game.round, game.line) for game in event.games] == [
        (1, 1),
        (1, 7),
        (1, 13),
        (2, 19),
        (2, 25),
    ]
    rounds_of = {}
    for game in event.games:
        for player in (game.white, game.black):
            if player is not None:
                assert (game.round, player) not in rounds_of  # nobody twice in a round
                rounds_of[game.round, player] = game.line


def test_a_file_with_round_numbers_is_not_marked_as_numbered_by_the_importer(club_rapid):
    assert club_rapid.rounds_from_order is False
    assert not any("no round numbers" in warning for warning in club_rapid.warnings)


def test_a_lichess_export_listing_the_newest_game_first_is_numbered_from_the_oldest():
    def lichess(white, black, result, day, time):
        return pgn_game(
            Event="Rated Blitz game",
            Site=f"https://lichess.org/{white}{day}",
            Date=f"2024.05.{day}",
            Round="-",
            White=white,
            Black=black,
            Result=result,
            UTCDate=f"2024.05.{day}",
            UTCTime=time,
        )

    event = parse_pgn(
        lichess("Ann", "Bob", "1-0", "03", "18:00:00"),
        lichess("Bob", "Ann", "0-1", "02", "19:30:00"),
        lichess("Ann", "Bob", "1/2-1/2", "02", "18:00:00"),
    )
    assert [(game.round, game.result) for game in event.games] == [
        (1, Result.DRAW),
        (2, Result.BLACK_WIN),
        (3, Result.WHITE_WIN),
    ]
    assert event.name == "Rated Blitz game"  # Site differs per game: still one event
    assert any("from the oldest game" in warning for warning in event.warnings)


# --- Files holding several events ----------------------------------------------------------------


def several_events() -> list[str]:
    return [
        pgn_game(Event="Titled Arena", Round="-", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Event="Casual game", Round="-", White="Cid", Black="Ann", Result="0-1"),
        pgn_game(Event="titled  arena", Round="-", White="Bob", Black="Cid", Result="1-0"),
    ]


def test_a_file_with_several_events_is_refused_naming_each_with_its_games():
    with pytest.raises(SeveralEventsError) as raised:
        parse_pgn(*several_events())
    assert raised.value.events == (("Titled Arena", 2), ("Casual game", 1))
    assert raised.value.message == (
        "This file holds games of 2 events: “Titled Arena” (2 games), “Casual game” (1 game). "
        "Import one event at a time."
    )


def test_one_event_of_a_file_holding_several_is_read_by_its_name():
    event = parse_file("\n".join(several_events()).encode(), "pgn", event="TITLED ARENA")
    assert event.name == "Titled Arena"
    assert [player.name for player in event.players] == ["Ann", "Bob", "Cid"]
    assert [(game.white, game.black) for game in event.games] == [(1, 2), (2, 3)]


def test_an_event_name_the_file_does_not_hold_is_refused_listing_those_it_does():
    with pytest.raises(ImportFileError) as raised:
        parse_file("\n".join(several_events()).encode(), "pgn", event="Blitz")
    assert raised.value.message == (
        "The file holds no event called “Blitz”; it holds “Titled Arena” (2 games), "
        "“Casual game” (1 game)."
    )


def test_games_without_an_event_tag_go_with_the_files_only_event():
    event = parse_pgn(
        pgn_game(Event="Club Night", Round="1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Event="?", Round="1", White="Cid", Black="Dan", Result="1-0"),
        pgn_game(Round="2", White="Ann", Black="Cid", Result="1-0"),
    )
    assert event.name == "Club Night"
    assert len(event.games) == 3


# --- Variants ------------------------------------------------------------------------------------

CHESS960_FEN = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"


@pytest.mark.parametrize(
    ("tags", "variant"),
    [
        pytest.param({"Variant": "Chess960"}, "Chess960", id="Chess960"),
        pytest.param({"Variant": "crazyhouse"}, "crazyhouse", id="Crazyhouse"),
        pytest.param(
            {"Variant": "Chess960", "SetUp": "1", "FEN": CHESS960_FEN}, "Chess960", id="960+FEN"
        ),
        pytest.param({"SetUp": "1", "FEN": CHESS960_FEN}, "From Position", id="FEN only"),
        pytest.param(
            {"Variant": "From Position", "SetUp": "1", "FEN": "8/8/8/8/8/8/8/K1k5 w - - 0 1"},
            "From Position",
            id="lichess From Position",
        ),
        pytest.param({"SetUp": "1", "FEN": "not a position"}, "From Position", id="bad FEN"),
        pytest.param({}, "", id="no Variant"),
        pytest.param({"Variant": "Standard"}, "", id="Standard"),
        pytest.param({"Variant": "CHESS"}, "", id="Chess in capitals"),
        pytest.param({"Variant": "?"}, "", id="Variant ?"),
        pytest.param(
            {"SetUp": "1", "FEN": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
            "",
            id="FEN of the normal start",
        ),
        pytest.param(
            {
                "Variant": "From Position",
                "FEN": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
            },
            "",
            id="From Position at the normal start",
        ),
    ],
)
def test_a_game_that_is_not_standard_chess_keeps_its_variant(tags, variant):
    event = parse_pgn(pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0", **tags))
    assert event.games[0].variant == variant
    assert event.games[0].result is Result.WHITE_WIN  # stored as played
    noted = [warning for warning in event.warnings if "not standard chess" in warning]
    assert bool(noted) == bool(variant)


def test_the_import_summary_counts_the_variant_games_by_variant():
    event = parse_pgn(
        pgn_game(Round="1", White="Ann", Black="Bob", Result="1-0"),
        pgn_game(Round="2", White="Ann", Black="Bob", Result="1-0", Variant="Chess960"),
        pgn_game(Round="3", White="Ann", Black="Bob", Result="1-0", Variant="Chess960"),
        pgn_game(Round="4", White="Ann", Black="Bob", Result="1-0", Variant="Atomic"),
    )
    assert [game.variant for game in event.games] == ["", "Chess960", "Chess960", "Atomic"]
    assert event.warnings == (
        "Line 8: 3 games of this file are not standard chess (Chess960: 2, Atomic: 1); "
        "stored as played and never rated.",
    )
