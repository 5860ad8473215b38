"""CSV cells no spreadsheet reads as a formula, whichever separator its locale splits on."""

from __future__ import annotations

import csv
import io
import re

import pytest

from members.files.spreadsheet import cell_text, csv_table, looks_like_formula

HOSTILE = [
    "=HYPERLINK(1)",
    ";=cmd|' /C calc'!A0;",
    ",=cmd|' /C calc'!A0",
    "Ann;+1+1",
    "Ann, -2+3",
    "Ann\t@SUM(A1)",
    "Ann\n=1+1",
    "Ann\r\n=1+1",
    "   =1+1",
    "x;   @A1",
    "\t=1",
    '";=1;"',
    "-1+1",
    "+31 6 1234",
    "@everyone",
]
FORMULA_CHARACTERS = ("=", "+", "-", "@")
PLAIN_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def starts_a_formula(cell: str) -> bool:
    stripped = cell.lstrip(" \t\r\n")
    return stripped.startswith(FORMULA_CHARACTERS) and not PLAIN_NUMBER.fullmatch(stripped)


def spreadsheet_cells(text: str, delimiter: str) -> list[str]:
    """Every cell as a spreadsheet splitting on `delimiter` (and honouring quotes) sees it."""
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    return [cell for row in rows for cell in row]


@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
@pytest.mark.parametrize("name", HOSTILE)
def test_no_cell_starts_like_a_formula_in_a_semicolon_comma_or_tab_spreadsheet(name, delimiter):
    text = csv_table(["rank", "name", "rating"], [[1, name, 1500]])
    for cell in spreadsheet_cells(text, delimiter):
        assert not starts_a_formula(cell), (name, cell)


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_stays_one_cell_that_only_gains_quotes(name):
    text = csv_table(["rank", "name", "rating"], [[1, name, 1500]])
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert len(rows[1]) == 3
    assert rows[1][1].startswith("'")
    assert rows[1][1].replace("'", "") == name.replace("'", "")  # only quotes were added


def test_a_field_with_a_semicolon_is_quoted_although_the_file_uses_commas():
    assert csv_table(["name"], [["Bos; Henk"]]) == 'name\r\n"Bos; Henk"\r\n'


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (-12.5, "-12.5"),
        (-3, "-3"),
        (1500, "1500"),
        (12.3, "12.3"),
        ("-12.5", "-12.5"),
        ("+3", "+3"),
        (None, ""),
        (True, "true"),
        ("Ann Alder", "Ann Alder"),
        ("Anne-Marie Smit", "Anne-Marie Smit"),
        ("O'Neill, Pat", "O'Neill, Pat"),
    ],
)
def test_numbers_and_ordinary_names_are_written_unchanged(value, written):
    assert cell_text(value) == written


@pytest.mark.parametrize(
    ("text", "formula"),
    [
        ("Smith, -John", True),
        ("Smith - John", False),
        ("e-mail", False),
        ("-5", False),
        ("-5-5", True),
        (" @x", True),
    ],
)
def test_a_formula_is_spotted_at_the_start_and_after_any_separator(text, formula):
    assert looks_like_formula(text) is formula


def test_every_piece_that_would_start_a_formula_gets_a_quote():
    assert cell_text(";=cmd|' /C calc'!A0;") == "';'=cmd|' /C calc'!A0;"
    assert cell_text("Bos\n  +1+1") == "'Bos\n'  +1+1"
    assert cell_text("Bos, -5") == "Bos, -5"
