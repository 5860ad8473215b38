"""A bye that a TRF writes only in the points column (issue 23, part 3; ½ or 1 point, issue
33), and the warnings that name each player whose points and rounds disagree."""

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, parse_file
from tests.corpus import TRF_CORPUS

from .trf_lines import player

CORPUS = TRF_CORPUS
GROS = CORPUS / "open_gros_donostia_2010_round5_input.trf"


def parse_trf(*lines: str) -> ImportedEvent:
    return parse_file(("\n".join(lines) + "\n").encode(), "trf")


def byes_of(event: ImportedEvent, key: int) -> list[tuple[int, Result]]:
    return [(g.round, g.result) for g in event.games if g.white == key and g.black is None]


OPPONENTS = (
    player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (4, "b", "="), points="1.5"),
    player(3, "Cid", (4, "w", "1"), (2, "b", "0"), (1, "w", "="), points="1.5"),
    player(4, "Dan", (3, "b", "0"), (5, "w", "1"), (2, "w", "="), points="1.5"),
    player(5, "Eve", None, (4, "b", "0"), None, points="0.0"),
)


@pytest.mark.parametrize(
    "open_cell", [None, (0, "-", "-")], ids=["blank cell", "0000 - - (not paired)"]
)
def test_the_one_round_without_a_result_is_the_half_point_bye_the_points_column_counts(
    open_cell,
):
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), open_cell, (3, "b", "="), points="2.0"), *OPPONENTS
    )
    assert byes_of(event, 1) == [(2, Result.BYE_HALF)]
    assert event.warnings[0] == (
        "Line 1: the points column says 2 for player 1 (Ann), but the round results add up to "
        "1.5: ½ less. Round 2, the one round played without a game or points on this line, was "
        "read as a half-point bye."
    )


def test_several_rounds_without_a_result_leave_the_bye_unread_and_say_which():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), None, None, points="1.5"),
        player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (4, "b", "="), points="1.5"),
        player(3, "Cid", (4, "w", "1"), (2, "b", "0"), (5, "w", "="), points="1.5"),
        player(4, "Dan", (3, "b", "0"), (5, "w", "1"), (2, "w", "="), points="1.5"),
        player(5, "Eve", None, (4, "b", "0"), (3, "b", "="), points="0.5"),
    )
    assert byes_of(event, 1) == []
    assert event.warnings[0] == (
        "Line 1: the points column says 1.5 for player 1 (Ann), but the round results add up to "
        "1: ½ less, as byes the round cells do not write would give, but they could be placed in "
        "more than one way in rounds 2 and 3; the round results were used."
    )


def test_a_whole_point_above_the_rounds_with_one_open_round_is_a_full_point_bye():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), None, (3, "b", "="), points="2.5"), *OPPONENTS
    )
    assert byes_of(event, 1) == [(2, Result.BYE_FULL)]
    assert event.warnings[0].endswith(
        "add up to 1.5: 1 less. Round 2, the one round played without a game or points on "
        "this line, was read as a full-point bye."
    )


def test_a_whole_point_in_each_of_several_open_rounds_is_a_full_point_bye_in_each():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), None, (0, "-", "-"), points="3.0"),
        player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (4, "b", "="), points="1.5"),
        player(3, "Cid", (4, "w", "1"), (2, "b", "0"), (5, "w", "="), points="1.5"),
        player(4, "Dan", (3, "b", "0"), (5, "w", "1"), (2, "w", "="), points="1.5"),
        player(5, "Eve", None, (4, "b", "0"), (3, "b", "="), points="0.5"),
    )
    assert byes_of(event, 1) == [(2, Result.BYE_FULL), (3, Result.BYE_FULL)]
    assert event.warnings[0] == (
        "Line 1: the points column says 3 for player 1 (Ann), but the round results add up to "
        "1: 2 less. Rounds 2 and 3, the only rounds played without a game or points on this "
        "line, were read as full-point byes."
    )


def test_more_than_a_point_for_one_open_round_invents_nothing():
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), None, (3, "b", "="), points="3.0"), *OPPONENTS
    )
    assert byes_of(event, 1) == []
    assert event.warnings[0].endswith("add up to 1.5; the round results were used.")


def test_a_round_nobody_played_is_no_place_for_the_bye_but_a_zero_point_bye_is():
    # Round 4 is announced only (a bye and nothing else): Ann's missing round 4 is no game,
    # so her Z of round 2 is the one round the half point can go to.
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), (0, "-", "Z"), (3, "b", "="), points="2.0"),
        player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (4, "b", "="), (0, "-", "H"), points="2.0"),
        *OPPONENTS[1:],
    )
    assert byes_of(event, 1) == [(2, Result.BYE_HALF)]
    (points,) = [w for w in event.warnings if "points column" in w]
    assert points.endswith(
        "add up to 1.5: ½ less. Round 2, the one round played without a "
        "game or points on this line, was read as a half-point bye."
    )


@pytest.fixture(scope="module")
def gros_lines() -> list[str]:
    if not GROS.exists():
        pytest.skip("the shared TRF corpus is not here")
    return GROS.read_bytes().decode("utf-8").split("\r\n")


def test_gros_half_point_bye_left_out_of_its_cell_is_read_back_from_the_points(gros_lines):
    original = parse_file("\r\n".join(gros_lines).encode(), "trf")
    # Player 14 (line 27) took a ½-point bye in round 3: write it the way some programs do,
    # in the points column only.
    edited = [
        line.replace("0000 - H", "0000 - -") if number == 27 else line
        for number, line in enumerate(gros_lines, start=1)
    ]
    event = parse_file("\r\n".join(edited).encode(), "trf")
    assert byes_of(event, 14) == byes_of(original, 14) == [(3, Result.BYE_HALF)]
    assert sorted(event.games, key=repr) == sorted(original.games, key=repr)
    assert [w for w in event.warnings if w.startswith("Line 27:")] == [
        "Line 27: the points column says 2 for player 14 (Riesco Lecuona Juan Manuel), but the "
        "round results add up to 1.5: ½ less. Round 3, the one round played without a game or "
        "points on this line, was read as a half-point bye."
    ]


def test_greek_team_file_names_each_player_whose_points_disagree():
    path = CORPUS / "greek_friendship_cup_heraklion_2024_team.trf"
    if not path.exists():
        pytest.skip("the shared TRF corpus is not here")
    event = parse_file(path.read_bytes(), "trf")
    names = {p.key: p.name for p in event.players}
    disagreeing = [w for w in event.warnings if "the points column says" in w]
    assert len(disagreeing) == 12
    # A whole point more than the cells (Swiss-Manager's team points): no bye is invented.
    assert not [g for g in event.games if g.black is None and g.result is Result.BYE_HALF]
    for warning in disagreeing:
        key = int(warning.split(" for player ")[1].split(" ")[0])
        assert f"for player {key} ({names[key]}), but" in warning


@pytest.mark.parametrize(
    ("column", "read_as"),
    [("1.5", Result.BYE_PAIRING_HALF), ("1.0", Result.BYE_PAIRING_ZERO)],
    ids=["a half-point U", "a zero-point U"],
)
def test_a_pairing_bye_worth_less_than_the_files_others_is_read_from_its_own_points_column(
    column, read_as
):
    """Two U byes in one event, scored differently (our export writes each as U): the file's
    usual value stays for the player whose column it fits; the other reads its own."""
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), (0, "-", "U"), (3, "b", "0"), points=column),
        player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (0, "-", "U"), points="2.0"),
        player(3, "Cid", (0, "-", "U"), (2, "b", "0"), (1, "w", "1"), points="2.0"),
    )
    assert byes_of(event, 1) == [(2, read_as)]
    assert byes_of(event, 2) == [(3, Result.BYE_PAIRING)]
    assert byes_of(event, 3) == [(1, Result.BYE_PAIRING)]
    assert not any("Line 1:" in warning for warning in event.warnings)


def test_a_column_that_counts_more_than_a_full_point_u_is_no_reading_of_the_u():
    """More than the cells give is a bye left out of the cells (the module's rule) or a
    mistake, never a U worth more than a full point."""
    event = parse_trf(
        player(1, "Ann", (2, "w", "1"), (0, "-", "U"), (3, "b", "0"), points="2.5"),
        player(2, "Bob", (1, "b", "0"), (3, "w", "1"), (0, "-", "U"), points="2.0"),
        player(3, "Cid", (0, "-", "U"), (2, "b", "0"), (1, "w", "1"), points="2.0"),
    )
    assert byes_of(event, 1) == [(2, Result.BYE_PAIRING)]
    assert any(warning.startswith("Line 1:") for warning in event.warnings)
