from pathlib import Path

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, ImportFileError, parse_file

FILES = Path(__file__).parent / "files"


def parse_csv(*rows: str, header: str = "round,white,black,result") -> ImportedEvent:
    return parse_file("\n".join([header, *rows]).encode(), "csv")


def games_of(event: ImportedEvent) -> list[tuple[int, int, int | None, Result]]:
    return [(game.round, game.white, game.black, game.result) for game in event.games]


def test_comma_file_with_byes_forfeits_and_unrated_games():
    event = parse_file((FILES / "ladder_night_comma.csv").read_bytes(), "csv")
    assert games_of(event) == [
        (1, 1, 2, Result.WHITE_WIN),
        (1, 3, 4, Result.DRAW),
        (1, 5, None, Result.BYE_FULL),
        (2, 2, 3, Result.BLACK_WIN),
        (2, 4, 5, Result.WHITE_FORFEIT_WIN),
        (2, 1, None, Result.BYE_HALF),
        (3, 1, 3, Result.UNRATED_DRAW),
        (3, 5, 2, Result.DOUBLE_FORFEIT),
        (3, 4, None, Result.BYE_PAIRING),
    ]
    assert [game.line for game in event.games] == [2, 3, 4, 6, 7, 8, 9, 10, 11]
    assert [(p.key, p.name, p.line) for p in event.players] == [
        (1, "Anna Smith", 2),
        (2, "Bob Jones", 2),
        (3, "Carla Brown", 3),
        (4, "David Taylor", 3),
        (5, "Emma Wilson", 4),
    ]
    assert (event.name, event.date, event.time_control, event.rounds) == (None, None, None, 3)


def test_semicolon_file_in_windows_1252_with_excel_sep_line():
    event = parse_file((FILES / "ladder_night_semicolon_cp1252.csv").read_bytes(), "csv")
    assert [p.name for p in event.players] == [
        "Jürgen Müller",
        "Änne Groß",
        "Sören Weiß",
        "Zoë Gödel",
        "Björn Schäfer",
    ]
    assert games_of(event) == [
        (1, 1, 2, Result.BLACK_WIN),
        (1, 3, 4, Result.DRAW),
        (1, 5, None, Result.BYE_ZERO),
        (2, 2, 3, Result.WHITE_WIN),
        (2, 4, 5, Result.BLACK_FORFEIT_WIN),
        (2, 1, None, Result.BYE_FULL),
    ]
    assert event.games[0].line == 3


GAME_RESULTS = [
    *(pytest.param(text, Result.WHITE_WIN, id=text) for text in ["1-0", "1:0", "1 - 0", "1–0"]),
    *(pytest.param(text, Result.BLACK_WIN, id=text) for text in ["0-1", "0:1"]),
    *(
        pytest.param(text, Result.DRAW, id=text)
        for text in ["1/2-1/2", "½-½", "0.5-0.5", "=", "½:½", "1/2"]
    ),
    *(pytest.param(text, Result.WHITE_FORFEIT_WIN, id=text) for text in ["+/-", "+:-", "+-"]),
    *(pytest.param(text, Result.BLACK_FORFEIT_WIN, id=text) for text in ["-/+", "-:+", "-+"]),
    *(pytest.param(text, Result.DOUBLE_FORFEIT, id=text) for text in ["-/-", "-:-", "--"]),
    *(pytest.param(text, Result.UNRATED_WHITE_WIN, id=text) for text in ["1-0u", "1-0U"]),
    *(pytest.param(text, Result.UNRATED_BLACK_WIN, id=text) for text in ["0-1u"]),
    *(pytest.param(text, Result.UNRATED_DRAW, id=text) for text in ["1/2-1/2u", "½-½u", "=u"]),
    pytest.param("*", Result.NO_RESULT, id="*"),
]


@pytest.mark.parametrize(("text", "expected"), GAME_RESULTS)
def test_game_result_vocabulary(text, expected):
    assert games_of(parse_csv(f"1,Ann,Bob,{text}")) == [(1, 1, 2, expected)]


BYE_RESULTS = [
    *(pytest.param(text, Result.BYE_FULL, id=text) for text in ["bye", "BYE", "bye1", "1"]),
    *(pytest.param(text, Result.BYE_HALF, id=text) for text in ["½", "bye½", "1/2", "0.5"]),
    *(pytest.param(text, Result.BYE_ZERO, id=text) for text in ["0", "bye0"]),
    *(pytest.param(text, Result.BYE_PAIRING, id=text) for text in ["U", "byeU"]),
]


@pytest.mark.parametrize(("text", "expected"), BYE_RESULTS)
def test_row_with_empty_black_is_a_bye(text, expected):
    assert games_of(parse_csv(f"1,Ann,,{text}")) == [(1, 1, None, expected)]


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        pytest.param("1,Ann,BYE,1-0", Result.BYE_FULL, id="black BYE, white wins"),
        pytest.param("1,Ann,bye,1/2-1/2", Result.BYE_HALF, id="black BYE, draw"),
        pytest.param("1,BYE,Ann,0-1", Result.BYE_FULL, id="white BYE, black wins"),
        pytest.param("1,BYE,Ann,1-0", Result.BYE_ZERO, id="white BYE, black loses"),
    ],
)
def test_game_against_bye_is_a_bye(row, expected):
    event = parse_csv(row)
    assert games_of(event) == [(1, 1, None, expected)]
    assert [p.name for p in event.players] == ["Ann"]


@pytest.mark.parametrize(
    ("header", "rows"),
    [
        pytest.param("Round,White,Black,Result", ["1,Ann,Bob,1-0"], id="capitalised"),
        pytest.param("result;black;white;round", ["1-0;Bob;Ann;1"], id="semicolons, any order"),
        pytest.param("round\twhite\tblack\tresult", ["1\tAnn\tBob\t1-0"], id="tabs"),
        pytest.param("board, round , white,black,result,notes", ["7,1,Ann,Bob,1-0,x"], id="extra"),
        pytest.param("round,white,black,result", ['1,"Ann",Bob,"1-0"'], id="quoted"),
    ],
)
def test_header_row_names_the_columns(header, rows):
    assert games_of(parse_csv(*rows, header=header)) == [(1, 1, 2, Result.WHITE_WIN)]


ERRORS = [
    pytest.param(
        ["1,Ann,Bob,2-0"],
        "Line 2: the result '2-0' is not understood; a game's result is one of: 1-0, 0-1, "
        "1/2-1/2 (or ½-½, 0.5-0.5, =), +/-, -/+, -/-, 1-0u, 0-1u, 1/2-1/2u, *.",
        id="unknown result",
    ),
    pytest.param(
        ["1,Ann,Bob,"],
        "Line 2: the result 'empty' is not understood; a game's result is one of: 1-0, 0-1, "
        "1/2-1/2 (or ½-½, 0.5-0.5, =), +/-, -/+, -/-, 1-0u, 0-1u, 1/2-1/2u, *.",
        id="empty result",
    ),
    pytest.param(
        ["1,Ann,,1-0"],
        "Line 2: black is empty, so this row is a bye, but its result is '1-0'; a bye's result "
        "is one of: bye, bye1, 1, bye½, ½, bye0, 0, U.",
        id="bye with a game result",
    ),
    pytest.param(
        ["1,Ann,Bob,1-0", "", "1,Cid,Ann,0-1"],
        "Line 4: Ann appears twice in round 1 (also on line 2).",
        id="same player twice in a round",
    ),
    pytest.param(
        ["1,Ann,,bye", "1,ann,Bob,1-0"],
        "Line 3: ann appears twice in round 1 (also on line 2).",
        id="bye and game in one round",
    ),
    pytest.param(["1,Ann,ANN,1-0"], "Line 2: Ann is paired with themselves.", id="self"),
    pytest.param(
        ["x,Ann,Bob,1-0"],
        "Line 2: the round is 'x'; it must be a number such as 3.",
        id="round not a number",
    ),
    pytest.param(
        [",Ann,Bob,1-0"],
        "Line 2: the round is empty; it must be a number such as 3.",
        id="no round",
    ),
    pytest.param(["1,,Bob,1-0"], "Line 2: the white player is empty.", id="no white"),
    pytest.param(
        ["1,BYE,bye,1-0"], "Line 2: both players of this row are called BYE.", id="two byes"
    ),
    pytest.param(
        ["1,Ann,BYE,*"],
        "Line 2: the result '*' of this game against BYE is not one of 1-0, 1/2-1/2, 0-1.",
        id="bye without result",
    ),
    pytest.param([], "Line 1: the header row is not followed by any results.", id="no rows"),
]


@pytest.mark.parametrize(("rows", "message"), ERRORS)
def test_bad_csv_is_rejected_naming_the_line(rows, message):
    with pytest.raises(ImportFileError) as raised:
        parse_csv(*rows)
    assert raised.value.message == message


@pytest.mark.parametrize(
    "header",
    [
        pytest.param("1,Ann,Bob,1-0", id="no header row"),
        pytest.param("round,white,black", id="result column missing"),
        pytest.param("round|white|black|result", id="unknown separator"),
    ],
)
def test_missing_header_row_is_rejected(header):
    with pytest.raises(ImportFileError) as raised:
        parse_csv("1,Ann,Bob,1-0", header=header)
    assert raised.value.message == (
        "Line 1: the first row must be a header naming the columns round, white, black and "
        "result, separated by commas or semicolons."
    )


def test_row_continued_over_two_lines_gives_the_first_line():
    event = parse_csv('1,"Ann\nSmith",Bob,1-0', "2,Bob,Cid,0-1")
    assert [game.line for game in event.games] == [2, 4]
    assert event.players[0].name == "Ann Smith"


def test_field_too_large_for_csv_is_an_error():
    with pytest.raises(ImportFileError) as raised:
        parse_csv("1,Ann,Bob,1-0", "2," + "x" * 200_000 + ",Bob,1-0")
    assert raised.value.line == 3
