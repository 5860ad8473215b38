"""PGN reader: a game is a header block and its movetext, with or without moves.

The file is cut into games by ``pgn_tags.read_games`` (a file of N header blocks is N games,
with or without empty lines or moves between them; text that is no part of a game is refused
naming its line). The moves are not replayed: each game needs the tags White, Black and Result,
and the Result tag is authoritative:

=====================================  ==============================================
Result tag                             result
=====================================  ==============================================
``1-0``, ``0-1``, ``1/2-1/2`` (``½-½``)  WHITE_WIN, BLACK_WIN, DRAW: played, moves or not
``*`` with moves                       NO_RESULT (a game under way or never finished)
``*`` without a move                   not played: left out, and the warnings say so
``+/-``, ``-/+``, ``-/-``              forfeits (written by some programs)
=====================================  ==============================================

A decisive or drawn game without moves was played (a broadcast that did not relay its moves,
a program that writes results only) and is rated like any other; the product's forfeits are
the Result tags above, as before. A game without moves whose result is ``*`` is a pairing not
played (a broadcast lists a round before it starts): it is left out, its players are entrants
only if they have another game, and a file none of whose games was played is refused.

Round ``3`` or ``3.1`` (round 3, board 1, or game 1 of a match in round 3) is round 3; where
the tags do not say (none, ``?``, ``-``, the same tag on every game of an engine match), the
games are numbered and the warnings say how: ``pgn_rounds``. A game against a player called
``BYE`` is a bye for the other player: a full, half or zero-point bye as the Result tag gives
that player 1, ½ or 0 points.

The event's Event tag names it, never a Round or another tag: a lichess study's Event
"<study>: <White> - <Black>" (the game's own players) names the study, and an Event that is a
round's name ("Round 1", a study per round) names none, so the games go together, unnamed, with
a warning (``pgn_tags.event_of``). The earliest Date or EventDate of its games dates it
(``2024.03.??`` counts as the 1st of the month when no full date is given), and a warning says
so when its games' dates lie more than ``MAX_EVENT_SPAN`` (400 days, a league season, as for
TRF dates) apart. The first TimeControl tag is kept; a player's rating is the first WhiteElo
or BlackElo printed for them, their ID the first WhiteFideId or BlackFideId. Player keys are
1..n in order of first appearance; one name typed in different case is one player.

A file holding games of several events (different Event tags; Site does not count, lichess
writes each game's address there) is refused with ``SeveralEventsError`` listing them, unless
``event`` names the one to read. Games without an Event tag go with the file's only event.

A game whose Variant tag is not standard chess (Standard, Chess or none), or that starts from a
FEN position other than the normal one, keeps its variant's name in ``ImportedGame.variant``:
it is stored as played and never rated.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass, field, replace
from datetime import date

from clubs.results import Result

from .base import (
    ImportedEvent,
    ImportedGame,
    ImportedPlayer,
    ImportFileError,
    Limits,
    SeveralEventsError,
    Tally,
    clean_text,
    count_rounds,
    decode_lines,
    name_key,
    tournament_type,
)
from .pgn_rounds import Seat, all_missing, number_rounds, tag_round
from .pgn_tags import PgnGame as _Game
from .pgn_tags import event_of, read_games, refuse_by_tag_counts
from .pgn_tags import known as _known
from .pgn_tags import read_date as _read_date
from .pgn_tags import read_elo as _read_elo
from .pgn_tags import read_fide_id as _read_fide_id
from .trf_dates import MAX_EVENT_SPAN

_RESULTS: dict[str, Result] = {
    "1-0": Result.WHITE_WIN,
    "0-1": Result.BLACK_WIN,
    "1/2-1/2": Result.DRAW,
    "½-½": Result.DRAW,
    "*": Result.NO_RESULT,
    "+/-": Result.WHITE_FORFEIT_WIN,
    "-/+": Result.BLACK_FORFEIT_WIN,
    "-/-": Result.DOUBLE_FORFEIT,
}
_BYE_FOR_SCORE: dict[float, Result] = {
    1.0: Result.BYE_FULL,
    0.5: Result.BYE_HALF,
    0.0: Result.BYE_ZERO,
}
# Variant tags that mean standard chess. "From Position" is lichess's name for a standard game
# set up from a FEN: the FEN then decides.
_STANDARD_VARIANTS = frozenset({"standard", "chess", "from position"})
FROM_POSITION = "From Position"
VARIANT_MAX_LENGTH = 40  # clubs.models.Game.variant


def parse_pgn(
    data: bytes, *, event: str | None = None, limits: Limits | None = None
) -> ImportedEvent:
    """Read a PGN file; ``event`` picks one event of a file that holds several."""
    chosen, unplayed = _played(_games_of_event(_all_games(data, event, limits), event))
    rounds_from_order = all_missing([game.headers.get("Round") or "" for game in chosen])
    newest_first = rounds_from_order and _newest_first(chosen)
    if newest_first:
        chosen.reverse()
    reading = _Reading()
    for game in chosen:
        reading.read(game)
    numbering = number_rounds(
        reading.seats,
        newest_first=newest_first,
        max_rounds=limits.rounds if limits is not None else None,
    )
    if limits is not None:
        # Rounds numbered here (no usable Round tag) were not counted while reading.
        limits.check(rounds=len(set(numbering.rounds)))
    games = [
        replace(game, round=number)
        for game, number in zip(reading.games, numbering.rounds, strict=True)
    ]
    games.sort(key=lambda game: (game.round, game.line))
    start, warnings = _event_date(reading.dates)
    warnings.extend(numbering.notes)
    warnings.extend(_games_notes(reading, unplayed, chosen))
    return ImportedEvent(
        name=reading.name,
        date=start,
        time_control=reading.time_control,
        rounds=count_rounds(games),
        players=tuple(reading.players.values()),
        games=tuple(games),
        warnings=tuple(warnings),
        rounds_from_order=numbering.from_order,
        round_robin=reading.round_robin,
    )


def _all_games(data: bytes, event: str | None, limits: Limits | None) -> list[_Game]:
    """Every game of the file, refusing it as soon as the event to read passes `limits`."""
    lines = decode_lines(data)
    if limits is not None:
        refuse_by_tag_counts("\n".join(lines), event, limits)
    found: list[_Game] = []
    tallies: dict[str | None, Tally] = {}
    for game in read_games(lines):
        found.append(game)
        if limits is not None:
            _count(game, tallies, event, limits)
    if not found:
        raise ImportFileError("No games were found: a PGN file lists each game's tags in brackets.")
    return found


@dataclass
class _Reading:
    """What the event's games say, read one game at a time: its players (keys 1..n in order
    of first appearance), its games (round 0 until the rounds are numbered) and their seats
    for the numbering, the first name, time control and type a game's tags give, every date
    tag and the lines of the games of each variant."""

    players: dict[str, ImportedPlayer] = field(default_factory=dict)
    games: list[ImportedGame] = field(default_factory=list)
    seats: list[Seat] = field(default_factory=list)
    name: str | None = None
    time_control: str | None = None
    round_robin: bool | None = None
    dates: list[tuple[bool, date, int]] = field(default_factory=list)  # (day unknown, date, line)
    variants: dict[str, list[int]] = field(default_factory=dict)  # name -> lines of its games

    def read(self, game: _Game) -> None:
        headers = game.headers
        self._read_event_tags(game)
        result = _read_result(headers.get("Result"), game.line)
        white_name = _player_name(headers, "White", game.line)
        black_name = _player_name(headers, "Black", game.line)
        white_bye, black_bye = _is_bye(white_name), _is_bye(black_name)
        if white_bye and black_bye:
            raise ImportFileError.at(game.line, "both players of this game are called BYE.")
        if name_key(white_name) == name_key(black_name):
            raise ImportFileError.at(game.line, f"{white_name} is paired with themselves.")
        entrants = [
            _player(self.players, typed, headers, game, colour)
            for colour, typed, is_bye in (
                ("White", white_name, white_bye),
                ("Black", black_name, black_bye),
            )
            if not is_bye
        ]
        self.seats.append(
            Seat(
                game.line,
                headers.get("Round") or "",
                tuple((player.key, player.name) for player in entrants),
            )
        )
        if white_bye or black_bye:
            self.games.append(_bye(entrants[0], result, black_bye, 0, game.line))
        else:
            self.games.append(self._played_game(game, entrants[0], entrants[1], result))

    def _read_event_tags(self, game: _Game) -> None:
        headers = game.headers
        self.name = self.name or event_of(headers)
        self.time_control = self.time_control or _known(headers.get("TimeControl"))
        if self.round_robin is None:  # the PGN standard's EventType: "rr", "swiss", …
            self.round_robin = tournament_type(headers.get("EventType") or "")
        for tag in ("Date", "EventDate"):
            found_date = _read_date(headers.get(tag))
            if found_date is not None:
                day, day_unknown = found_date
                self.dates.append((day_unknown, day, game.tag_lines.get(tag, game.line)))

    def _played_game(
        self, game: _Game, white: ImportedPlayer, black: ImportedPlayer, result: Result
    ) -> ImportedGame:
        variant = _variant(game.headers)
        if variant:
            self.variants.setdefault(variant, []).append(game.line)
        return ImportedGame(0, white.key, black.key, result, game.line, variant)


def _event_date(dates: list[tuple[bool, date, int]]) -> tuple[date | None, list[str]]:
    """The earliest date of the games (a month without a day counts as its 1st), and the
    warnings about it."""
    if not dates:
        return None, []
    warnings = []
    day_unknown, start, line = min(dates)
    if day_unknown:
        warnings.append(
            f"Line {line}: the date has no day ({start:%Y.%m}.??); the 1st of the month "
            "was used as the event date."
        )
    warnings.extend(_span_note(dates))
    return start, warnings


def _games_notes(reading: _Reading, unplayed: list[_Game], chosen: list[_Game]) -> list[str]:
    """The warnings about the games read: variants stored unrated, games left out as not
    played, and Event tags that name rounds rather than the event."""
    notes = []
    if reading.variants:
        notes.append(_variants_note(reading.variants))
    if unplayed:
        notes.append(_unplayed_note(unplayed, reading.players))
    if reading.name is None:
        notes.extend(_round_named_events(chosen))
    return notes


def _count(game: _Game, tallies: dict[str | None, Tally], wanted: str | None, lim: Limits) -> None:
    """Refuse the file at the first game taking an event (``wanted`` only) past a limit."""
    named = event_of(game.headers)
    key = None if named is None else name_key(named)
    if wanted is None or key in (name_key(wanted), None):
        keys = [_counted_key(game.headers.get(tag) or "") for tag in ("White", "Black")]
        tallies.setdefault(key, Tally(lim)).add(
            [key for key in keys if key is not None], tag_round(game.headers.get("Round"))
        )


@functools.lru_cache(maxsize=4096)
def _counted_key(typed: str) -> str | None:
    """A White or Black tag's player key (None: BYE, no name); cached, as names recur."""
    name = _known(typed)
    return None if name is None or _is_bye(name) else name_key(name)


def _games_of_event(games: list[_Game], wanted: str | None) -> list[_Game]:
    """The games of the one event to read: the file's only event, or the one called ``wanted``.

    Only the Event tag separates events: Site differs per game in lichess exports.
    """
    groups: dict[str | None, list[_Game]] = {}
    names: dict[str, str] = {}  # name key -> the name as first written
    for game in games:
        event_name = event_of(game.headers)
        key = None if event_name is None else name_key(event_name)
        if key is not None:
            names.setdefault(key, event_name or "")
        groups.setdefault(key, []).append(game)
    listed = tuple((names[key], len(group)) for key, group in groups.items() if key is not None)
    if wanted is not None:
        key = name_key(wanted)
        if key not in names:
            raise ImportFileError(
                f"The file holds no event called “{clean_text(wanted)}”; it holds "
                f"{_events_listed(listed, len(groups.get(None, ())))}."
            )
        return games if len(names) == 1 else groups[key]
    if len(names) <= 1:
        return games  # games without an Event tag go with the only event
    raise SeveralEventsError(
        f"This file holds games of {len(names)} events: "
        f"{_events_listed(listed, len(groups.get(None, ())))}. Import one event at a time.",
        listed,
    )


def _events_listed(events: tuple[tuple[str, int], ...], without_name: int) -> str:
    parts = [f"“{name}” ({_games(count)})" for name, count in events]
    if without_name:
        parts.append(f"{_games(without_name)} without an Event tag")
    return ", ".join(parts)


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def _played(games: list[_Game]) -> tuple[list[_Game], list[_Game]]:
    """The games that were played, and those that were not: no move and the result ``*`` (a
    broadcast lists a round's pairings before they are played). A game with a result and no
    moves was played (a broadcast that did not relay its moves), and a bye has no moves to
    show, so neither is left out; a bye whose result is ``*`` is refused (``_bye``)."""
    played: list[_Game] = []
    unplayed: list[_Game] = []
    for game in games:
        no_result = (game.headers.get("Result") or "").strip() == "*"
        bye = any(_is_bye(_known(game.headers.get(tag)) or "") for tag in ("White", "Black"))
        (unplayed if no_result and not game.moves and not bye else played).append(game)
    if not played:
        count = len(unplayed)
        raise ImportFileError.at(
            unplayed[0].line,
            (
                "the only game has no moves and the result *: it was not played"
                if count == 1
                else f"none of the {count} games was played: each has no moves and the result *"
            )
            + ", so there is nothing to import.",
        )
    return played, unplayed


def _unplayed_note(unplayed: list[_Game], players: dict[str, ImportedPlayer]) -> str:
    count = len(unplayed)
    # One game: the leading line number is its line; several: each one's line is listed.
    lines = "" if count == 1 else f" (lines {_listed([str(g.line) for g in unplayed])})"
    note = (
        f"Line {unplayed[0].line}: {_games(count)} {'has' if count == 1 else 'have'} no moves "
        f"and the result * (not played), so {'it was' if count == 1 else 'they were'} left "
        f"out{lines}."
    )
    absent: dict[str, str] = {}  # name key -> name, of players with no game imported
    for game in unplayed:
        for tag in ("White", "Black"):
            typed = _known(game.headers.get(tag))
            if typed is not None and not _is_bye(typed) and name_key(typed) not in players:
                absent.setdefault(name_key(typed), typed)
    if absent:
        one = len(absent) == 1
        note += (
            f" {_listed(list(absent.values()))} {'has' if one else 'have'} no other game, so "
            f"{'is not an entrant' if one else 'are not entrants'}."
        )
    return note


def _round_named_events(games: list[_Game]) -> list[str]:
    """A note when the games' Event tags name a round or a game, not an event (``event_of``),
    so the event has no name from the file."""
    for game in games:
        typed = _known(game.headers.get("Event"))
        if typed is not None:
            return [
                f"Line {game.tag_lines.get('Event', game.line)}: Event tags such as “{typed}” "
                "name a round or a game, not the event, so the file gives the event no name."
            ]
    return []


def _listed(items: list[str], most: int = 10) -> str:
    """The items as a sentence lists them (a; a and b; a, b and c); past ``most`` of them, the
    first ``most`` and how many more (a, b, c and 5 more)."""
    if len(items) > most:
        return f"{', '.join(items[:most])} and {len(items) - most} more"
    return " and ".join(filter(None, (", ".join(items[:-1]), items[-1])))


def _span_note(dates: list[tuple[bool, date, int]]) -> list[str]:
    """A warning when the games' dates lie further apart than one event runs: the longest
    span the TRF reader finds plausible (``MAX_EVENT_SPAN``, a league season)."""
    _, first, first_line = min(dates, key=lambda item: (item[1], item[2]))
    _, last, last_line = max(dates, key=lambda item: (item[1], -item[2]))
    if last - first <= MAX_EVENT_SPAN:
        return []
    return [
        f"Line {last_line}: the games' dates run from {first:%Y.%m.%d} (line {first_line}) to "
        f"{last:%Y.%m.%d}, {(last - first).days} days, longer than one event runs (at most "
        f"{MAX_EVENT_SPAN.days} days, a league season): check that the file holds one event."
    ]


def _newest_first(games: list[_Game]) -> bool:
    """Whether every game has a date and the file lists them from the newest to the oldest."""
    moments = []
    for game in games:
        headers = game.headers
        found = _read_date(headers.get("UTCDate") or headers.get("Date"))
        if found is None or found[1]:
            return False
        time = (headers.get("UTCTime") or headers.get("Time") or "").strip()
        moments.append((found[0], time if re.fullmatch(r"\d\d:\d\d:\d\d", time) else ""))
    return moments[0] > moments[-1] and all(a >= b for a, b in itertools.pairwise(moments))


def _variants_note(variants: dict[str, list[int]]) -> str:
    first = min(line for lines in variants.values() for line in lines)
    count = sum(len(lines) for lines in variants.values())
    kinds = ", ".join(f"{variant}: {len(lines)}" for variant, lines in variants.items())
    return (
        f"Line {first}: {_games(count)} of this file {'is' if count == 1 else 'are'} not "
        f"standard chess ({kinds}); stored as played and never rated."
    )


def _variant(headers: dict[str, str]) -> str:
    """The game's variant, or "" for standard chess from the normal start position."""
    named = _known(headers.get("Variant"))
    if named is not None and named.casefold() not in _STANDARD_VARIANTS:
        return named[:VARIANT_MAX_LENGTH]
    fen = _known(headers.get("FEN"))
    if fen is None or (headers.get("SetUp") or "").strip() == "0":
        return ""
    return "" if _is_start_position(fen) else FROM_POSITION


def _is_start_position(fen: str) -> bool:
    # Imported here, not at the top: this module is imported by every data command (through
    # directors.events.publishing), and python-chess is slow to import.
    import chess

    try:
        board = chess.Board(fen)
    except ValueError:  # an unreadable position is no proof of the normal start
        return False
    return (
        board.board_fen() == chess.STARTING_BOARD_FEN
        and board.turn == chess.WHITE
        and board.castling_rights == chess.BB_CORNERS
        and board.ep_square is None
    )


def _player_name(headers: dict[str, str], tag: str, line: int) -> str:
    typed = _known(headers.get(tag))
    if typed is None:
        raise ImportFileError.at(line, f"this game has no {tag} player (the {tag} tag).")
    return typed


def _is_bye(typed: str) -> bool:
    return name_key(typed) == "bye"


def _read_result(value: str | None, line: int) -> Result:
    text = (value or "").strip()
    result = _RESULTS.get(text)
    if result is None:
        shown = f"'{text}'" if text else "missing"
        raise ImportFileError.at(
            line, f"the Result tag is {shown}; it must be 1-0, 0-1, 1/2-1/2 or *."
        )
    return result


def _player(
    players: dict[str, ImportedPlayer],
    typed: str,
    headers: dict[str, str],
    game: _Game,
    colour: str,
) -> ImportedPlayer:
    key = name_key(typed)
    rating = _read_elo(headers.get(f"{colour}Elo"))
    fide_id = _read_fide_id(headers.get(f"{colour}FideId"))
    player = players.get(key)
    if player is None:
        player = ImportedPlayer(
            key=len(players) + 1,
            name=typed,
            rating=rating,
            junior=None,
            declared_points=None,
            line=game.tag_lines.get(colour, game.line),
            fide_id=fide_id,
        )
        players[key] = player
    else:
        if player.rating is None and rating is not None:
            player = players[key] = replace(player, rating=rating)
        if player.fide_id is None and fide_id is not None:
            player = players[key] = replace(player, fide_id=fide_id)
    return player


def _bye(
    player: ImportedPlayer, result: Result, player_is_white: bool, round_number: int, line: int
) -> ImportedGame:
    if result is Result.NO_RESULT:
        raise ImportFileError.at(
            line,
            f"the bye of {player.name} needs a result of 1-0, 0-1 or 1/2-1/2 giving "
            f"{player.name} 1, 0 or ½ points.",
        )
    white_points, black_points = result.scores
    points = white_points if player_is_white else black_points
    return ImportedGame(round_number, player.key, None, _BYE_FOR_SCORE[points], line)
