"""Result-file importers: FIDE TRF, PGN and CSV to one plain structure.

Pure Python (no Django): ``parse_file`` returns an ``ImportedEvent`` or raises
``ImportFileError`` with a message for the director that names the line.
"""

from __future__ import annotations

import re
from datetime import date

from .base import (
    UNLIMITED,
    ImportedEvent,
    ImportedGame,
    ImportedPlayer,
    ImportFileError,
    Limits,
    SeveralEventsError,
    TooLargeError,
    check_file_size,
)
from .csvfile import parse_csv
from .pgn import parse_pgn
from .pseudo import without_pseudo_players
from .trf import parse_trf

__all__ = [
    "ImportFileError",
    "ImportedEvent",
    "ImportedGame",
    "ImportedPlayer",
    "Limits",
    "SeveralEventsError",
    "TooLargeError",
    "detect_format",
    "parse_file",
]

_EXTENSIONS = {".trf": "trf", ".trfx": "trf", ".txt": "trf", ".pgn": "pgn", ".csv": "csv"}
_CSV_HEADER = re.compile(r"(?=.*\bround\b)(?=.*\bwhite\b)(?=.*\bblack\b)(?=.*\bresult\b)", re.I)


def parse_file(
    data: bytes,
    fmt: str,
    *,
    event_date: date | None = None,
    event: str | None = None,
    limits: Limits | None = None,
) -> ImportedEvent:
    """Read an uploaded results file. ``event_date`` (the date the director gave the event)
    decides who was a junior; without it the file's own start date is used. ``event`` picks
    one event of a PGN file holding several (TRF and CSV files hold one). With ``limits``
    the file is refused (``TooLargeError``) as soon as reading it passes one."""
    kind = fmt.strip().lower()
    bounds = limits or UNLIMITED
    check_file_size(data, bounds)
    if kind == "trf":
        parsed = parse_trf(data, event_date=event_date, limits=bounds)
    elif kind == "pgn":
        parsed = parse_pgn(data, event=event, limits=bounds)
    elif kind == "csv":
        parsed = parse_csv(data, limits=bounds)
    else:
        raise ImportFileError(f"Unknown file format '{fmt}': choose TRF, PGN or CSV.")
    # Whatever the program, a bye dummy ("spielfrei") is no entrant (directors.importers.pseudo).
    return without_pseudo_players(parsed)


def detect_format(filename: str, data: bytes) -> str:
    """'trf', 'pgn' or 'csv', from the content when it is clear, else from the file name."""
    head = data[:65536].decode("utf-8", "replace").lstrip("\ufeff")
    lines = [line for line in re.split(r"\r\n|\r|\n", head) if line.strip()]
    content = [line for line in lines if not line.startswith(("%", ";"))]
    if content and content[0].lstrip().startswith("["):
        return "pgn"
    if any(line.startswith("001 ") for line in lines):
        return "trf"
    if lines and (_CSV_HEADER.match(lines[0]) or lines[0].strip().lower().startswith("sep=")):
        return "csv"
    extension = filename[filename.rfind(".") :].lower() if "." in filename else ""
    if extension in _EXTENSIONS:
        return _EXTENSIONS[extension]
    raise ImportFileError(
        "Could not tell what kind of file this is. Upload a FIDE TRF file (.trf), "
        "a PGN file (.pgn) or a CSV file (.csv) with the columns round, white, black, result."
    )
