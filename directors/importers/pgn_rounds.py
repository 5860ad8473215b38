"""A PGN file's rounds: the Round tags read, and numbered where the tags do not say.

Round ``3`` is round 3; ``3.1`` is round 3 too, whether the second number is a board (a Swiss:
other players) or a game of a match (a knockout's ``1.1``, ``1.2`` and tie-breaks ``1.3``...;
an engine match's ``4.1`` … ``4.20``). A player may therefore play several games in one round,
but only against one opponent and under different tags (``4.1``, ``4.2``): that is a match.

Where the tags do not say, the games are numbered and a note for each case says so:

- no game has a usable Round (a lichess export, ChessBase's ``?``): into rounds in file
  order, a new round starting whenever a player would play twice in one;
- every game has the same tag (an engine match's Round ``1`` throughout) and a player meets
  someone more than once in it: in file order the same way, as the tag carries nothing;
- a few games have an unknown Round (``?``, ``-``, ``0``, none) among numbered ones: each goes
  into the round of the numbered game just before it in the file, else of the one just after
  it (a file lists a round's games together, so that is the round whose game lost its tag),
  when neither of its players has another game there; otherwise into a new round after the
  last (a game added at the end, after the event). Any other text is an error, naming the line.

Pure Python: no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .base import ImportFileError, TooLargeError

ROUND = re.compile(r"^0*([1-9]\d{0,5})((?:\.\d+)*)$")
# What PGN writers put for a round they do not know.
_UNKNOWN = frozenset({"", "?", "-", "??", "0", "00"})


@dataclass(frozen=True)
class Seat:
    """What numbering a game needs: its line, its Round tag, and its players (not BYE)."""

    line: int
    tag: str
    players: tuple[tuple[int, str], ...]  # (player key, name)


@dataclass(frozen=True)
class Numbering:
    rounds: list[int]  # one per seat, in the seats' order
    notes: list[str]
    from_order: bool  # every game was numbered in file order


def tag_round(value: str | None) -> int | None:
    """The round a Round tag names, or None when it names none."""
    match = ROUND.match((value or "").strip())
    return int(match.group(1)) if match else None


def all_missing(tags: list[str]) -> bool:
    return not any(tag_round(tag) for tag in tags)


def number_rounds(
    seats: list[Seat], *, newest_first: bool = False, max_rounds: int | None = None
) -> Numbering:
    """Every game's round. With ``max_rounds`` (the event limit), a game that would need a new
    round past it stops the numbering at once (``TooLargeError``), so a file of thousands of
    untagged games between the same players costs a bounded search per game, not one that
    grows with every round already made."""
    parsed = [_parse(seat.tag) for seat in seats]
    if not any(parsed):
        rounds = _in_file_order(seats)
        return Numbering(rounds, [_order_note(seats, rounds, newest_first)], True)
    for seat, tag in zip(seats, parsed, strict=True):
        if tag is None and seat.tag.strip() not in _UNKNOWN:
            read_round(seat.tag, seat.line)  # raises, naming the line
    if None not in parsed and len(set(parsed)) == 1:
        repeated = _first_repeat(seats)
        if repeated is not None:
            rounds = _in_file_order(seats)
            return Numbering(rounds, [_one_tag_note(seats, rounds, repeated)], True)
    busy: dict[tuple[int, int], tuple[int, tuple[int, ...] | None, int | None]] = {}
    for seat, tag in zip(seats, parsed, strict=True):
        if tag is not None:
            _take(busy, seat, tag[0], tag[1])
    return _place_unknown(seats, parsed, busy, max_rounds)


def read_round(value: str | None, line: int) -> int:
    text = (value or "").strip()
    number = tag_round(text)
    if number is None:
        shown = f"'{text}'" if text else "missing"
        raise ImportFileError.at(
            line,
            f"the Round tag is {shown}; every game needs its round number, such as 3 or 3.1.",
        )
    return number


def _parse(value: str) -> tuple[int, tuple[int, ...]] | None:
    """(round, the numbers after it) with leading zeros dropped: ``04.01`` is ``4.1``."""
    match = ROUND.match(value.strip())
    if match is None:
        return None
    rest = tuple(int(part) for part in match.group(2).split(".")[1:])
    return int(match.group(1)), rest


def _take(
    busy: dict[tuple[int, int], tuple[int, tuple[int, ...] | None, int | None]],
    seat: Seat,
    round_number: int,
    sub: tuple[int, ...] | None,
) -> None:
    """Seat the game's players in the round, refusing a player there twice unless it is a
    match: the same opponent under another tag (``4.1`` then ``4.2``)."""
    keys = [key for key, _name in seat.players]
    for key, name in seat.players:
        opponent = next((other for other in keys if other != key), None)
        earlier = busy.get((round_number, key))
        if earlier is not None:
            line, earlier_sub, earlier_opponent = earlier
            a_match = bool(sub) and bool(earlier_sub) and sub != earlier_sub
            if not (a_match and opponent is not None and opponent == earlier_opponent):
                raise ImportFileError.at(
                    seat.line,
                    f"{name} plays twice in round {round_number} (also in the game on "
                    f"line {line}).",
                )
        busy[(round_number, key)] = (seat.line, sub, opponent)


def _place_unknown(
    seats: list[Seat],
    parsed: list[tuple[int, tuple[int, ...]] | None],
    busy: dict[tuple[int, int], tuple[int, tuple[int, ...] | None, int | None]],
    max_rounds: int | None,
) -> Numbering:
    rounds = [tag[0] if tag else 0 for tag in parsed]
    notes: list[str] = []
    last = max(rounds)
    before, after = _tagged_neighbours(parsed)
    for index, seat in enumerate(seats):
        if parsed[index] is not None:
            continue
        free = [
            number
            for number in dict.fromkeys((before[index], after[index]))
            if number is not None and all((number, key) not in busy for key, _ in seat.players)
        ]
        if free:
            chosen = free[0]
            why = "the round of the games around it in the file, where neither player has a game"
        else:
            chosen = last + 1
            while any((chosen, key) in busy for key, _ in seat.players):
                chosen += 1
                if max_rounds is not None and chosen > max_rounds:
                    raise TooLargeError("rounds", max_rounds)
            why = (
                "a new round after the last, as its players already have a game in the rounds "
                "of the games around it in the file"
            )
        _take(busy, seat, chosen, None)
        rounds[index] = chosen
        shown = f"'{seat.tag.strip()}'" if seat.tag.strip() else "missing"
        notes.append(
            f"Line {seat.line}: this game's Round tag is {shown}, so it was put in round "
            f"{chosen}: {why}. Change its round in the results grid if it was played in another."
        )
    return Numbering(rounds, notes, False)


def _tagged_neighbours(
    parsed: list[tuple[int, tuple[int, ...]] | None],
) -> tuple[list[int | None], list[int | None]]:
    """For each game, the round of the nearest game before it (and after it) in the file whose
    tag names one: two passes, where looking around each untagged game made a file of
    30,000 untagged games cost 450 million steps (a minute of a worker)."""
    before: list[int | None] = []
    seen: int | None = None
    for tag in parsed:
        before.append(seen)
        if tag is not None:
            seen = tag[0]
    after: list[int | None] = [None] * len(parsed)
    seen = None
    for index in range(len(parsed) - 1, -1, -1):
        after[index] = seen
        tag = parsed[index]
        if tag is not None:
            seen = tag[0]
    return before, after


def _in_file_order(seats: list[Seat]) -> list[int]:
    """A new round whenever a player of this game already plays in the current one."""
    rounds: list[int] = []
    current, in_round = 1, set[int]()
    for seat in seats:
        keys = {key for key, _name in seat.players}
        if keys & in_round:
            current, in_round = current + 1, set()
        in_round |= keys
        rounds.append(current)
    return rounds


def _first_repeat(seats: list[Seat]) -> tuple[int, str] | None:
    """The line and name of the first player to play a second game, if anyone does."""
    seen: set[int] = set()
    for seat in seats:
        for key, name in seat.players:
            if key in seen:
                return seat.line, name
            seen.add(key)
    return None


def _rounds_counted(rounds: list[int]) -> str:
    count = len(set(rounds))
    return f"{count} {'round' if count == 1 else 'rounds'}"


_NEW_ROUND_RULE = (
    "a new round starting whenever a player would play twice in one. Change a game's round in "
    "the results grid if the event went otherwise."
)


def _order_note(seats: list[Seat], rounds: list[int], newest_first: bool) -> str:
    order = (
        "in file order, from the oldest game (the file lists the newest first)"
        if newest_first
        else "in file order"
    )
    # Every warning names a line, as the director's preview lists them: the first game's.
    first_line = min(seat.line for seat in seats)
    return (
        f"Line {first_line}: the file gives no round numbers: the games were numbered into "
        f"{_rounds_counted(rounds)} {order}, {_NEW_ROUND_RULE}"
    )


def _one_tag_note(seats: list[Seat], rounds: list[int], repeated: tuple[int, str]) -> str:
    line, name = repeated
    return (
        f"Line {seats[0].line}: every game of the file is tagged round {seats[0].tag.strip()}, "
        f"but {name} plays again on line {line} (as in an engine match): the games were "
        f"numbered into {_rounds_counted(rounds)} in file order, {_NEW_ROUND_RULE}"
    )
