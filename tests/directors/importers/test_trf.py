from datetime import date
from pathlib import Path

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, ImportFileError, parse_file

from .trf_lines import player

FILES = Path(__file__).parent / "files"


def parse_trf(*lines: str, event_date: date | None = None) -> ImportedEvent:
    return parse_file("\n".join(lines).encode(), "trf", event_date=event_date)


def games_of(event: ImportedEvent) -> list[tuple[int, int, int | None, Result]]:
    return [(game.round, game.white, game.black, game.result) for game in event.games]


def bye_of(event: ImportedEvent, key: int) -> list[Result]:
    return [game.result for game in event.games if game.black is None and game.white == key]


# --- every code, in one hand-written file ---------------------------------------------------

EVERY_CODE = [
    pytest.param(1, 1, 2, Result.WHITE_WIN, id="1 against 0 is a white win"),
    pytest.param(1, 4, 3, Result.DRAW, id="= against = is a draw, white from the colour"),
    pytest.param(1, 5, 6, Result.BLACK_WIN, id="0 against 1 is a black win"),
    pytest.param(1, 7, 8, Result.WHITE_FORFEIT_WIN, id="+ against - is a forfeit win"),
    pytest.param(1, 9, 10, Result.DOUBLE_FORFEIT, id="- against - is a double forfeit"),
    pytest.param(2, 3, 1, Result.UNRATED_BLACK_WIN, id="L against W is an unrated black win"),
    pytest.param(2, 2, 4, Result.UNRATED_DRAW, id="lower-case d against d is an unrated draw"),
    pytest.param(2, 7, 5, Result.UNRATED_WHITE_WIN, id="lower-case w against l is unrated"),
    pytest.param(2, 6, None, Result.BYE_HALF, id="0000 H is a half-point bye"),
    pytest.param(2, 8, None, Result.BYE_FULL, id="0000 F is a full-point bye"),
    pytest.param(2, 9, None, Result.BYE_PAIRING, id="0000 U is a pairing-allocated bye"),
    pytest.param(2, 10, None, Result.BYE_ZERO, id="0000 Z is a zero-point bye"),
    pytest.param(3, 1, 4, Result.BLACK_FORFEIT_WIN, id="forfeit without colours"),
    pytest.param(3, 2, 3, Result.WHITE_WIN, id="game without colours: earlier line is white"),
    pytest.param(3, 5, None, Result.BYE_FULL, id="0000 + is a full-point bye"),
    pytest.param(3, 8, None, Result.BYE_HALF, id="lower-case h is a half-point bye"),
    pytest.param(3, 9, None, Result.BYE_FULL, id="lower-case f is a full-point bye"),
    pytest.param(3, 10, None, Result.BYE_HALF, id="0000 = is a half-point bye (Vega)"),
    pytest.param(4, 1, 5, Result.DRAW, id="draw in round 4"),
    pytest.param(4, 6, 2, Result.BLACK_WIN, id="black wins in round 4"),
    pytest.param(4, 3, 7, Result.BLACK_WIN, id="white loses in round 4"),
    pytest.param(4, 4, 8, Result.WHITE_WIN, id="colour on one half only decides"),
    pytest.param(4, 10, None, Result.BYE_PAIRING, id="a win against spielfrei is a bye"),
]


@pytest.fixture(scope="module")
def every_code() -> ImportedEvent:
    return parse_file((FILES / "every_result_code.trf").read_bytes(), "trf")


@pytest.mark.parametrize(("round_number", "white", "black", "result"), EVERY_CODE)
def test_every_result_code_is_stored_as_the_shared_result(
    every_code, round_number, white, black, result
):
    assert (round_number, white, black, result) in games_of(every_code)


def test_every_result_code_file_stores_nothing_else(every_code):
    assert len(every_code.games) == len(EVERY_CODE)
    assert every_code.rounds == 4


def test_absences_store_no_row(every_code):
    stored = {(game.round, game.white) for game in every_code.games if game.black is None}
    assert (3, 6) not in stored  # blank cell
    assert (3, 7) not in stored  # 0000 - -
    assert (4, 9) not in stored  # blank cell in the middle of nothing


def test_every_result_code_file_warns_naming_lines(every_code):
    assert every_code.warnings == (
        "Line 15: round 5 has no game between two players, only byes or absences (2 of them); "
        "it looks announced but not played, so nothing was stored for it.",
        "Line 16: neither this line nor line 17 gives the colours of player 2 and player 3 in "
        "round 3; player 2 (the earlier line) was taken as White.",
        "Line 17: the points column says 1.5 for player 3 (Brown, Carla), but the round results "
        "add up to 0.5; the round results were used (a team file's points column counts its "
        "team's points too, so no bye is read from it).",
        "Line 30: record type 'ZZZ' is not used and was skipped.",
        "Line 25: 'spielfrei' is the placeholder a tournament program writes for a bye, not a "
        "person: it is no entrant, and a pairing against it is its opponent's bye.",
    )


def test_header_fields_are_read(every_code):
    assert every_code.name == "Every Result Code Open"
    assert every_code.date == date(2024, 5, 18)
    assert every_code.time_control == "90 min + 30 s per move"


def test_player_fields_are_read(every_code):
    first, second, third = every_code.players[:3]
    assert (first.key, first.name, first.rating, first.declared_points, first.line) == (
        1,
        "Smith, Anna",
        2105,
        3.0,
        15,
    )
    assert second.rating is None  # printed as 0
    assert third.rating is None  # blank


def test_email_addresses_are_never_read(every_code):
    assert "@" not in repr(every_code)


def test_birth_dates_are_not_kept(every_code):
    for birth in ("1980/04/12", "1980", "2006.05.01", "18.05.2007"):
        assert birth not in repr(every_code)


def test_the_placeholder_of_a_bye_is_no_entrant(every_code):
    assert "spielfrei" not in [p.name for p in every_code.players]
    assert all(11 not in (game.white, game.black) for game in every_code.games)


# --- one pairing, one cell at a time --------------------------------------------------------

PAIRS = [
    pytest.param(("w", "1"), ("b", "0"), (1, 2, Result.WHITE_WIN), id="1-0"),
    pytest.param(("b", "1"), ("w", "0"), (2, 1, Result.BLACK_WIN), id="win with black"),
    pytest.param(("w", "="), ("b", "="), (1, 2, Result.DRAW), id="draw"),
    pytest.param(("w", "0"), ("b", "1"), (1, 2, Result.BLACK_WIN), id="0-1"),
    pytest.param(("w", "+"), ("b", "-"), (1, 2, Result.WHITE_FORFEIT_WIN), id="white forfeit win"),
    pytest.param(("w", "-"), ("b", "+"), (1, 2, Result.BLACK_FORFEIT_WIN), id="black forfeit win"),
    pytest.param(("b", "+"), ("w", "-"), (2, 1, Result.BLACK_FORFEIT_WIN), id="forfeit with black"),
    pytest.param(("-", "+"), ("-", "-"), (1, 2, Result.WHITE_FORFEIT_WIN), id="forfeit no colours"),
    pytest.param(("w", "-"), ("b", "-"), (1, 2, Result.DOUBLE_FORFEIT), id="double forfeit"),
    pytest.param(("w", "W"), ("b", "L"), (1, 2, Result.UNRATED_WHITE_WIN), id="W against L"),
    pytest.param(("w", "D"), ("b", "D"), (1, 2, Result.UNRATED_DRAW), id="D against D"),
    pytest.param(("w", "l"), ("b", "w"), (1, 2, Result.UNRATED_BLACK_WIN), id="l against w"),
    pytest.param(("w", " "), ("b", " "), (1, 2, Result.NO_RESULT), id="paired, no result yet"),
    pytest.param(("W", "1"), ("B", "0"), (1, 2, Result.WHITE_WIN), id="upper-case colours"),
    pytest.param((" ", "0"), ("w", "1"), (2, 1, Result.WHITE_WIN), id="colour on second half"),
]


@pytest.mark.parametrize(("first", "second", "expected"), PAIRS)
def test_one_pairing_is_stored_once(first, second, expected):
    event = parse_trf(
        player(1, "Ann", (2, *first)),
        player(2, "Bob", (1, *second)),
    )
    assert games_of(event) == [(1, *expected)]


def test_forfeit_is_stored_once_as_forfeit():
    event = parse_trf(player(1, "Ann", (2, "w", "+")), player(2, "Bob", (1, "b", "-")))
    [game] = event.games
    assert game.result.is_forfeit
    assert not game.result.is_played


def test_game_line_is_the_first_half():
    event = parse_trf(
        "012 T", player(1, "Ann", None, (2, "w", "1")), player(2, "Bob", None, (1, "b", "0"))
    )
    assert event.games[0].line == 2


BYES = [
    pytest.param(0, "-", "H", Result.BYE_HALF, id="H"),
    pytest.param(0, "-", "F", Result.BYE_FULL, id="F"),
    pytest.param(0, "-", "U", Result.BYE_PAIRING, id="U"),
    pytest.param(0, "-", "Z", Result.BYE_ZERO, id="Z"),
    pytest.param(0, "-", "+", Result.BYE_FULL, id="+ without opponent"),
    pytest.param(0, "-", "=", Result.BYE_HALF, id="= without opponent"),
    pytest.param(0, "-", "1", Result.BYE_FULL, id="1 without opponent"),
    pytest.param(0, "-", "0", Result.BYE_ZERO, id="0 without opponent"),
    pytest.param(0, "-", "z", Result.BYE_ZERO, id="lower-case z"),
    pytest.param(None, " ", "U", Result.BYE_PAIRING, id="blank opponent U (lichess)"),
    pytest.param(None, " ", "H", Result.BYE_HALF, id="blank opponent H (lichess)"),
    pytest.param(0, "-", "-", None, id="- is absent"),
    pytest.param(None, " ", "-", None, id="blank opponent - is absent"),
    pytest.param(0, "-", " ", None, id="0000 with blank result is absent"),
]


@pytest.mark.parametrize(("opponent", "colour", "code", "expected"), BYES)
def test_cell_without_opponent(opponent, colour, code, expected):
    event = parse_trf(
        player(1, "Ann", (opponent, colour, code)),
        player(2, "Bob", (3, "w", "1")),
        player(3, "Cid", (2, "b", "0")),
    )
    assert bye_of(event, 1) == ([] if expected is None else [expected])


def test_byes_are_never_played_games():
    event = parse_file((FILES / "every_result_code.trf").read_bytes(), "trf")
    for game in event.games:
        if game.black is None:
            assert game.result.is_bye


# --- rounds announced but not played --------------------------------------------------------


def test_round_with_only_byes_is_not_stored_and_warns():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), (0, "-", "H")),
        player(2, "Bob", (1, "b", "0"), (0, "-", "Z")),
        player(3, "Cid", (0, "-", "U"), (0, "-", "H")),
    )
    assert games_of(event) == [(1, 1, 2, Result.WHITE_WIN), (1, 3, None, Result.BYE_PAIRING)]
    assert event.rounds == 1
    assert event.warnings == (
        "Line 1: round 2 has no game between two players, only byes or absences (3 of them); "
        "it looks announced but not played, so nothing was stored for it.",
    )


def test_round_with_only_forfeits_is_kept():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), (2, "b", "+")),
        player(2, "Bob", (1, "b", "0"), (1, "w", "-")),
    )
    assert event.rounds == 2


# --- points column ---------------------------------------------------------------------------


def test_points_column_never_invents_games():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), points="5.0"),
        player(2, "Bob", (1, "b", "0"), points="0.0"),
    )
    assert games_of(event) == [(1, 1, 2, Result.WHITE_WIN)]
    assert event.players[0].declared_points == 5.0
    assert event.warnings == (
        "Line 1: the points column says 5 for player 1 (Ann), but the round results add up to 1; "
        "the round results were used.",
    )


def test_points_column_that_agrees_gives_no_warning():
    event = parse_trf(
        player(1, "Ann", (2, "w", "="), (0, "-", "H"), points="1.0"),
        player(2, "Bob", (1, "b", "="), (3, "w", "="), points="1.0"),
        player(3, "Cid", (0, "-", "U"), (2, "b", "="), points="1.5"),
    )
    assert event.warnings == ()


# --- what makes a file unusable --------------------------------------------------------------

ERRORS = [
    pytest.param(
        [
            player(1, "Ann", (2, "w", "1")),
            player(2, "Bob", (3, "b", "0")),
            player(3, "Cid", (2, "w", "1")),
        ],
        1,
        "Line 1: round 1 says player 1 played player 2, but line 2 (player 2) gives player 3 as "
        "the opponent in round 1.",
        id="opponent mismatch",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")), player(2, "Bob", (0, "-", "U"))],
        1,
        "Line 1: round 1 says player 1 played player 2, but line 2 (player 2) gives no opponent "
        "in round 1.",
        id="other half is a bye",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1"), (2, "b", "1")), player(2, "Bob", (1, "b", "0"))],
        1,
        "Line 1: round 2 says player 1 played player 2, but line 2 (player 2) gives no opponent "
        "in round 2.",
        id="other half missing",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")), player(2, "Bob", (1, "w", "0"))],
        1,
        "Line 1: round 1 gives player 1 White against player 2, but line 2 gives player 2 White "
        "too.",
        id="both white",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")), player(2, "Bob", (1, "b", "1"))],
        1,
        "Line 1: round 1 gives player 1 the result '1' against player 2, but line 2 gives player 2 "
        "'1'; the two halves must match (1 with 0, = with =, + with -, - with -, W with L, D with "
        "D).",
        id="both won",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "+")), player(2, "Bob", (1, "b", "0"))],
        1,
        "Line 1: round 1 gives player 1 the result '+' against player 2, but line 2 gives player 2 "
        "'0'; the two halves must match (1 with 0, = with =, + with -, - with -, W with L, D with "
        "D).",
        id="forfeit against a loss",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")), player(2, "Bob", (1, "b", " "))],
        1,
        "Line 1: round 1 gives player 1 the result '1' against player 2, but line 2 gives player 2 "
        "'blank'; the two halves must match (1 with 0, = with =, + with -, - with -, W with L, D "
        "with D).",
        id="one result missing",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")), player(2, "Bob", (1, "b", "0"), (9, "w", "1"))],
        2,
        "Line 2: round 2 names opponent 9, but no player line (001) has starting rank 9.",
        id="opponent without a player line",
    ),
    pytest.param(
        [player(1, "Ann", (1, "w", "1"))],
        1,
        "Line 1: in round 1 player 1 is paired with themselves.",
        id="paired with themselves",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "H")), player(2, "Bob", (1, "b", "H"))],
        1,
        "Line 1: round 1 of player 1 names opponent 2 but its result 'H' is a bye, which has no "
        "opponent.",
        id="bye code with an opponent",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "X")), player(2, "Bob", (1, "b", "0"))],
        1,
        "Line 1: the result in round 1 of player 1 is 'X'; TRF result codes are 1 = 0 + - W D L "
        "H F U Z or blank.",
        id="unknown result code",
    ),
    pytest.param(
        [player(1, "Ann", (2, "r", "1")), player(2, "Bob", (1, "b", "0"))],
        1,
        "Line 1: the colour in round 1 of player 1 must be w, b or -, not 'r'.",
        id="unknown colour",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")) + " 1", player(2, "Bob", (1, "b", "0"))],
        1,
        "Line 1: the cell for round 1 of player 1 does not line up with the TRF columns "
        "(opponent, colour and result belong in columns 92-95, 97 and 99).",
        id="cell out of its columns",
    ),
    pytest.param(
        [player(1, "Ann", (2, "w", "1")).replace("   2 w", "  x2 w")],
        1,
        "Line 1: the opponent in round 1 of player 1 is not a starting rank number.",
        id="opponent is not a number",
    ),
    pytest.param(
        [player(1, "Ann"), player(1, "Bob")],
        2,
        "Line 2: starting rank 1 is used twice (also on line 1).",
        id="starting rank used twice",
    ),
    pytest.param(
        [player(1, "")],
        1,
        "Line 1: player 1 has no name in columns 15-47.",
        id="player without a name",
    ),
    pytest.param(
        ["001 Ann Smith 1500"],
        1,
        "Line 1: a player line needs its starting rank (1-9999) in columns 5-8.",
        id="player line without starting rank",
    ),
    pytest.param(
        ["012 Only a header", "042 2024/01/01"],
        None,
        "No player lines were found: a FIDE TRF file lists each player on a line that starts "
        "with 001.",
        id="no player lines",
    ),
]


@pytest.mark.parametrize(("lines", "line", "message"), ERRORS)
def test_inconsistent_file_is_rejected_with_a_message_naming_the_line(lines, line, message):
    with pytest.raises(ImportFileError) as raised:
        parse_trf(*lines)
    assert raised.value.message == message
    assert str(raised.value) == message
    assert raised.value.line == line


# --- records that are skipped ------------------------------------------------------------------

SKIPPED = [
    pytest.param("XXR 9", id="XXR rounds"),
    pytest.param("XXC white1", id="XXC colour"),
    pytest.param("XXA    1  1.0  1.0", id="XXA acceleration"),
    pytest.param("XXS WW=1.0", id="XXS scoring"),
    pytest.param("BBU 1.0", id="bbpPairings BBU"),
    pytest.param("DAT 0001 EMAIL ann@example.org", id="Tornelo DAT"),
    pytest.param("### comment", id="TRF-2026 comment"),
    pytest.param("", id="blank line"),
    pytest.param("   ", id="line of spaces"),
    pytest.param("         1         2         3", id="Swiss-Manager ruler of tens"),
    pytest.param("1234567890" * 12, id="Swiss-Manager ruler of digits"),
    pytest.param("DDD SSSS sTTT NNNNNNNNNNNNNNNNN RRRR", id="Swiss-Manager field ruler"),
    pytest.param("013 Team A                             1    2", id="team line 013"),
    pytest.param("310   1 Team A", id="TRF-2026 team record"),
    pytest.param("240 H 003  0002", id="TRF-2026 bye record"),
    pytest.param("NED    1 m    Ann                               1500", id="national rating"),
    pytest.param("062 129 (88)", id="062 that is not a number"),
]


@pytest.mark.parametrize("extra", SKIPPED)
def test_known_extension_lines_are_skipped_silently(extra):
    event = parse_trf(
        "012 T", extra, player(1, "Ann", (2, "w", "1")), player(2, "Bob", (1, "b", "0"))
    )
    assert event.warnings == ()
    assert games_of(event) == [(1, 1, 2, Result.WHITE_WIN)]


def test_unknown_record_is_a_warning_not_an_error():
    event = parse_trf(
        "012 T",
        "Q99 something",
        "Q99 again",
        player(1, "Ann", (2, "w", "1")),
        player(2, "Bob", (1, "b", "0")),
    )
    assert event.warnings == (
        "Line 2: record type 'Q99' is not used and was skipped (and 1 more lines).",
    )
    assert len(event.games) == 1


def test_acceleration_points_never_change_scores():
    plain = [
        player(1, "Ann", (2, "w", "1"), points="1.0"),
        player(2, "Bob", (1, "b", "0"), points="0.0"),
    ]
    accelerated = parse_trf(*plain, "XXA    1  1.0", "XXA    2  1.0")
    assert accelerated == parse_trf(*plain)


# --- junior flag ---------------------------------------------------------------------------

JUNIORS = [
    pytest.param("2010/06/01", date(2024, 6, 1), True, id="14 years old"),
    pytest.param("2006/06/02", date(2024, 6, 1), True, id="18 tomorrow"),
    pytest.param("2006/06/01", date(2024, 6, 1), False, id="18 today"),
    pytest.param("1970/01/01", date(2024, 6, 1), False, id="adult"),
    pytest.param("2010", date(2024, 6, 1), True, id="year only, clearly junior"),
    pytest.param("2006", date(2024, 6, 1), None, id="year only, 17 or 18"),
    pytest.param("2005", date(2024, 6, 1), False, id="year only, clearly adult"),
    pytest.param("2006/00/00", date(2024, 6, 1), None, id="YYYY/00/00, 17 or 18"),
    pytest.param("2006/12/00", date(2024, 6, 1), True, id="month known, day unknown"),
    pytest.param("2006.05.31", date(2024, 6, 1), False, id="YYYY.MM.DD"),
    pytest.param("2006-06-02", date(2024, 6, 1), True, id="YYYY-MM-DD"),
    pytest.param("02.06.2006", date(2024, 6, 1), True, id="DD.MM.YYYY"),
    pytest.param("", date(2024, 6, 1), None, id="no birth date"),
    pytest.param("0000/00/00", date(2024, 6, 1), None, id="zeros"),
    pytest.param("unknown", date(2024, 6, 1), None, id="not a date"),
    pytest.param("2030/01/01", date(2024, 6, 1), None, id="born after the event"),
    pytest.param("2010/06/01", None, None, id="no event date"),
]


@pytest.mark.parametrize(("birth", "event_date", "junior"), JUNIORS)
def test_junior_means_under_18_on_the_event_date(birth, event_date, junior):
    event = parse_trf(player(1, "Ann", birth=birth), event_date=event_date)
    assert event.players[0].junior is junior


def test_event_date_given_by_the_director_wins_over_the_file_date():
    lines = ["042 2024/06/01", player(1, "Ann", birth="2006/07/01")]
    assert parse_trf(*lines).players[0].junior is True
    assert parse_trf(*lines, event_date=date(2024, 7, 1)).players[0].junior is False


# --- start date ------------------------------------------------------------------------------

ROUND_DATES = "132" + " " * 88 + "24/03/09  24/03/10"

START_DATES = [
    pytest.param(["042 2024/05/18"], date(2024, 5, 18), id="YYYY/MM/DD"),
    pytest.param(["042 2024-05-18"], date(2024, 5, 18), id="YYYY-MM-DD"),
    pytest.param(["042 2024.05.18"], date(2024, 5, 18), id="YYYY.MM.DD"),
    pytest.param(["042 18.05.2024"], date(2024, 5, 18), id="DD.MM.YYYY"),
    pytest.param(["042 18/05/2024"], date(2024, 5, 18), id="DD/MM/YYYY"),
    pytest.param(["042 05/18/2024"], date(2024, 5, 18), id="MM/DD/YYYY when clear"),
    pytest.param(["042 28. 07. 2005"], date(2005, 7, 28), id="spaced DD. MM. YYYY"),
    pytest.param(["042 Jun 26, 2020"], date(2020, 6, 26), id="English (lichess)"),
    pytest.param(["042 29. Mai 2021"], date(2021, 5, 29), id="German"),
    pytest.param(["042 29 mai 2021"], date(2021, 5, 29), id="French"),
    pytest.param(["042 29 de mayo de 2021"], date(2021, 5, 29), id="Spanish"),
    pytest.param(["042 2024-05-18T10:00:00Z"], date(2024, 5, 18), id="ISO with time"),
    pytest.param(["042 03/09/2024", ROUND_DATES], date(2024, 3, 9), id="ambiguous, 132 decides"),
    pytest.param([ROUND_DATES], date(2024, 3, 9), id="no 042, first round date"),
    pytest.param(["042"], None, id="empty 042"),
    pytest.param([], None, id="no date at all"),
]


@pytest.mark.parametrize(("lines", "expected"), START_DATES)
def test_start_date_formats(lines, expected):
    event = parse_trf(*lines, player(1, "Ann"))
    assert event.date == expected
    assert event.warnings == ()


def test_ambiguous_start_date_is_read_day_first_with_a_warning():
    event = parse_trf("042 03/09/2024", player(1, "Ann"))
    assert event.date == date(2024, 9, 3)
    assert event.warnings == (
        "Line 1: the start date '03/09/2024' could be 03 September 2024 or 09 March 2024; "
        "it was read day first, as 03 September 2024.",
    )


def test_unreadable_start_date_is_a_warning():
    event = parse_trf("042 sometime in spring", player(1, "Ann"))
    assert event.date is None
    assert event.warnings == ("Line 1: the start date 'sometime in spring' was not understood.",)


# --- encodings and line endings --------------------------------------------------------------

SWISS_MANAGER = (FILES / "swiss_manager_cp1252_crlf.trf").read_bytes()
AS_TEXT = SWISS_MANAGER.decode("cp1252")

ENCODINGS = [
    pytest.param(SWISS_MANAGER, id="Windows-1252 with CRLF"),
    pytest.param(AS_TEXT.encode("utf-8"), id="UTF-8 with CRLF"),
    pytest.param(AS_TEXT.encode("utf-8-sig"), id="UTF-8 with BOM"),
    pytest.param(AS_TEXT.replace("\r\n", "\n").encode("utf-8"), id="UTF-8 with LF"),
    pytest.param(AS_TEXT.replace("\r\n", "\r").encode("utf-8"), id="UTF-8 with CR only"),
    pytest.param(AS_TEXT.replace("\r\n", "\r").encode("cp1252"), id="Windows-1252 with CR"),
    pytest.param(SWISS_MANAGER + b"\x1a", id="DOS end-of-file marker"),
]


@pytest.mark.parametrize("data", ENCODINGS)
def test_encodings_and_line_endings_give_the_same_event(data):
    expected = parse_file(SWISS_MANAGER, "trf")
    assert parse_file(data, "trf") == expected
    assert expected.players[1].name == "Groß, Änne"


def test_one_windows_1252_line_in_a_utf8_file_is_read_as_windows_1252():
    utf8 = player(1, "Müller, Jürgen", (2, "w", "1")).encode("utf-8")
    cp1252 = player(2, "Weiß, Sören", (1, "b", "0")).encode("cp1252")
    event = parse_file(utf8 + b"\n" + cp1252 + b"\n", "trf")
    assert [p.name for p in event.players] == ["Müller, Jürgen", "Weiß, Sören"]


def test_utf8_line_padded_by_bytes_is_read_by_bytes():
    event = parse_file((FILES / "utf8_padded_by_bytes.trf").read_bytes(), "trf")
    assert [(p.name, p.rating) for p in event.players] == [
        ("Żółkiewski, Łukasz", 1800),
        ("Nowak, Zoë", 1700),
        ("Smith, Al", 1600),
    ]
    assert games_of(event) == [
        (1, 1, 2, Result.WHITE_WIN),
        (1, 3, None, Result.BYE_PAIRING),
        (2, 1, None, Result.BYE_HALF),
        (2, 2, 3, Result.DRAW),
    ]
    assert event.warnings == ()


# --- files in the shape of the programs that write them ---------------------------------------

SHAPES = [
    pytest.param(
        "swiss_manager_cp1252_crlf.trf",
        "Vereinsmeisterschaft SC Süd 2024",
        date(2024, 9, 14),
        [
            (1, 1, 3, Result.WHITE_WIN),
            (1, 4, 2, Result.DRAW),
            (1, 5, None, Result.BYE_PAIRING),
            (2, 5, 1, Result.BLACK_WIN),
            (2, 3, 2, Result.DRAW),
            (2, 4, None, Result.BYE_FULL),
            (3, 1, 2, Result.DRAW),
            (3, 3, None, Result.BYE_PAIRING),
            (3, 5, 4, Result.WHITE_FORFEIT_WIN),
        ],
        5,  # and its "spielfrei", which is no entrant
        id="Swiss-Manager",
    ),
    pytest.param(
        "vega_style.trf",
        "Torneo di Natale 2023",
        date(2023, 12, 18),
        [
            (1, 1, 3, Result.WHITE_WIN),
            (1, 4, 2, Result.WHITE_WIN),
            (1, 5, None, Result.BYE_HALF),
            (2, 1, 4, Result.DRAW),
            (2, 5, 3, Result.WHITE_WIN),
            (3, 5, 1, Result.BLACK_WIN),
            (3, 2, 3, Result.WHITE_WIN),
            (3, 4, None, Result.BYE_HALF),
        ],
        5,
        id="Vega",
    ),
    pytest.param(
        "lichess_style.trf",
        "Freitagsblitz 3+2",
        date(2021, 5, 29),
        [
            (1, 2, 1, Result.BLACK_WIN),
            (1, 3, 4, Result.DRAW),
            (1, 5, None, Result.BYE_PAIRING),
            (2, 1, 5, Result.WHITE_WIN),
            (2, 3, 2, Result.WHITE_WIN),
            (2, 4, None, Result.BYE_HALF),
            (3, 3, 1, Result.DRAW),
            (3, 4, 5, Result.BLACK_WIN),
            (4, 1, None, Result.BYE_PAIRING),
            (4, 2, 4, Result.WHITE_WIN),
            (4, 5, 3, Result.DRAW),
        ],
        5,
        id="lichess Swiss",
    ),
    pytest.param(
        "swisssys_style.trf",
        "Spring Quad Night",
        date(2024, 3, 9),
        [
            (1, 1, 4, Result.WHITE_WIN),
            (1, 2, 3, Result.WHITE_FORFEIT_WIN),
            (2, 3, 1, Result.DRAW),
            (2, 4, 2, Result.BLACK_WIN),
            (3, 1, 2, Result.BLACK_WIN),
            (3, 3, None, Result.BYE_HALF),
            (3, 4, None, Result.BYE_HALF),
        ],
        4,
        id="SwissSys",
    ),
    pytest.param(
        "trf26_records.trf",
        "Winter Rapid 2026",
        date(2026, 1, 10),
        [
            (1, 1, 2, Result.WHITE_WIN),
            (1, 3, 4, Result.DRAW),
            (2, 4, 1, Result.BLACK_WIN),
            (2, 2, 3, Result.BLACK_WIN),
            (3, 1, 3, Result.DRAW),
            (3, 2, None, Result.BYE_PAIRING),
            (3, 4, None, Result.BYE_HALF),
        ],
        4,
        id="TRF-2026",
    ),
]


@pytest.mark.parametrize(("filename", "name", "start", "games", "players"), SHAPES)
def test_files_in_the_shape_of_each_program(filename, name, start, games, players):
    event = parse_file((FILES / filename).read_bytes(), "trf")
    assert (event.name, event.date) == (name, start)
    assert games_of(event) == games
    assert event.rounds == len({game[0] for game in games})
    assert all(w.startswith("Line ") for w in event.warnings)
    assert not any("points column" in w for w in event.warnings)
    assert len(event.players) == players


def test_swiss_manager_names_keep_their_umlauts_and_juniors_are_flagged():
    event = parse_file(SWISS_MANAGER, "trf")
    assert [(p.name, p.junior) for p in event.players] == [
        ("Müller, Jürgen", False),
        ("Groß, Änne", True),
        ("Weiß, Sören", True),  # 18 the day after the event starts
        ("Gödel, Zoë", False),
        ("Schäfer, Björn", True),
    ]
    assert event.warnings == (
        "Line 24: 'spielfrei' is the placeholder a tournament program writes for a bye, not a "
        "person: it is no entrant, and a pairing against it is its opponent's bye.",
    )


def test_lichess_usernames_are_names_and_ratings_are_unknown():
    event = parse_file((FILES / "lichess_style.trf").read_bytes(), "trf")
    assert [p.name for p in event.players][:2] == ["schachfreund_79", "BlitzBaron"]
    assert {p.rating for p in event.players} == {None}
    assert {p.junior for p in event.players} == {None}
