"""FIDE Tournament Report File reader (TRF16, TRF-2026 and the TRF(x) files of pairing engines).

Only these fields are read: the ``001`` player lines (starting rank, name, rating, birth date,
points and the round cells) and the tournament lines ``012`` (name), ``042`` (start date),
``122`` (time control), ``052`` (end date) and ``132`` (round dates). The last two decide
between the readings of a start date such as ``10.09.13`` (``read_event_dates``), and the first
round date is the start when ``042`` is missing. Every other
record (team lines, JaVaFo/bbpPairings/Tornelo extensions such as ``XXR``, ``XXA``, ``BBU`` and
``DAT``, TRF-2026 records and ``###`` comments, Swiss-Manager column rulers) is skipped, so an
e-mail address anywhere in the file is never read. ``XXA`` acceleration points never count.

A pairing is written twice, once in each player's line; it is stored once and both halves must
agree. Round cells map to results as follows (letter codes are case-insensitive):

==========================  ====================================================
both halves                 result (by colour)
==========================  ====================================================
``1``/``0``, ``=``/``=``    WHITE_WIN, DRAW, BLACK_WIN
``+``/``-``                 WHITE_FORFEIT_WIN or BLACK_FORFEIT_WIN
``-``/``-``                 DOUBLE_FORFEIT
``W``/``L``, ``D``/``D``    UNRATED_WHITE_WIN, UNRATED_DRAW, UNRATED_BLACK_WIN
blank/blank                 NO_RESULT (paired, result not entered yet)
==========================  ====================================================

Without an opponent (``0000`` or blank): ``H`` half-point bye, ``F`` or ``+`` full-point bye,
``U`` pairing-allocated bye, ``Z`` zero-point bye; ``1``/``W``, ``=``/``D`` and ``0``/``L``
are read as full, half and zero-point byes (Vega writes ``0000 - =`` for a half-point bye);
blank or ``-`` means absent and stores nothing.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, timedelta

from ladder.results import Result

from .base import (
    DateSource,
    ImportedEvent,
    ImportedGame,
    ImportedPlayer,
    ImportFileError,
    clean_text,
    count_rounds,
    decode_lines,
    name_key,
)

FIRST_CELL_COLUMN = 92
CELL_WIDTH = 10

_BYE_CODES = frozenset("HFUZ")
_ALL_CODES = frozenset("1=0+-WDLHFUZ") | {""}

# Result codes of the two halves of one pairing, seen from the first half: (white wins,
# draw, black wins) is decided later from the colours.
_OUTCOMES: dict[tuple[str, str], str] = {
    ("1", "0"): "first",
    ("0", "1"): "second",
    ("=", "="): "draw",
    ("+", "-"): "first_forfeit",
    ("-", "+"): "second_forfeit",
    ("-", "-"): "double_forfeit",
    ("W", "L"): "first_unrated",
    ("L", "W"): "second_unrated",
    ("D", "D"): "draw_unrated",
    ("", ""): "no_result",
}

_BYES_WITHOUT_OPPONENT: dict[str, Result] = {
    "H": Result.BYE_HALF,
    "F": Result.BYE_FULL,
    "U": Result.BYE_PAIRING,
    "Z": Result.BYE_ZERO,
    "+": Result.BYE_FULL,
    "1": Result.BYE_FULL,
    "W": Result.BYE_FULL,
    "=": Result.BYE_HALF,
    "D": Result.BYE_HALF,
    "0": Result.BYE_ZERO,
    "L": Result.BYE_ZERO,
}

# What each cell is worth under the default scoring, to check the points column against.
_CELL_POINTS: dict[str, float] = {
    **dict.fromkeys("1+WFU", 1.0),
    **dict.fromkeys("=DH", 0.5),
}

# Names that tournament programs give the dummy opponent of a bye.
_PLACEHOLDER_NAMES = frozenset(
    {"spielfrei", "freilos", "bye", "bye player", "exempt", "descanso", "vrij", "vrijgeloot"}
)

# Records that are understood and deliberately not read.
_IGNORED_RECORDS = frozenset(
    {"013", "022", "032", "062", "072", "082", "092", "102", "112", "142", "152"}
    | {"162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299", "300"}
    | {"310", "320", "330", "352", "362", "801", "802", "DAT"}
)
_RULER = re.compile(r"^[\d ]+$")


@dataclass
class _Cell:
    round: int
    opponent: int | None
    colour: str | None  # "w", "b" or None
    code: str  # upper-case result code, "" when blank


@dataclass
class _PlayerLine:
    key: int
    name: str
    rating: int | None
    birth: tuple[date, date] | None  # earliest and latest possible birth date
    points: float | None
    line: int
    cells: dict[int, _Cell] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def parse_trf(data: bytes, *, event_date: date | None = None) -> ImportedEvent:
    lines = decode_lines(data)
    name: str | None = None
    time_control: str | None = None
    start_field: tuple[str, int] | None = None
    end_field: tuple[str, int] | None = None
    round_dates: list[date] = []
    round_line: int | None = None
    warnings: list[str] = []
    players: dict[int, _PlayerLine] = {}
    unknown: dict[str, list[int]] = {}

    for number, text in enumerate(lines, start=1):
        code = text[:3]
        if code == "001":
            player = _read_player_line(text, number)
            if player.key in players:
                raise ImportFileError.at(
                    number,
                    f"starting rank {player.key} is used twice "
                    f"(also on line {players[player.key].line}).",
                )
            players[player.key] = player
            warnings.extend(player.notes)
        elif code == "012":
            name = name or clean_text(text[3:]) or None
        elif code == "042":
            value = clean_text(text[3:])
            if value and start_field is None:
                start_field = (value, number)
        elif code == "052":
            value = clean_text(text[3:])
            if value and end_field is None:
                end_field = (value, number)
        elif code == "122":
            time_control = time_control or clean_text(text[3:]) or None
        elif code == "132":
            dates = _read_round_dates(text)
            if dates and round_line is None:
                round_line = number
            round_dates.extend(dates)
        elif _is_skipped(text, code):
            continue
        else:
            unknown.setdefault(_record_label(code), []).append(number)

    if not players:
        raise ImportFileError(
            "No player lines were found: a FIDE TRF file lists each player on a line that "
            "starts with 001."
        )
    for label, numbers in unknown.items():
        also = f" (and {len(numbers) - 1} more lines)" if len(numbers) > 1 else ""
        warnings.append(
            f"Line {numbers[0]}: record type {label} is not used and was skipped{also}."
        )

    start, date_source, date_warnings = read_event_dates(
        start_field, end_field, round_dates, round_line
    )
    warnings.extend(date_warnings)
    on = event_date or start
    games = _pair_rounds(players, warnings)
    _check_points(players, warnings)

    imported_players = []
    for player in players.values():
        if name_key(player.name) in _PLACEHOLDER_NAMES:
            warnings.append(
                f"Line {player.line}: '{player.name}' (player {player.key}) looks like the "
                "placeholder a tournament program writes for a bye, not a person."
            )
        imported_players.append(
            ImportedPlayer(
                key=player.key,
                name=player.name,
                rating=player.rating,
                junior=_is_junior(player.birth, on),
                declared_points=player.points,
                line=player.line,
            )
        )
    return ImportedEvent(
        name=name,
        date=start,
        time_control=time_control,
        rounds=count_rounds(games),
        players=tuple(imported_players),
        games=tuple(games),
        warnings=tuple(sorted(warnings, key=_line_of)),
        date_source=date_source,
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


# --- player lines ---------------------------------------------------------------------------


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


def _read_player_line(text: str, number: int) -> _PlayerLine:
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


def _try_by_byte(text: str, number: int) -> _PlayerLine | None:
    try:
        return _read_player_columns(_Columns(text, by_byte=True), number)
    except ImportFileError:
        return None


def _read_player_columns(col: _Columns, number: int) -> _PlayerLine:
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
    player = _PlayerLine(
        key=key,
        name=name,
        rating=_read_rating(col(49, 52), number, notes),
        birth=_read_birth_date(col(70, 79)),
        points=_read_points(col(81, 84), number, notes),
        line=number,
        notes=notes,
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


def _read_cell(cell: str, round_number: int, key: int, number: int) -> _Cell | None:
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
    return _Cell(
        round=round_number,
        opponent=opponent or None,
        colour=colour if colour in ("w", "b") else None,
        code=code,
    )


def _cell_columns(round_number: int) -> str:
    first = FIRST_CELL_COLUMN + CELL_WIDTH * (round_number - 1)
    return f"{first}-{first + 3}, {first + 5} and {first + 7}"


# --- pairing the two halves -----------------------------------------------------------------


def _pair_rounds(players: dict[int, _PlayerLine], warnings: list[str]) -> list[ImportedGame]:
    games: list[ImportedGame] = []
    byes: list[ImportedGame] = []
    paired_rounds: set[int] = set()
    done: set[tuple[int, int, int]] = set()
    ordered = sorted(players.values(), key=lambda player: player.line)
    for player in ordered:
        for cell in player.cells.values():
            if cell.opponent is None:
                result = _BYES_WITHOUT_OPPONENT.get(cell.code)
                if result is not None:
                    byes.append(ImportedGame(cell.round, player.key, None, result, player.line))
                continue
            paired_rounds.add(cell.round)
            pair = (cell.round, *sorted((player.key, cell.opponent)))
            if pair in done:
                continue
            done.add(pair)
            games.append(_join_halves(player, cell, players, warnings))

    unplayed_rounds: dict[int, list[int]] = {}
    for bye in byes:
        if bye.round in paired_rounds:
            games.append(bye)
        else:
            unplayed_rounds.setdefault(bye.round, []).append(bye.line)
    for round_number, numbers in sorted(unplayed_rounds.items()):
        warnings.append(
            f"Line {numbers[0]}: round {round_number} has no game between two players, only "
            f"byes or absences ({len(numbers)} of them); it looks announced but not played, "
            "so nothing was stored for it."
        )
    games.sort(key=lambda game: (game.round, game.line, game.black is None))
    return games


def _join_halves(
    first: _PlayerLine, cell: _Cell, players: dict[int, _PlayerLine], warnings: list[str]
) -> ImportedGame:
    round_number = cell.round
    assert cell.opponent is not None
    if cell.opponent == first.key:
        raise ImportFileError.at(
            first.line, f"in round {round_number} player {first.key} is paired with themselves."
        )
    second = players.get(cell.opponent)
    if second is None:
        raise ImportFileError.at(
            first.line,
            f"round {round_number} names opponent {cell.opponent}, but no player line (001) "
            f"has starting rank {cell.opponent}.",
        )
    other = second.cells.get(round_number)
    if other is None or other.opponent != first.key:
        found = (
            "no opponent"
            if other is None or other.opponent is None
            else f"player {other.opponent} as the opponent"
        )
        raise ImportFileError.at(
            first.line,
            f"round {round_number} says player {first.key} played player {second.key}, but "
            f"line {second.line} (player {second.key}) gives {found} in round {round_number}.",
        )

    outcome = _OUTCOMES.get((cell.code, other.code))
    if outcome is None:
        raise ImportFileError.at(
            first.line,
            f"round {round_number} gives player {first.key} the result "
            f"'{_show_code(cell.code)}' against player {second.key}, but line {second.line} "
            f"gives player {second.key} '{_show_code(other.code)}'; the two halves must match "
            "(1 with 0, = with =, + with -, - with -, W with L, D with D).",
        )
    if cell.colour is not None and cell.colour == other.colour:
        side = "White" if cell.colour == "w" else "Black"
        raise ImportFileError.at(
            first.line,
            f"round {round_number} gives player {first.key} {side} against player {second.key}, "
            f"but line {second.line} gives player {second.key} {side} too.",
        )
    first_is_white = cell.colour == "w" or other.colour == "b"
    if cell.colour is None and other.colour is None:
        first_is_white = True
        if outcome not in ("first_forfeit", "second_forfeit", "double_forfeit"):
            warnings.append(
                f"Line {first.line}: neither this line nor line {second.line} gives the colours "
                f"of player {first.key} and player {second.key} in round {round_number}; "
                f"player {first.key} (the earlier line) was taken as White."
            )
    result = _result_for(outcome, first_is_white)
    white, black = (first, second) if first_is_white else (second, first)
    return ImportedGame(round_number, white.key, black.key, result, first.line)


def _result_for(outcome: str, first_is_white: bool) -> Result:
    if outcome == "draw":
        return Result.DRAW
    if outcome == "draw_unrated":
        return Result.UNRATED_DRAW
    if outcome == "double_forfeit":
        return Result.DOUBLE_FORFEIT
    if outcome == "no_result":
        return Result.NO_RESULT
    white_won = outcome.startswith("first") == first_is_white
    if outcome.endswith("forfeit"):
        return Result.WHITE_FORFEIT_WIN if white_won else Result.BLACK_FORFEIT_WIN
    if outcome.endswith("unrated"):
        return Result.UNRATED_WHITE_WIN if white_won else Result.UNRATED_BLACK_WIN
    return Result.WHITE_WIN if white_won else Result.BLACK_WIN


def _show_code(code: str) -> str:
    return code or "blank"


def _check_points(players: dict[int, _PlayerLine], warnings: list[str]) -> None:
    for player in players.values():
        if player.points is None:
            continue
        counted = sum(_CELL_POINTS.get(cell.code, 0.0) for cell in player.cells.values())
        if abs(counted - player.points) > 0.01:
            warnings.append(
                f"Line {player.line}: the points column says {player.points:g} for player "
                f"{player.key}, but the round results add up to {counted:g}; the round results "
                "were used."
            )


# --- dates ----------------------------------------------------------------------------------

_MONTH_NAMES = (  # English, German, French, Spanish, Italian, Dutch, Portuguese
    "january jan januar jänner janvier enero gennaio januari janeiro",
    "february feb februar fevrier février febrero febbraio februari fevereiro",
    "march mar märz maerz marz mars marzo maart março",
    "april apr avril abril aprile",
    "may mai mayo maggio mei maio",
    "june jun juni juin junio giugno junho",
    "july jul juli juillet julio luglio julho",
    "august aug aout août agosto augustus",
    "september sep sept septembre septiembre settembre setembro",
    "october oct oktober okt octobre octubre ottobre outubro",
    "november nov novembre noviembre novembro",
    "december dec dezember dez décembre decembre diciembre dicembre dezembro",
)
_MONTHS = {name: number for number, names in enumerate(_MONTH_NAMES, 1) for name in names.split()}

_NUMERIC_DATE = re.compile(r"^(\d{1,4})\s*([./-])\s*(\d{1,2})\s*[./-]\s*(\d{1,4})$")
_ISO_PREFIX = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ]|$)")


# A start and end date further apart than this are no one event (a league season runs
# September to May); a reading that needs a longer span is not plausible.
MAX_EVENT_SPAN = timedelta(days=400)


@dataclass(frozen=True)
class DateReading:
    day: date
    pattern: str  # how the digits were read, e.g. "DD.MM.YY"; "" for a worded date


def date_readings(value: str) -> list[DateReading]:
    """Every valid reading of a date as written in a 042 or 052 line, the usual one first.

    Real files write ``DD.MM.YY``, ``YY.MM.DD``, ``DD.MM.YYYY``, ``YYYY/MM/DD``,
    ``YYYY.MM.DD`` and American ``MM/DD/YYYY``, so ``10.09.13`` and ``03/09/2024`` have two
    readings; the other dates of the file decide between them (``read_event_dates``).
    """
    value = value.strip()
    match = _NUMERIC_DATE.match(value)
    if match:
        first, separator, middle, last = match.groups()
        a, b, c = int(first), int(middle), int(last)
        if len(first) == 4:
            options = [(a, b, c, "YYYY.MM.DD")]
        elif len(first) == 3 or len(last) == 3:
            options = []
        elif len(last) == 4:
            options = [(c, b, a, "DD.MM.YYYY"), (c, a, b, "MM.DD.YYYY")]
        else:
            day_first = (_full_year(c), b, a, "DD.MM.YY")
            year_first = (_full_year(a), b, c, "YY.MM.DD")  # as TRF writes round dates
            # Dots are the European day-first habit; slashes and dashes the TRF year-first one.
            options = [day_first, year_first] if separator == "." else [year_first, day_first]
        readings: list[DateReading] = []
        for year, month, day, pattern in options:
            parsed = _make_date(year, month, day)
            if parsed is not None and all(parsed != r.day for r in readings):
                readings.append(DateReading(parsed, pattern.replace(".", separator)))
        return readings
    match = _ISO_PREFIX.match(value)
    if match:
        year, month, day = (int(part) for part in match.groups())
        parsed = _make_date(year, month, day)
        return [DateReading(parsed, "YYYY-MM-DD")] if parsed is not None else []
    worded = _parse_worded_date(value)
    return [DateReading(worded, "")] if worded is not None else []


def read_event_dates(
    start: tuple[str, int] | None,
    end: tuple[str, int] | None,
    round_dates: list[date],
    round_line: int | None,
) -> tuple[date | None, DateSource | None, list[str]]:
    """The event's start date, where it came from, and warnings about it.

    ``start`` and ``end`` are the 042 and 052 texts with their line numbers; ``round_dates``
    the 132 dates (read year first, as TRF defines them). A reading of the start date fits
    when start <= end, every round date lies between them, and the span is plausible. The
    one reading that fits is taken; when two still fit, the usual one is taken and both are
    named; when none fits, the usual one is taken and the disagreement is named. Without a
    readable 042 the first round date is the start.
    """
    first_round = min(round_dates, default=None)
    from_rounds = (
        DateSource("132", round_line or 0, first_round.strftime("%y/%m/%d"), "YY/MM/DD")
        if first_round is not None
        else None
    )
    if start is None:
        return first_round, from_rounds, []
    value, number = start
    starts = date_readings(value)
    if not starts:
        return (
            first_round,
            from_rounds,
            [f"Line {number}: the start date '{value}' was not understood."],
        )
    ends = date_readings(end[0]) if end is not None else []
    same_shape = end is not None and _shape(end[0]) == _shape(value)

    def end_fits(s: DateReading, e: DateReading) -> bool:
        return (
            not same_shape or e.pattern == s.pattern
        ) and s.day <= e.day <= s.day + MAX_EVENT_SPAN

    def rounds_fit(s: DateReading, last: date) -> bool:
        return all(s.day <= day <= last for day in round_dates)

    def fits(s: DateReading) -> bool:
        if ends:
            return any(end_fits(s, e) and rounds_fit(s, e.day) for e in ends)
        return rounds_fit(s, s.day + MAX_EVENT_SPAN)

    evidence = tuple(
        record for record, present in (("052", bool(ends)), ("132", bool(round_dates))) if present
    )
    fitting = [s for s in starts if fits(s)]
    warnings: list[str] = []
    if len(fitting) == 1:
        chosen = fitting[0]
        decided_by = evidence if len(starts) > 1 else ()
        return chosen.day, DateSource("042", number, value, chosen.pattern, decided_by), warnings
    if len(fitting) > 1:
        chosen, others = fitting[0], fitting[1:]
        readings = " or ".join(f"{r.day:%d %B %Y}" for r in fitting)
        warnings.append(
            f"Line {number}: the start date '{value}' could be {readings}; it was read "
            f"{_read_first(chosen.pattern)}, as {chosen.day:%d %B %Y}."
        )
        alternatives = tuple((r.day, r.pattern) for r in others)
        return (
            chosen.day,
            DateSource("042", number, value, chosen.pattern, (), alternatives),
            warnings,
        )
    chosen = starts[0]
    against = []
    if ends and not any(end_fits(chosen, e) for e in ends):
        assert end is not None
        against.append(("052", f"the end date '{end[0]}' on line {end[1]}"))
    if round_dates and (not against or not ends):
        last = max(round_dates)
        against.append(
            (
                "132",
                f"the round dates on line {round_line} ({first_round:%d %B %Y} to {last:%d %B %Y})",
            )
        )
    if not against:  # the rounds fit the start but not any reading of the end: both disagree
        against.append(("132", f"the round dates on line {round_line}"))
    warnings.append(
        f"Line {number}: the start date '{value}', read as {chosen.day:%d %B %Y}, does not agree "
        f"with {' or '.join(text for _record, text in against)}; check the event's date."
    )
    contradicted = tuple(record for record, _text in against)
    return (
        chosen.day,
        DateSource("042", number, value, chosen.pattern, contradicted_by=contradicted),
        warnings,
    )


def _shape(value: str) -> str:
    """How a date is written, digits aside: 10.09.13 and 11.03.13 share one shape."""
    no_space = re.sub(r"\s", "", value)
    return re.sub(r"\d{1,2}", "9", re.sub(r"\d{3,}", "Y", no_space))


def _read_first(pattern: str) -> str:
    return {"D": "day first", "M": "month first"}.get(pattern[:1], "year first")


def _read_round_dates(text: str) -> list[date]:
    found = []
    for token in text[3:].split():
        match = re.fullmatch(r"(\d{2,4})[/.-](\d{1,2})[/.-](\d{1,2})", token)
        if match:  # TRF round dates are YY/MM/DD
            year, month, day = (int(part) for part in match.groups())
            parsed = _make_date(_full_year(year), month, day)
            if parsed is not None:
                found.append(parsed)
    return found


def _parse_worded_date(value: str) -> date | None:
    """Dates such as 'Jun 26, 2020', '26. Juni 2020' or '29 de mayo de 2020'."""
    month = year = day = None
    for token in re.findall(r"[^\W\d_]+|\d+", value.casefold()):
        if token.isdigit():
            if len(token) == 4 and year is None:
                year = int(token)
            elif len(token) <= 2 and day is None:
                day = int(token)
        elif month is None:
            month = _MONTHS.get(token) or _MONTHS.get(token[:3])
    if month is None or year is None or day is None:
        return None
    return _make_date(year, month, day)


def _full_year(year: int) -> int:
    if year >= 100:
        return year
    return 2000 + year if year < 70 else 1900 + year


def _make_date(year: int, month: int, day: int) -> date | None:
    if not 1900 <= year <= 2100:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


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


def _is_junior(birth: tuple[date, date] | None, on: date | None) -> bool | None:
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
