"""CSV reader: one row per game or bye, under a header row naming the columns.

The header must name ``round``, ``white``, ``black`` and ``result`` (any case, any order); other
columns are ignored, except the players' ratings: ``white rating`` and ``black rating`` (also
spelled ``white_rating``, ``white elo``, ``WhiteElo`` and so on; blank or 0 for none). A player's
rating is the first one given for them, and ``variant``: a game's chess variant (Chess960,
Crazyhouse...), stored and never rated. A row with only a name in ``white`` (no round, no black,
no result) is an entrant without a game, as our export writes one. Commas, semicolons or tabs
separate the fields; Excel's ``sep=;`` first line is understood. Round ``3`` or ``3.1`` is
round 3.

Results of a game (``black`` filled in); case and spaces do not matter, ``:`` may replace ``-``:

=================================================  =========================
``1-0``                                            white wins
``0-1``                                            black wins
``1/2-1/2``, ``½-½``, ``0.5-0.5``, ``=``           draw
``+/-``, ``+:-``, ``+-``                           white wins by forfeit
``-/+``, ``-:+``, ``-+``                           black wins by forfeit
``-/-``, ``-:-``, ``--``                           double forfeit
``1-0u``, ``0-1u``, ``1/2-1/2u``, ``½-½u``, ``=u``  unrated (less than one move played)
``*``                                              no result
=================================================  =========================

Results of a bye (``black`` left empty):

==========================================  ==============================
``bye``, ``bye1``, ``1``, ``F``             full-point bye
``bye½``, ``½``, ``bye1/2``, ``1/2``, ``0.5``, ``H``  half-point bye
``bye0``, ``0``, ``Z``                      zero-point bye
``byeU``, ``U``                             pairing-allocated bye
==========================================  ==============================

A game against a player called ``BYE`` is also a bye: ``Smith,BYE,1-0`` is a full-point bye
for Smith.
"""

from __future__ import annotations

import csv
import re
from dataclasses import replace

from clubs.results import Result
from members.files.spreadsheet import undefused

from .base import (
    ImportedEvent,
    ImportedGame,
    ImportedPlayer,
    ImportFileError,
    Limits,
    clean_text,
    count_rounds,
    decode_lines,
    name_key,
)
from .pseudo import people_among

REQUIRED_COLUMNS = ("round", "white", "black", "result")
# The optional `variant` column: the variant's name, as a PGN's Variant tag gives it.
VARIANT_MAX_LENGTH = 40
# Optional columns, by their header after `_header_key`.
RATING_COLUMNS = {
    "white rating": "white rating",
    "white elo": "white rating",
    "whiteelo": "white rating",
    "black rating": "black rating",
    "black elo": "black rating",
    "blackelo": "black rating",
}

_GAME_SPELLINGS = {
    Result.WHITE_WIN: "1-0 1:0",
    Result.BLACK_WIN: "0-1 0:1",
    Result.DRAW: "1/2-1/2 1/2:1/2 ½-½ ½:½ 0.5-0.5 0.5:0.5 0,5-0,5 0,5:0,5 = 1/2 ½",
    Result.WHITE_FORFEIT_WIN: "+/- +:- +-",
    Result.BLACK_FORFEIT_WIN: "-/+ -:+ -+",
    Result.DOUBLE_FORFEIT: "-/- -:- --",
    Result.UNRATED_WHITE_WIN: "1-0u 1:0u",
    Result.UNRATED_BLACK_WIN: "0-1u 0:1u",
    Result.UNRATED_DRAW: "1/2-1/2u 1/2:1/2u ½-½u ½:½u 0.5-0.5u 0.5:0.5u =u 1/2u ½u",
    Result.NO_RESULT: "*",
}
_BYE_SPELLINGS = {
    Result.BYE_FULL: "bye bye1 1 f",
    Result.BYE_HALF: "bye½ ½ bye1/2 1/2 bye0.5 0.5 0,5 h",
    Result.BYE_ZERO: "bye0 0 z",
    Result.BYE_PAIRING: "byeu u",
    Result.BYE_PAIRING_HALF: "byeu½ byeu1/2 byeu0.5",
    Result.BYE_PAIRING_ZERO: "byeu0",
}
_GAME_RESULTS = {
    text: result for result, texts in _GAME_SPELLINGS.items() for text in texts.split()
}
_BYE_RESULTS = {text: result for result, texts in _BYE_SPELLINGS.items() for text in texts.split()}
_BYE_FROM_SCORE: dict[float, Result] = {
    1.0: Result.BYE_FULL,
    0.5: Result.BYE_HALF,
    0.0: Result.BYE_ZERO,
}
_ACCEPTED_GAME = "1-0, 0-1, 1/2-1/2 (or ½-½, 0.5-0.5, =), +/-, -/+, -/-, 1-0u, 0-1u, 1/2-1/2u, *"
_ACCEPTED_BYE = "bye, bye1, 1, bye½, ½, bye0, 0, U"
_DASHES = str.maketrans({"–": "-", "—": "-", "−": "-"})
_ROUND = re.compile(r"^0*([1-9]\d{0,5})(?:\.\d+)?$")


def parse_csv(data: bytes, *, limits: Limits | None = None) -> ImportedEvent:
    lines = decode_lines(data)
    first = 0
    delimiter = None
    sep = re.fullmatch(r"\s*sep=(.)\s*", lines[0]) if lines else None
    if sep:
        delimiter, first = sep.group(1), 1
    while first < len(lines) and not lines[first].strip():
        first += 1
    if first == len(lines):
        raise ImportFileError("The file is empty.")
    header_line = first + 1
    delimiter, columns = _read_header(lines[first], header_line, delimiter)

    players: dict[str, ImportedPlayer] = {}
    games: list[ImportedGame] = []
    seen: dict[tuple[int, int], int] = {}
    warnings: list[str] = []
    ratings: dict[int, int] = {}
    rounds: set[int] = set()
    number = header_line
    reader = csv.reader((line + "\n" for line in lines[first + 1 :]), delimiter=delimiter)
    while True:
        start = number + 1
        try:
            row = next(reader, None)
        except csv.Error:
            raise ImportFileError.at(
                start, "this row could not be read as CSV (a field is far too long)."
            ) from None
        if row is None:
            break
        number = header_line + reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        # undefused: a cell our own export (members.files.event_files) wrote with a `'` so that no
        # spreadsheet runs it as a formula ("+/-", a name starting with "-") reads as written.
        values = {
            name: clean_text(undefused(row[index])) if index < len(row) else ""
            for name, index in columns.items()
        }
        if values["white"] and not (values["round"] or values["black"] or values["result"]):
            # An entrant without a game (our export writes one so): a name and nothing else.
            key = name_key(values["white"])
            if key not in players and key != "bye":
                players[key] = ImportedPlayer(
                    len(players) + 1, values["white"], None, None, None, start
                )
            if limits is not None:
                limits.check(entrants=people_among(players), rounds=len(rounds), games=len(games))
            continue
        game = _read_row(values, start, players, seen)
        games.append(game)
        _read_ratings(values, start, players, ratings, warnings)
        if limits is not None:
            rounds.add(game.round)
            limits.check(entrants=people_among(players), rounds=len(rounds), games=len(games))

    if not games:
        raise ImportFileError.at(header_line, "the header row is not followed by any results.")
    games.sort(key=lambda game: (game.round, game.line))
    return ImportedEvent(
        name=None,
        date=None,
        time_control=None,
        rounds=count_rounds(games),
        players=tuple(replace(p, rating=ratings.get(p.key)) for p in players.values()),
        games=tuple(games),
        warnings=tuple(warnings),
    )


def _read_header(text: str, line: int, delimiter: str | None) -> tuple[str, dict[str, int]]:
    candidates = [delimiter] if delimiter else [",", ";", "\t"]
    for candidate in candidates:
        try:
            cells = next(csv.reader([text], delimiter=candidate))
        except (csv.Error, StopIteration):
            continue
        names = [clean_text(cell).casefold() for cell in cells]
        if all(name in names for name in REQUIRED_COLUMNS):
            columns = {name: names.index(name) for name in REQUIRED_COLUMNS}
            if "variant" in names:
                columns["variant"] = names.index("variant")
            for index, name in enumerate(names):
                rating = RATING_COLUMNS.get(_header_key(name))
                if rating is not None and rating not in columns:
                    columns[rating] = index
            return candidate, columns
    raise ImportFileError.at(
        line,
        "the first row must be a header naming the columns round, white, black and result, "
        "separated by commas or semicolons.",
    )


def _header_key(name: str) -> str:
    """ "White_Rating", "white-elo" and "White  Elo" are one column."""
    return re.sub(r"[\s_-]+", " ", name).strip()


def _read_ratings(
    values: dict[str, str],
    line: int,
    players: dict[str, ImportedPlayer],
    ratings: dict[int, int],
    warnings: list[str],
) -> None:
    """Note the ratings the row's rating columns print (by player key), the first for each."""
    for column, side in (("white rating", "white"), ("black rating", "black")):
        text, typed = values.get(column, ""), values[side]
        player = players.get(name_key(typed)) if typed else None
        if player is None or not text or player.key in ratings:
            continue  # no such column, no rating, a BYE, or rated already
        if not (text.isdigit() and text.isascii() and len(text) <= 5):
            warnings.append(f"Line {line}: the {column} '{text}' is not a number; it was left out.")
        elif int(text):
            ratings[player.key] = int(text)


def _read_row(
    values: dict[str, str],
    line: int,
    players: dict[str, ImportedPlayer],
    seen: dict[tuple[int, int], int],
) -> ImportedGame:
    round_match = _ROUND.match(values["round"])
    if round_match is None:
        shown = f"'{values['round']}'" if values["round"] else "empty"
        raise ImportFileError.at(line, f"the round is {shown}; it must be a number such as 3.")
    round_number = int(round_match.group(1))
    white, black = values["white"], values["black"]
    result_text = re.sub(r"\s+", "", values["result"]).translate(_DASHES).casefold()
    shown_result = values["result"] or "empty"
    white_bye, black_bye = name_key(white) == "bye", name_key(black) == "bye"

    if white_bye and black_bye:
        raise ImportFileError.at(line, "both players of this row are called BYE.")
    if white_bye or black_bye:
        game_result = _GAME_RESULTS.get(result_text)
        if game_result is None or game_result is Result.NO_RESULT:
            raise ImportFileError.at(
                line,
                f"the result '{shown_result}' of this game against BYE is not one of "
                "1-0, 1/2-1/2, 0-1.",
            )
        white, black = (black, "") if white_bye else (white, "")
        result = _BYE_FROM_SCORE[game_result.scores[1 if white_bye else 0]]
    elif not black:
        bye = _BYE_RESULTS.get(result_text)
        if bye is None:
            raise ImportFileError.at(
                line,
                f"black is empty, so this row is a bye, but its result is '{shown_result}'; "
                f"a bye's result is one of: {_ACCEPTED_BYE}.",
            )
        result = bye
    else:
        game_result = _GAME_RESULTS.get(result_text)
        if game_result is None:
            raise ImportFileError.at(
                line,
                f"the result '{shown_result}' is not understood; a game's result is one of: "
                f"{_ACCEPTED_GAME}.",
            )
        result = game_result
    if not white:
        raise ImportFileError.at(line, "the white player is empty.")

    white_player = _enter(players, seen, white, round_number, line)
    if not black:
        return ImportedGame(round_number, white_player.key, None, result, line)
    if name_key(white) == name_key(black):
        raise ImportFileError.at(line, f"{white} is paired with themselves.")
    black_player = _enter(players, seen, black, round_number, line)
    # A chess variant (Chess960, Crazyhouse...) is stored and never rated, as from a PGN.
    variant = values.get("variant", "")[:VARIANT_MAX_LENGTH]
    return ImportedGame(round_number, white_player.key, black_player.key, result, line, variant)


def _enter(
    players: dict[str, ImportedPlayer],
    seen: dict[tuple[int, int], int],
    typed: str,
    round_number: int,
    line: int,
) -> ImportedPlayer:
    key = name_key(typed)
    player = players.get(key)
    if player is None:
        player = ImportedPlayer(len(players) + 1, typed, None, None, None, line)
        players[key] = player
    previous = seen.get((round_number, player.key))
    if previous is not None:
        raise ImportFileError.at(
            line, f"{typed} appears twice in round {round_number} (also on line {previous})."
        )
    seen[(round_number, player.key)] = line
    return player
