"""TRF player lines (``001``): the column layout, the round cells, and the birth date.

A line is read by character columns; a UTF-8 line that some program padded by bytes is read
by byte columns when only that reading lines up. Each round cell is checked against the TRF
layout (opponent, colour, result code) here; what the two halves of a pairing mean together
is ``trf_results``.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date

from .base import ImportFileError, clean_text

FIRST_CELL_COLUMN = 92
CELL_WIDTH = 10

_BYE_CODES = frozenset("HFUZ")
_ALL_CODES = frozenset("1=0+-WDLHFUZ") | {""}


@dataclass
class Cell:
    round: int
    opponent: int | None
    colour: str | None  # "w", "b" or None
    code: str  # upper-case result code, "" when blank


@dataclass
class PlayerLine:
    key: int
    name: str
    rating: int | None
    birth: tuple[date, date] | None  # earliest and latest possible birth date
    points: float | None
    line: int
    cells: dict[int, Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    fide_id: str | None = None  # columns 58-68, digits only, "0" read as none
    federation: str | None = None  # columns 54-56, three letters
    rank: int | None = None  # columns 86-89, the file's final rank; blank or 0 read as none


class _Columns:
    """1-based, inclusive column access to a line, by character or by UTF-8 byte."""

    def __init__(self, text: str, *, by_byte: bool = False) -> None:
        self._text = text
        self._raw = text.encode("utf-8") if by_byte else None
        self.width = len(self._raw) if self._raw is not None else len(text)

    def __call__(self, first: int, last: int) -> str:
        if self._raw is not None:
            return self._raw[first - 1 : last].decode("utf-8", "replace")
        return self._text[first - 1 : last]


def read_player_line(text: str, number: int) -> PlayerLine:
    """Read one 001 line. A UTF-8 line that was padded by bytes rather than characters (some
    programs do this) is read by byte columns when that is the only way its columns line up."""
    try:
        player = _read_player_columns(_Columns(text), number)
    except ImportFileError as error:
        if text.isascii():
            raise
        by_byte = _try_by_byte(text, number)
        if by_byte is None:
            raise error from None
        return by_byte
    if player.notes and not text.isascii():
        by_byte = _try_by_byte(text, number)
        if by_byte is not None and not by_byte.notes:
            return by_byte
    return player


def _try_by_byte(text: str, number: int) -> PlayerLine | None:
    try:
        return _read_player_columns(_Columns(text, by_byte=True), number)
    except ImportFileError:
        return None


def _read_player_columns(col: _Columns, number: int) -> PlayerLine:
    notes: list[str] = []
    rank_text = col(5, 8).strip()
    if not rank_text.isdigit() or not rank_text.isascii() or int(rank_text) == 0:
        raise ImportFileError.at(
            number, "a player line needs its starting rank (1-9999) in columns 5-8."
        )
    key = int(rank_text)
    name = clean_text(col(15, 47))
    if not name:
        raise ImportFileError.at(number, f"player {key} has no name in columns 15-47.")
    player = PlayerLine(
        key=key,
        name=name,
        rating=_read_rating(col(49, 52), number, notes),
        birth=_read_birth_date(col(70, 79)),
        points=_read_points(col(81, 84), number, notes),
        line=number,
        notes=notes,
        fide_id=_read_file_id(col(58, 68)),
        federation=_read_federation(col(54, 56)),
        rank=_read_rank(col(86, 89), number, notes),
    )
    round_number = 1
    first = FIRST_CELL_COLUMN
    while first <= col.width:
        cell = _read_cell(col(first, first + CELL_WIDTH - 1), round_number, key, number)
        if cell is not None:
            player.cells[round_number] = cell
        round_number += 1
        first += CELL_WIDTH
    return player


def _read_rating(value: str, number: int, notes: list[str]) -> int | None:
    value = value.strip()
    if not value:
        return None
    if value.isdigit() and value.isascii():
        return int(value) or None
    notes.append(f"Line {number}: the rating in columns 49-52 is not a number; it was left out.")
    return None


def _read_rank(value: str, number: int, notes: list[str]) -> int | None:
    # Lichess leaves it blank and Swiss-Manager writes 0 for a withdrawn player: no rank.
    value = value.strip()
    if not value:
        return None
    if value.isdigit() and value.isascii():
        return int(value) or None
    notes.append(f"Line {number}: the rank in columns 86-89 is not a number; it was left out.")
    return None


def _read_file_id(value: str) -> str | None:
    # Only digits count: anything else in these columns is a program's own note, not an ID.
    value = value.strip()
    if value.isdigit() and value.isascii() and int(value):
        return value
    return None


def _read_federation(value: str) -> str | None:
    value = value.strip()
    return value.upper() if len(value) == 3 and value.isascii() and value.isalpha() else None


def _read_points(value: str, number: int, notes: list[str]) -> float | None:
    value = value.strip().replace(",", ".")
    if not value:
        return None
    if re.fullmatch(r"\d{1,3}(\.\d)?|\.\d", value):
        return float(value)
    notes.append(
        f"Line {number}: the points in columns 81-84 are not a number; they were left out."
    )
    return None


def _read_cell(cell: str, round_number: int, key: int, number: int) -> Cell | None:
    cell = cell.ljust(CELL_WIDTH)
    if not cell.strip():
        return None
    opponent_text, colour_text, code = cell[0:4].strip(), cell[5], cell[7].strip().upper()
    where = f"round {round_number} of player {key}"
    if cell[4] != " " or cell[6] != " " or cell[8:].strip():
        raise ImportFileError.at(
            number,
            f"the cell for {where} does not line up with the TRF columns (opponent, colour and "
            f"result belong in columns {_cell_columns(round_number)}).",
        )
    if opponent_text and not (opponent_text.isdigit() and opponent_text.isascii()):
        raise ImportFileError.at(number, f"the opponent in {where} is not a starting rank number.")
    colour = colour_text.lower()
    if colour not in ("w", "b", "-", " "):
        raise ImportFileError.at(
            number, f"the colour in {where} must be w, b or -, not '{colour_text}'."
        )
    if code not in _ALL_CODES:
        raise ImportFileError.at(
            number,
            f"the result in {where} is '{cell[7]}'; TRF result codes are 1 = 0 + - W D L H F U Z "
            "or blank.",
        )
    opponent = int(opponent_text) if opponent_text else 0
    if opponent and code in _BYE_CODES:
        raise ImportFileError.at(
            number,
            f"{where} names opponent {opponent} but its result '{code}' is a bye, which has "
            "no opponent.",
        )
    return Cell(
        round=round_number,
        opponent=opponent or None,
        colour=colour if colour in ("w", "b") else None,
        code=code,
    )


def _cell_columns(round_number: int) -> str:
    first = FIRST_CELL_COLUMN + CELL_WIDTH * (round_number - 1)
    return f"{first}-{first + 3}, {first + 5} and {first + 7}"


# --- birth dates and the junior flag --------------------------------------------------------


def _read_birth_date(value: str) -> tuple[date, date] | None:
    """The earliest and latest birth date the field allows (year only, month unknown, ...)."""
    value = value.strip()
    match = re.fullmatch(r"(\d{4})(?:[/.-](\d{1,2})(?:[/.-](\d{1,2}))?)?", value)
    if match:
        year, month, day = (int(part) if part else 0 for part in match.groups())
    else:
        match = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", value)
        if not match:
            return None
        day, month, year = (int(part) for part in match.groups())
    if not 1900 <= year <= 2100 or month > 12:
        return None
    if month == 0:
        return date(year, 1, 1), date(year, 12, 31)
    last_day = calendar.monthrange(year, month)[1]
    if day == 0:
        return date(year, month, 1), date(year, month, last_day)
    if day > last_day:
        return None
    born = date(year, month, day)
    return born, born


def is_junior(birth: tuple[date, date] | None, on: date | None) -> bool | None:
    """Under 18 on the event date; None when the birth date or event date is unknown or the
    birth date is too vague to tell (a birth year alone, 18 years before the event)."""
    if birth is None or on is None:
        return None
    earliest, latest = birth
    if earliest > on:
        return None
    if _age(earliest, on) < 18:
        return True
    if _age(latest, on) >= 18:
        return False
    return None


def _age(born: date, on: date) -> int:
    return on.year - born.year - ((on.month, on.day) < (born.month, born.day))
