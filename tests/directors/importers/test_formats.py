from pathlib import Path

import pytest

from directors.importers import ImportFileError, detect_format, parse_file

FILES = Path(__file__).parent / "files"

DETECT = [
    pytest.param(
        "anything.bin", (FILES / "every_result_code.trf").read_bytes(), "trf", id="TRF content"
    ),
    pytest.param(
        "report.txt",
        (FILES / "swiss_manager_cp1252_crlf.trf").read_bytes(),
        "trf",
        id="TRF as .txt",
    ),
    pytest.param(
        "games.txt", (FILES / "club_rapid_2024.pgn").read_bytes(), "pgn", id="PGN content"
    ),
    pytest.param(
        "x", b'\xef\xbb\xbf; comment\n[Event "x"]\n', "pgn", id="PGN after comment and BOM"
    ),
    pytest.param("x", (FILES / "ladder_night_comma.csv").read_bytes(), "csv", id="CSV header"),
    pytest.param(
        "x", (FILES / "ladder_night_semicolon_cp1252.csv").read_bytes(), "csv", id="CSV sep="
    ),
    pytest.param("results.CSV", b"rnd,w,b,r\n", "csv", id="csv by extension"),
    pytest.param("results.pgn", b"", "pgn", id="pgn by extension"),
    pytest.param("results.trfx", b"XXR 9\n", "trf", id="trfx by extension"),
]


@pytest.mark.parametrize(("filename", "data", "expected"), DETECT)
def test_format_is_detected_from_content_then_file_name(filename, data, expected):
    assert detect_format(filename, data) == expected


def test_unknown_format_is_an_error():
    with pytest.raises(ImportFileError) as raised:
        detect_format("photo.jpg", b"\xff\xd8\xff\xe0 JFIF")
    assert "Could not tell what kind of file this is" in raised.value.message


def test_parse_file_refuses_an_unknown_format_name():
    with pytest.raises(ImportFileError) as raised:
        parse_file(b"x", "xlsx")
    assert raised.value.message == "Unknown file format 'xlsx': choose TRF, PGN or CSV."


@pytest.mark.parametrize("fmt", ["TRF", "trf", " Trf "])
def test_format_name_is_case_insensitive(fmt):
    assert parse_file((FILES / "vega_style.trf").read_bytes(), fmt).name == "Torneo di Natale 2023"


UNREADABLE = [
    pytest.param(b"", "The file is empty.", None, id="empty"),
    pytest.param(b" \r\n\n\t ", "The file is empty.", None, id="only whitespace"),
    pytest.param(
        b"001    1 \x00\x00 binary",
        "This is not a text file (it contains NUL bytes).",
        None,
        id="NUL",
    ),
    pytest.param(
        "001 x".encode("utf-16"),
        "The file is saved as UTF-16 text. Save it again as UTF-8 (or ANSI/Windows-1252) and "
        "upload it once more.",
        None,
        id="UTF-16",
    ),
    pytest.param(
        b"012 fine\n001 \x81\x8d\x8f\x90\x9d\n",
        "Line 2: this line is neither UTF-8 nor Windows-1252 text; is this a text file?",
        2,
        id="bytes undefined in Windows-1252",
    ),
    pytest.param(
        b"012 \x01\x02\x03\x04\x05\x06\x07\x08\n",
        "This is not a text file (it contains binary control characters).",
        None,
        id="control characters",
    ),
]


@pytest.mark.parametrize("fmt", ["trf", "pgn", "csv"])
@pytest.mark.parametrize(("data", "message", "line"), UNREADABLE)
def test_unreadable_input_is_refused_by_every_parser(fmt, data, message, line):
    with pytest.raises(ImportFileError) as raised:
        parse_file(data, fmt)
    assert raised.value.message == message
    assert raised.value.line == line


def test_error_is_a_value_error():
    assert issubclass(ImportFileError, ValueError)
