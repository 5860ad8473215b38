"""The plain structure every importer returns, its one error, and the text helpers they share.

Pure Python: no Django imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from clubs.results import Result
from matching.normalize import clean_name


@dataclass(frozen=True)
class ImportedPlayer:
    key: int  # TRF starting rank; for PGN/CSV 1..n in order of first appearance
    name: str  # as typed, through `clean_name` (NFC, no invisible characters, plain spaces)
    rating: int | None  # rating printed in the file, None if blank/0
    junior: bool | None  # under 18 on the event date, from a birth date; None if unknown
    declared_points: float | None  # TRF points column, None elsewhere
    line: int  # 1-based line number where the player was defined
    # The file's public rating-list columns, when it has them: the player's ID (TRF columns
    # 58-68 or a PGN WhiteFideId/BlackFideId tag; digits only) and federation (TRF 54-56).
    fide_id: str | None = None
    federation: str | None = None
    # The file's own final rank (TRF columns 86-89), None when blank, 0 or in another format.
    rank: int | None = None

    def __post_init__(self) -> None:
        # Every parser (and the results grid) builds its players here, so a name that
        # would show a zero-width space or a no-break space on a page is cleaned once,
        # for all of them.
        object.__setattr__(self, "name", clean_name(self.name))


@dataclass(frozen=True)
class ImportedGame:
    round: int
    white: int  # player key
    black: int | None  # None for a bye
    result: Result
    line: int  # line the game was (first) read from
    # The variant's name when the game was not standard chess (PGN Variant tag, or a start
    # position other than the normal one); empty for standard chess. Never rated.
    variant: str = ""


@dataclass(frozen=True)
class ImportedEvent:
    name: str | None
    date: date | None  # start date
    time_control: str | None
    rounds: int  # rounds that have at least one game or bye stored
    players: tuple[ImportedPlayer, ...]
    games: tuple[ImportedGame, ...]
    warnings: tuple[str, ...]  # human-readable, each naming the line
    # The file gave no round numbers, so the importer numbered the games into rounds in
    # file order; the director may change them.
    rounds_from_order: bool = False
    # Where ``date`` came from, for the import summary and preview; None when it is unknown.
    date_source: DateSource | None = None
    # What the file says the tournament was: a round robin (True), a Swiss or another paired
    # system (False), or nothing (None). Never guessed from the games (tournament_type).
    round_robin: bool | None = None


# The words a tournament's type is written with (TRF 092, PGN EventType), lower case.
_ROUND_ROBIN_WORDS = frozenset({"robin", "roundrobin", "rr", "rundenturnier", "berger"})
_ROUND_ROBIN_PHRASES = ("all play all", "toutes rondes", "todos contra todos", "all italiana")
_PAIRED_WORDS = frozenset(
    {"swiss", "schweizer", "suizo", "svizzero", "suisse", "dutch", "monrad", "knockout"}
)


def tournament_type(text: str) -> bool | None:
    """Whether a file's stated tournament type (TRF ``092`` "Individual: Swiss-System", PGN
    ``EventType`` "rr") is a round robin: True, False for a Swiss or another paired system,
    None when it says neither (an empty record, a team file's bare "Team")."""
    words = re.findall(r"[a-z]+", text.lower())
    said = f" {' '.join(words)} "
    phrases = any(f" {phrase} " in said for phrase in _ROUND_ROBIN_PHRASES)
    if phrases or _ROUND_ROBIN_WORDS.intersection(words):
        return True
    if any(word in said for word in _PAIRED_WORDS):  # "IndividualDutch FIDE (JaVaFo)"
        return False
    return None


@dataclass(frozen=True)
class DateSource:
    """Which record of the file gave the event's date, and how its digits were read.

    A date such as ``10.09.13`` has several readings; the one that agrees with the file's
    other dates (end date, round dates) is taken, and any other that stays possible is kept
    here so that the director is shown both.
    """

    record: str  # "042" (start date) or "132" (first round date)
    line: int
    written: str  # as in the file
    pattern: str  # how it was read, e.g. "YY.MM.DD"; "" for a date written with a month name
    agrees_with: tuple[str, ...] = ()  # records that decided between readings: "052", "132"
    alternatives: tuple[tuple[date, str], ...] = ()  # other readings (date, pattern) still possible
    contradicted_by: tuple[str, ...] = ()  # records no reading of the date agrees with


class ImportFileError(ValueError):
    """The only exception a parser raises. ``message`` is meant for the director."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line

    @classmethod
    def at(cls, line: int, text: str) -> ImportFileError:
        return cls(f"Line {line}: {text}", line=line)


class SeveralEventsError(ImportFileError):
    """The file holds games of more than one event; ``events`` lists (name, games) in file order.

    The caller asks which one to import and parses again with that event's name.
    """

    def __init__(self, message: str, events: tuple[tuple[str, int], ...]) -> None:
        super().__init__(message)
        self.events = events


@dataclass(frozen=True)
class Limits:
    """The most one event may hold (settings.EVENT_MAX_*) and the most bytes its file may be.

    A parser stops reading at the first entrant, round or game past a limit, so a huge file
    costs no more work than the largest event allowed.
    """

    entrants: int
    rounds: int
    games: int  # games and byes together
    file_bytes: int

    def check(self, *, entrants: int = 0, rounds: int = 0, games: int = 0) -> None:
        """Raise ``TooLargeError`` for the first count that is past its limit."""
        for what, count, limit in (
            ("entrants", entrants, self.entrants),
            ("rounds", rounds, self.rounds),
            ("games", games, self.games),
        ):
            if count > limit:
                raise TooLargeError(what, limit)


class TooLargeError(ImportFileError):
    """A file past one of the ``Limits``; ``what`` is "entrants", "rounds", "games" or "bytes".

    Raised as soon as the limit is passed, so the file's full count is not known: the message
    says "more than". The web screens show it in the director's language
    (directors/events/results.py).
    """

    _WHAT = {"entrants": "entrants", "rounds": "rounds", "games": "games and byes"}

    def __init__(self, what: str, limit: int) -> None:
        if what == "bytes":
            message = f"The file is larger than {limit:,} bytes, the most a results file may be."
        else:
            message = (
                f"These results have more than {limit:,} {self._WHAT[what]}; "
                f"an event can have at most {limit:,}."
            )
        super().__init__(message)
        self.what = what
        self.limit = limit


class Tally:
    """What a parser has read so far of one event, refused at the first game past a limit."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.games = 0
        self.names: set[str] = set()  # name keys
        self.rounds: set[int] = set()

    def add(self, names: list[str], round_number: int | None) -> None:
        self.games += 1
        self.names.update(names)
        if round_number is not None:
            self.rounds.add(round_number)
        self.limits.check(entrants=len(self.names), rounds=len(self.rounds), games=self.games)


UNLIMITED = Limits(entrants=2**62, rounds=2**62, games=2**62, file_bytes=2**62)


def check_file_size(data: bytes, limits: Limits) -> None:
    if len(data) > limits.file_bytes:
        raise TooLargeError("bytes", limits.file_bytes)


_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
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
    """Trim, drop control and invisible characters, make every space a plain one and collapse
    runs of them, NFC: `matching.normalize.clean_name`, for names and every other field."""
    return clean_name(value)


def name_key(name: str) -> str:
    """How two spellings of one name in the same file are recognised as the same person
    ("Anna\u200b de Vries" and "Anna de Vries" are one)."""
    return clean_name(name).casefold()


def count_rounds(games: list[ImportedGame]) -> int:
    return len({game.round for game in games})
