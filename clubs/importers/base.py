"""The plain structure every importer returns, its one error, and the text helpers they share.

Pure Python: no Django imports.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date

from ladder.results import Result


@dataclass(frozen=True)
class ImportedPlayer:
    key: int  # TRF starting rank; for PGN/CSV 1..n in order of first appearance
    name: str  # as typed (trimmed, internal whitespace collapsed)
    rating: int | None  # rating printed in the file, None if blank/0
    junior: bool | None  # under 18 on the event date, from a birth date; None if unknown
    declared_points: float | None  # TRF points column, None elsewhere
    line: int  # 1-based line number where the player was defined


@dataclass(frozen=True)
class ImportedGame:
    round: int
    white: int  # player key
    black: int | None  # None for a bye
    result: Result
    line: int  # line the game was (first) read from


@dataclass(frozen=True)
class ImportedEvent:
    name: str | None
    date: date | None  # start date
    time_control: str | None
    rounds: int  # rounds that have at least one game or bye stored
    players: tuple[ImportedPlayer, ...]
    games: tuple[ImportedGame, ...]
    warnings: tuple[str, ...]  # human-readable, each naming the line


class ImportFileError(ValueError):
    """The only exception a parser raises. ``message`` is meant for the director."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    @classmethod
    def at(cls, line: int, text: str) -> ImportFileError:
        return cls(f"Line {line}: {text}", line=line)


_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_WHITESPACE = re.compile(r"\s+")
_UTF8_BOM = b"\xef\xbb\xbf"


def decode_lines(data: bytes) -> list[str]:
    """The file's lines as text, without line endings (LF, CRLF and CR all end a line).

    UTF-8 (with or without BOM) is tried strictly first; a file that is not valid UTF-8 is read
    line by line, each line as UTF-8 if it is valid and as Windows-1252 otherwise, so one
    hand-edited line does not garble the rest. Refuses empty, binary and undecodable input.
    """
    if not data.strip():
        raise ImportFileError("The file is empty.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ImportFileError(
            "The file is saved as UTF-16 text. Save it again as UTF-8 (or ANSI/Windows-1252) "
            "and upload it once more."
        )
    if b"\x00" in data:
        raise ImportFileError("This is not a text file (it contains NUL bytes).")
    data = data.removeprefix(_UTF8_BOM).rstrip(b"\x1a")  # \x1a: DOS end-of-file marker
    raw_lines = _LINE_BREAK.split(data)
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()
    try:
        lines = [raw.decode("utf-8") for raw in raw_lines]
    except UnicodeDecodeError:
        lines = [_decode_line(raw, number) for number, raw in enumerate(raw_lines, start=1)]
    text_chars = sum(len(line) for line in lines)
    control_chars = sum(len(_CONTROL.findall(line)) for line in lines)
    if control_chars > max(2, text_chars // 100):
        raise ImportFileError("This is not a text file (it contains binary control characters).")
    return lines


def _decode_line(raw: bytes, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError:
        raise ImportFileError.at(
            number, "this line is neither UTF-8 nor Windows-1252 text; is this a text file?"
        ) from None


def clean_text(value: str) -> str:
    """Trim, drop control characters and collapse internal whitespace."""
    return _WHITESPACE.sub(" ", _CONTROL.sub(" ", value)).strip()


def name_key(name: str) -> str:
    """How two spellings of one name in the same file are recognised as the same person."""
    return unicodedata.normalize("NFC", clean_text(name)).casefold()


def count_rounds(games: list[ImportedGame]) -> int:
    return len({game.round for game in games})
