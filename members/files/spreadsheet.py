"""CSV that no spreadsheet, in any locale, reads as a formula. Plain Python, no Django.

Excel and LibreOffice in Dutch or German locales split a CSV on `;`, others on `,`,
some on a tab. A cell is quoted when it holds any of those separators, a quote or a
line break, which keeps it one cell for a spreadsheet splitting on `,`. A spreadsheet
splitting on `;` does not see those quotes (they are not at the start of its cell), so
every piece of a text that starts (after spaces) like a formula, at the start or after
any separator, gets a `'` in front: however a line is split, no cell starts with `=`,
`+`, `-` or `@`. Numbers stay numbers: a rating change of -12.5 is written as is, and so
is a text that is exactly a plain number.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

FORMULA_STARTS = frozenset("=+-@")
SEPARATORS = ";,\t\r\n"
_SEPARATOR_SPLIT = re.compile(r"[;,\t\r\n]")
_NEEDS_QUOTES = re.compile(r'[;,\t\r\n"]')
# A text that is exactly a plain number is harmless and should stay numeric.
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _is_formula(piece: str) -> bool:
    stripped = piece.lstrip(" \t\r\n")
    return stripped[:1] in FORMULA_STARTS and not _PLAIN_NUMBER.fullmatch(stripped)


def looks_like_formula(text: str) -> bool:
    """True when the text, or any piece after a separator, starts like a formula."""
    if text[:1] in ("\t", "\r"):  # some spreadsheets drop these and read on
        return True
    return any(_is_formula(piece) for piece in _SEPARATOR_SPLIT.split(text))


def defused(text: str) -> str:
    """The text with a `'` before the start and every piece that would begin a formula."""
    if not looks_like_formula(text):
        return text
    pieces = _SEPARATOR_SPLIT.split(text)
    separators = _SEPARATOR_SPLIT.findall(text)
    safe = ["'" + piece if _is_formula(piece) else piece for piece in pieces]
    if not safe[0].startswith("'"):
        safe[0] = "'" + safe[0]
    return safe[0] + "".join(sep + piece for sep, piece in zip(separators, safe[1:], strict=True))


def undefused(text: str) -> str:
    """The text `defused` was given, when `text` is what it wrote; any other text as it is.

    So a file we wrote reads back as it was ("+/-" stays a forfeit, "-Ann" keeps her name),
    while a name that really starts with an apostrophe ("'t Hart") is left alone.
    """
    if not text.startswith("'"):
        return text
    pieces = _SEPARATOR_SPLIT.split(text)
    separators = _SEPARATOR_SPLIT.findall(text)
    plain = [
        piece[1:] if piece.startswith("'") and _is_formula(piece[1:]) else piece for piece in pieces
    ]
    if plain[0] == pieces[0]:
        plain[0] = pieces[0][1:]
    candidate = plain[0] + "".join(
        sep + piece for sep, piece in zip(separators, plain[1:], strict=True)
    )
    return candidate if defused(candidate) == text else text


def cell_text(value: object) -> str:
    """One value as a CSV cell's text, defused; not yet quoted."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value) if isinstance(value, float) else str(value)
    return defused(str(value))


def quoted(text: str) -> str:
    if _NEEDS_QUOTES.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_line(cells: Iterable[object]) -> str:
    return ",".join(quoted(cell_text(cell)) for cell in cells) + "\r\n"


def csv_table(fields: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A header line and one line per row, every cell defused and quoted as needed."""
    return csv_line(fields) + "".join(csv_line(row) for row in rows)
