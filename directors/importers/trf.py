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
    lines = decode_lines(data)
    name: str | None = None
    time_control: str | None = None
    round_robin: bool | None = None  # the 092 type, when it says (tournament_type)
    start_field: tuple[str, int] | None = None
    end_field: tuple[str, int] | None = None
    round_dates: list[date] = []
    round_line: int | None = None
    warnings: list[str] = []
    players: dict[int, PlayerLine] = {}
    unknown: dict[str, list[int]] = {}
    paired_rounds: set[int] = set()  # rounds with a game between two players (others are dropped)
    dummies = 0  # bye dummies by name ("spielfrei"): no entrants (directors/importers/pseudo.py)
    team_file = False  # 013 team records: the points column is no record of the rounds

    for number, text in enumerate(lines, start=1):
        code = text[:3]
        if code == "001":
            player = read_player_line(text, number)
            if player.key in players:
                raise ImportFileError.at(
                    number,
                    f"starting rank {player.key} is used twice "
                    f"(also on line {players[player.key].line}).",
                )
            players[player.key] = player
            warnings.extend(player.notes)
            dummies += is_pseudo_name(player.name)
            if limits is not None:
                paired_rounds.update(r for r, cell in player.cells.items() if cell.opponent)
                limits.check(entrants=len(players) - dummies, rounds=len(paired_rounds))
        elif code == "013":
            team_file = True
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
        elif code == "092":
            if round_robin is None:
                round_robin = tournament_type(text[3:])
        elif code == "122":
            time_control = time_control or clean_text(text[3:]) or None
        elif code == "132":
            dates = read_round_dates(text)
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
    games = check_points(players, pair_rounds(players, warnings), warnings, team_file=team_file)
    if limits is not None:
        # A game is two halves on two lines, so games are counted once paired; pairing is
        # bounded by the entrants and rounds limits checked line by line above.
        limits.check(games=len(games))

    imported_players = []
    for player in players.values():
        imported_players.append(
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
        round_robin=round_robin,
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
