"""members.files.event_files: an event out as FIDE TRF16 and as CSV, read back by our own importers.

No database: the writer takes plain dataclasses, the readers return plain dataclasses.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from clubs.results import Result
from directors.importers import parse_file
from members.files.event_files import EventFile, FileGame, FilePlayer, csv_text, trf_text
from members.files.spreadsheet import defused, undefused
from tests.corpus import TRF_CORPUS

CORPUS = TRF_CORPUS
CORPUS_FILES = sorted(CORPUS.glob("*.trf"))

PLAYERS = (
    FilePlayer(1, "Anna de Vries", 1850),
    FilePlayer(2, "Jürgen Müller", 1720),
    FilePlayer(3, "-Minus Start", None),  # a name a spreadsheet would run as a formula
    FilePlayer(4, "Bakker, Jan", 1400),
    FilePlayer(5, "Eva Smit", 1200),
)
EVERY_RESULT = (
    FileGame(1, 1, 2, Result.WHITE_WIN),
    FileGame(1, 3, 4, Result.DRAW),
    FileGame(1, 5, None, Result.BYE_PAIRING),
    FileGame(2, 2, 1, Result.BLACK_WIN),
    FileGame(2, 4, 5, Result.WHITE_FORFEIT_WIN),
    FileGame(2, 3, None, Result.BYE_HALF),
    FileGame(3, 1, 4, Result.BLACK_FORFEIT_WIN),
    FileGame(3, 5, 2, Result.DOUBLE_FORFEIT),
    FileGame(3, 3, None, Result.BYE_FULL),
    FileGame(4, 1, 3, Result.UNRATED_WHITE_WIN),
    FileGame(4, 2, 4, Result.UNRATED_DRAW),
    FileGame(4, 5, None, Result.BYE_ZERO),
    FileGame(5, 4, 1, Result.UNRATED_BLACK_WIN),
    FileGame(5, 2, 3, Result.NO_RESULT),
)
EVENT = EventFile("Club open", dt.date(2026, 2, 10), PLAYERS, EVERY_RESULT)


def games_of(imported) -> set[tuple[int, str, str | None, Result]]:
    names = {player.key: player.name for player in imported.players}
    return {
        (g.round, names[g.white], names[g.black] if g.black else None, g.result)
        for g in imported.games
    }


def expected_games(event: EventFile) -> set[tuple[int, str, str | None, Result]]:
    names = {player.rank: player.name for player in event.players}
    return {
        (g.round, names[g.white], names[g.black] if g.black else None, g.result)
        for g in event.games
    }


def test_every_result_and_bye_reads_back_from_the_trf_file_as_written():
    imported = parse_file(trf_text(EVENT).encode(), "trf")
    assert [(p.key, p.name, p.rating) for p in imported.players] == [
        (p.rank, p.name, p.rating) for p in PLAYERS
    ]
    assert games_of(imported) == expected_games(EVENT)
    assert imported.name == "Club open"
    assert imported.date == dt.date(2026, 2, 10)
    assert imported.warnings == ()  # the points column agrees with the round cells


def test_every_result_and_bye_reads_back_from_the_csv_file_as_written():
    imported = parse_file(csv_text(EVENT).encode(), "csv")
    assert {p.name for p in imported.players} == {p.name for p in PLAYERS}
    assert games_of(imported) == expected_games(EVENT)


def test_the_csv_is_formula_safe_yet_its_forfeits_and_names_read_back():
    text = csv_text(EVENT)
    assert "'+/-" in text and "'-/-" in text and "'-Minus Start" in text
    assert not re.search(r"(^|[,;])[=+\-@]", text, flags=re.M)
    assert "-Minus Start" in {p.name for p in parse_file(text.encode(), "csv").players}


def test_the_trf_codes_are_the_fide_codes_for_byes_forfeits_and_unrated_games():
    lines = {line[4:8].strip(): line for line in trf_text(EVENT).splitlines() if line[:3] == "001"}

    def cell(rank: int, round_no: int) -> str:
        start = 91 + 10 * (round_no - 1)
        return lines[str(rank)][start : start + 8].ljust(8)

    assert cell(1, 1) == "   2 w 1" and cell(2, 1) == "   1 b 0"
    assert cell(5, 1) == "0000 - U"  # pairing-allocated bye
    assert cell(3, 2) == "0000 - H" and cell(3, 3) == "0000 - F" and cell(5, 4) == "0000 - Z"
    assert cell(4, 2) == "   5 w +" and cell(5, 2) == "   4 b -"
    assert cell(5, 3) == "   2 w -" and cell(2, 3) == "   5 b -"  # double forfeit
    assert cell(1, 4) == "   3 w W" and cell(3, 4) == "   1 b L"
    assert cell(2, 4) == "   4 w D" and cell(4, 4) == "   2 b D"
    assert cell(2, 5) == "   3 w  " and cell(3, 5) == "   2 b  "  # paired, no result yet
    assert cell(5, 5) == "0000 - -"  # not paired in round 5


def test_a_variant_game_goes_out_with_the_unrated_codes_so_no_program_rates_it():
    event = EventFile(
        "Fischer random",
        dt.date(2026, 3, 1),
        PLAYERS[:2],
        (FileGame(1, 1, 2, Result.WHITE_WIN, "chess960"),),
    )
    imported = parse_file(trf_text(event).encode(), "trf")
    assert [g.result for g in imported.games] == [Result.UNRATED_WHITE_WIN]


def test_the_header_lines_and_player_lines_sit_in_the_trf16_columns():
    lines = trf_text(EVENT).split("\r\n")
    assert lines[:5] == ["012 Club open", "042 2026/02/10", "052 2026/02/10", "062 5", "072 4"]
    anna = next(line for line in lines if line.startswith("001    1"))
    assert anna[14:47].rstrip() == "Anna de Vries"
    assert anna[48:52] == "1850"
    assert anna[80:84] == " 4.0"  # two wins, a forfeit lost, two unrated wins
    assert anna[85:89].strip().isdigit()
    minus = next(line for line in lines if line.startswith("001    3"))
    assert minus[48:52] == "    "  # not on the ladder: no rating


def test_a_long_name_is_cut_to_the_33_columns_of_the_name_field():
    long = FilePlayer(1, "Maximiliane Alexandra von und zu Hohenberg-Liechtenstein", None)
    event = EventFile(
        "x", dt.date(2026, 1, 1), (long, PLAYERS[1]), (FileGame(1, 1, 2, Result.DRAW),)
    )
    line = trf_text(event).splitlines()[5]
    assert line[14:47] == long.name[:33] and line[47] == " "


# The real files: each read, written back, and read again ---------------------------------


def _as_file(imported) -> EventFile:
    return EventFile(
        imported.name or "",
        imported.date or dt.date(2026, 1, 1),
        tuple(
            FilePlayer(p.key, p.name, p.rating, federation=p.federation or "")
            for p in imported.players
        ),
        tuple(FileGame(g.round, g.white, g.black, g.result, g.variant) for g in imported.games),
    )


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda path: path.stem)
def test_a_real_trf_file_written_back_reads_as_the_same_players_and_games(path):
    original = parse_file(path.read_bytes(), "trf")
    again = parse_file(trf_text(_as_file(original)).encode(), "trf")
    assert sorted((p.key, p.name, p.rating) for p in again.players) == sorted(
        (p.key, p.name, p.rating) for p in original.players
    )
    assert sorted(map(repr, games_of(again))) == sorted(map(repr, games_of(original)))


def _fields(line: str) -> tuple[str, ...]:
    return tuple(line[a:b].strip() for a, b in ((4, 8), (14, 47), (48, 52)))


def _cell(line: str, start: int) -> tuple[str, str, str]:
    """(opponent, colour, code) with the spellings TRF allows for one meaning made one."""
    cell = line[start : start + 8].ljust(8)
    opponent = cell[0:4].strip().lstrip("0")
    colour = cell[5].lower() if cell[5] in "wbWB" else "-"
    code = cell[7].upper()
    if not opponent and code == " ":
        code = "-"  # not paired: a blank cell and "0000 - -" say the same
    if not opponent and code == "+":
        code = "F"  # a full-point bye, in the older spelling some programs write
    return opponent, colour, code


@pytest.mark.parametrize(
    "name", ["karl_mala_gedenkturnier_2005", "open_capo_dorso_2012_accelerated"]
)
def test_the_001_lines_keep_the_original_files_fields_in_the_same_columns(name):
    data = (CORPUS / f"{name}.trf").read_bytes()
    written = trf_text(_as_file(parse_file(data, "trf")))
    originals = {
        line[4:8]: line
        for line in data.decode("utf-8", "replace").splitlines()
        if line[:3] == "001" and "spielfrei" not in line  # a bye's dummy is no entrant
    }
    ours = {line[4:8]: line for line in written.splitlines() if line[:3] == "001"}
    assert originals.keys() == ours.keys()
    for rank, original in originals.items():
        line = ours[rank]
        assert _fields(line) == _fields(original)
        assert line[80:84] == original[80:84]  # points: these files' columns add up
        for start in range(91, max(len(line), len(original)), 10):
            theirs, mine = _cell(original, start), _cell(line, start)
            assert mine[0] == theirs[0] and mine[2] == theirs[2], (rank, start)
            if theirs[1] != "-":  # a forfeit without colours gets White for the earlier line
                assert mine[1] == theirs[1], (rank, start)


# members.files.spreadsheet.undefused: what the CSV importer does to each cell ------------------


@given(st.text(alphabet=st.sampled_from("ab =+-@;,\t1")))
def test_a_defused_cell_reads_back_as_the_text_it_was(text):
    assume(not text.startswith("'"))
    assert undefused(defused(text)) == text


@pytest.mark.parametrize("name", ["'t Hart", "'s-Gravenhage", "O'Neill"])
def test_a_name_that_really_starts_with_an_apostrophe_is_left_alone(name):
    assert undefused(name) == name
