"""FIDE Tournament Report File reader (TRF16, TRF-2026 and the TRF(x) files of pairing engines).

Only these fields are read: the ``001`` player lines (starting rank, name, rating, birth date,
points, final rank and the round cells) and the tournament lines ``012`` (name), ``042`` (start
date), ``092`` (type: whether it says round robin, ``tournament_type``), ``122`` (time
control), ``052`` (end date) and ``132`` (round dates). The last two decide
between the readings of a start date such as ``10.09.13`` (``read_event_dates``), and the first
round date is the start when ``042`` is missing. A ``013`` team record only marks a team
file, whose points column ``trf_points`` reads no bye from. Every other record (the team
lines' contents, JaVaFo/bbpPairings/Tornelo extensions such as ``XXR``, ``XXA``, ``BBU`` and
``DAT``, TRF-2026 records and ``###`` comments, Swiss-Manager column rulers) is skipped, so an
e-mail address anywhere in the file is never read. ``XXA`` acceleration points never count.

A pairing is written twice, once in each player's line; ``trf_results`` joins the halves and
lists what each round cell means. The player lines' columns are read in ``trf_players``, the
dates in ``trf_dates``; this module reads the records and assembles the event.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from .base import (
    ImportedEvent,
    ImportedPlayer,
    ImportFileError,
    Limits,
    clean_text,
    count_rounds,
    decode_lines,
    tournament_type,
)
from .pseudo import is_pseudo_name
from .trf_dates import DateReading, date_readings, read_event_dates, read_round_dates
from .trf_players import PlayerLine, is_junior, read_player_line
from .trf_points import check_points
from .trf_results import pair_rounds

__all__ = ["DateReading", "date_readings", "parse_trf", "read_event_dates"]

# Records that are understood and deliberately not read.
_IGNORED_RECORDS = frozenset(
    {"013", "022", "032", "062", "072", "082", "102", "112", "142", "152"}
    | {"162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299", "300"}
    | {"310", "320", "330", "352", "362", "801", "802", "DAT"}
)
_RULER = re.compile(r"^[\d ]+$")


def parse_trf(
    data: bytes, *, event_date: date | None = None, limits: Limits | None = None
) -> ImportedEvent:
    records = _Records(limits)
    for number, text in enumerate(decode_lines(data), start=1):
        records.read(number, text)
    if not records.players:
        raise ImportFileError(
            "No player lines were found: a FIDE TRF file lists each player on a line that "
            "starts with 001."
        )
    players = records.players
    warnings = records.warnings
    warnings.extend(_skipped_record_warnings(records.unknown))
    start, date_source, date_warnings = read_event_dates(
        records.start_field, records.end_field, records.round_dates, records.round_line
    )
    warnings.extend(date_warnings)
    games = check_points(
        players, pair_rounds(players, warnings), warnings, team_file=records.team_file
    )
    if limits is not None:
        # A game is two halves on two lines, so games are counted once paired; pairing is
        # bounded by the entrants and rounds limits checked line by line above.
        limits.check(games=len(games))
    return ImportedEvent(
        name=records.name,
        date=start,
        time_control=records.time_control,
        rounds=count_rounds(games),
        players=_imported_players(players, event_date or start),
        games=tuple(games),
        warnings=tuple(sorted(warnings, key=_line_of)),
        date_source=date_source,
        round_robin=records.round_robin,
    )


@dataclass
class _Records:
    """What a file's records say, read one line at a time: the player lines, the tournament
    fields (the first one given wins), and the record types nobody reads. With `limits`, a
    file is refused at the player line that passes them."""

    limits: Limits | None
    name: str | None = None
    time_control: str | None = None
    round_robin: bool | None = None  # the 092 type, when it says (tournament_type)
    start_field: tuple[str, int] | None = None
    end_field: tuple[str, int] | None = None
    round_dates: list[date] = field(default_factory=list)
    round_line: int | None = None
    warnings: list[str] = field(default_factory=list)
    players: dict[int, PlayerLine] = field(default_factory=dict)
    unknown: dict[str, list[int]] = field(default_factory=dict)
    # Rounds with a game between two players (others are dropped).
    paired_rounds: set[int] = field(default_factory=set)
    dummies: int = (
        0  # bye dummies by name ("spielfrei"): no entrants (directors/importers/pseudo.py)
    )
    team_file: bool = False  # 013 team records: the points column is no record of the rounds

    def read(self, number: int, text: str) -> None:
        code = text[:3]
        reader = _RECORD_READERS.get(code)
        if reader is not None:
            reader(self, number, text)
        elif not _is_skipped(text, code):
            self.unknown.setdefault(_record_label(code), []).append(number)

    def read_player(self, number: int, text: str) -> None:
        player = read_player_line(text, number)
        if player.key in self.players:
            raise ImportFileError.at(
                number,
                f"starting rank {player.key} is used twice "
                f"(also on line {self.players[player.key].line}).",
            )
        self.players[player.key] = player
        self.warnings.extend(player.notes)
        self.dummies += is_pseudo_name(player.name)
        if self.limits is not None:
            self.paired_rounds.update(r for r, cell in player.cells.items() if cell.opponent)
            self.limits.check(
                entrants=len(self.players) - self.dummies, rounds=len(self.paired_rounds)
            )

    def read_team(self, number: int, text: str) -> None:
        self.team_file = True

    def read_name(self, number: int, text: str) -> None:
        self.name = self.name or clean_text(text[3:]) or None

    def read_start(self, number: int, text: str) -> None:
        value = clean_text(text[3:])
        if value and self.start_field is None:
            self.start_field = (value, number)

    def read_end(self, number: int, text: str) -> None:
        value = clean_text(text[3:])
        if value and self.end_field is None:
            self.end_field = (value, number)

    def read_type(self, number: int, text: str) -> None:
        if self.round_robin is None:
            self.round_robin = tournament_type(text[3:])

    def read_time_control(self, number: int, text: str) -> None:
        self.time_control = self.time_control or clean_text(text[3:]) or None

    def read_round_dates(self, number: int, text: str) -> None:
        dates = read_round_dates(text)
        if dates and self.round_line is None:
            self.round_line = number
        self.round_dates.extend(dates)


_RECORD_READERS: dict[str, Callable[[_Records, int, str], None]] = {
    "001": _Records.read_player,
    "013": _Records.read_team,
    "012": _Records.read_name,
    "042": _Records.read_start,
    "052": _Records.read_end,
    "092": _Records.read_type,
    "122": _Records.read_time_control,
    "132": _Records.read_round_dates,
}


def _skipped_record_warnings(unknown: dict[str, list[int]]) -> list[str]:
    """One warning per record type nobody reads, at its first line."""
    warnings = []
    for label, numbers in unknown.items():
        also = f" (and {len(numbers) - 1} more lines)" if len(numbers) > 1 else ""
        warnings.append(
            f"Line {numbers[0]}: record type {label} is not used and was skipped{also}."
        )
    return warnings


def _imported_players(
    players: dict[int, PlayerLine], on: date | None
) -> tuple[ImportedPlayer, ...]:
    """The player lines as entrants, a junior by their age on the event's date `on`."""
    return tuple(
        ImportedPlayer(
            key=player.key,
            name=player.name,
            rating=player.rating,
            junior=is_junior(player.birth, on),
            declared_points=player.points,
            line=player.line,
            fide_id=player.fide_id,
            federation=player.federation,
            rank=player.rank,
        )
        for player in players.values()
    )


def _is_skipped(text: str, code: str) -> bool:
    stripped = text.strip()
    return (
        not stripped
        or code in _IGNORED_RECORDS
        or code.startswith(("XX", "BB", "###"))
        or stripped.startswith("DDD ")  # Swiss-Manager's column ruler
        or bool(_RULER.match(text))  # the other two rulers: spaced digits, 1234567890...
        or _is_national_rating_record(text)
    )


def _is_national_rating_record(text: str) -> bool:
    """TRF-2026 NRS records: a federation code in 1-3, a starting rank in 5-8."""
    return bool(re.match(r"^[A-Z]{3} [ \d]{3}\d", text))


def _record_label(code: str) -> str:
    stripped = code.strip()
    return f"'{stripped}'" if stripped.isalnum() and stripped.isascii() else "(unrecognised)"


def _line_of(warning: str) -> int:
    match = re.match(r"Line (\d+)", warning)
    return int(match.group(1)) if match else 0
