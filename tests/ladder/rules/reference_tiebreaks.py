"""A second, plainly written account of the standings an event page shows, for the tests.

Written from the FIDE Tie-Break Regulations (Handbook C.07, in force from 1 April 2024; its
amendment of 1 March 2026 caps the dummy opponent) and the club's rule for a file's own ranks,
not from the product's code: it imports nothing of ladder.tiebreaks, members.pages or
ladder.rules, and favours being obviously right over being fast (every sum is done again
per player, per round). The corpus tests compare every value and rank the product gives with
this one's.

Games are (round, white, black or None, result code) with the codes stored in the database
(clubs.results.Result's values, spelt out here again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

Row = tuple[int, int, int | None, str]

# What each stored result gives white and black.
POINTS: dict[str, tuple[float, float]] = {
    "1-0": (1.0, 0.0),
    "1/2": (0.5, 0.5),
    "0-1": (0.0, 1.0),
    "+-": (1.0, 0.0),
    "-+": (0.0, 1.0),
    "--": (0.0, 0.0),
    "*": (0.0, 0.0),
    "1-0u": (1.0, 0.0),
    "1/2u": (0.5, 0.5),
    "0-1u": (0.0, 1.0),
    "bye1": (1.0, 0.0),
    "bye½": (0.5, 0.0),
    "bye0": (0.0, 0.0),
    "byeU": (1.0, 0.0),
    "byeU½": (0.5, 0.0),
    "byeU0": (0.0, 0.0),
}
# Games with a result at the board (TRF 1 = 0 and W D L); forfeits and byes are not.
AT_THE_BOARD = {"1-0", "1/2", "0-1", "1-0u", "1/2u", "0-1u"}
# Byes the participant did not ask for (art. 16.2): the pairing's bye however it scores, and
# the full-point bye. Every other round without a game is the participant's choice (a VUR).
NOT_ASKED_FOR = {"byeU", "byeU½", "byeU0", "bye1"}

CODES = ("bh-c1", "bh-c2", "bh", "sb", "de", "won", "win")


@dataclass
class Cell:
    """One round of one participant."""

    number: int
    opponent: int | None
    points: float
    counts_opponent: bool  # the opponent's score counts (a game; in a round robin any pairing)
    chosen: bool  # a voluntary unplayed round (VUR)
    won_at_board: bool


@dataclass
class Line:
    player: int
    cells: list[Cell] = field(default_factory=list)
    values: dict[str, float] = field(default_factory=dict)
    rank: int = 0

    @property
    def points(self) -> float:
        return sum(cell.points for cell in self.cells)


def lines_of(entrants: Sequence[int], games: Sequence[Row], round_robin: bool) -> dict[int, Line]:
    lines = {player: Line(player) for player in entrants}
    last = max((r for r, *_ in games), default=0)
    for number, white, black, code in games:
        white_points, black_points = POINTS[code]
        if black is None:
            cell = Cell(number, None, white_points, False, code not in NOT_ASKED_FOR, False)
            lines[white].cells.append(cell)
            continue
        at_board = code in AT_THE_BOARD
        # A forfeit is no game in a Swiss (16.1): the side that lost it chose not to play;
        # in a round robin (pairings fixed in advance) it is a game against the opponent.
        counts = at_board or round_robin
        for me, other, mine in ((white, black, white_points), (black, white, black_points)):
            chosen = not counts and mine == 0
            won = at_board and mine == 1
            lines[me].cells.append(Cell(number, other, mine, counts, chosen, won))
    for line in lines.values():
        had = {cell.number for cell in line.cells}
        for number in range(1, last + 1):
            if number not in had:  # absent: a zero-point VUR
                line.cells.append(Cell(number, None, 0.0, False, not round_robin, False))
    return lines


def score_for_opponents(line: Line, round_robin: bool) -> float:
    """Art. 16.3: the rounds count as scored, but the VURs without an opponent after the
    participant's last round that was not a VUR count as draws."""
    if round_robin:
        return line.points
    not_chosen = [cell.number for cell in line.cells if not cell.chosen]
    last_not_chosen = max(not_chosen) if not_chosen else 0
    total = 0.0
    for cell in line.cells:
        if cell.chosen and cell.opponent is None and cell.number > last_not_chosen:
            total += 0.5
        else:
            total += cell.points
    return total


def buchholz_parts(
    line: Line, lines: Mapping[int, Line], round_robin: bool, year: str, rounds: int
) -> list[tuple[bool, float, float]]:
    """(is a VUR, what the round adds to Buchholz, the points scored in it) per round."""
    parts = []
    for cell in line.cells:
        if cell.counts_opponent and cell.opponent is not None:
            opponent = score_for_opponents(lines[cell.opponent], round_robin)
        elif round_robin:
            continue  # a round robin's bye or absence adds nothing
        else:
            # Art. 16.4: a dummy opponent with the participant's own score; from 2026 no more
            # than the forfeiting opponent's, or than a draw every round for a bye or absence.
            opponent = line.points
            if year == "2026":
                if cell.opponent is not None:
                    opponent = min(opponent, score_for_opponents(lines[cell.opponent], False))
                else:
                    opponent = min(opponent, 0.5 * rounds)
        parts.append((cell.chosen, opponent, cell.points))
    return parts


def cut(parts: list[tuple[bool, float, float]], how_many: int) -> float:
    """Buchholz without its `how_many` lowest contributions, a VUR's first (14.1, 16.5)."""
    left = list(parts)
    for _ in range(how_many):
        if not left:
            break
        vurs = [part for part in left if part[0]]
        pool = vurs or left
        lowest = min(pool, key=lambda part: part[1])
        left.remove(lowest)
    return sum(part[1] for part in left)


def compute(
    entrants: Sequence[int],
    games: Sequence[Row],
    order: Sequence[str],
    *,
    round_robin: bool,
    year: str,
) -> list[Line]:
    """Every entrant, best first, with the values of all CODES and a rank (ties left after
    `order` share one; `entrants` in start order keeps them in that order)."""
    lines = lines_of(entrants, games, round_robin)
    rounds = max((r for r, *_ in games), default=0)
    for line in lines.values():
        parts = buchholz_parts(line, lines, round_robin, year, rounds)
        line.values["bh"] = cut(parts, 0)
        line.values["bh-c1"] = cut(parts, 1)
        line.values["bh-c2"] = cut(parts, 2)
        line.values["sb"] = sum(points * opponent for _vur, opponent, points in parts)
        line.values["won"] = sum(1 for cell in line.cells if cell.won_at_board)
        line.values["win"] = sum(1 for cell in line.cells if cell.points == 1.0)
        line.values["de"] = 0.0
    start = {player: index for index, player in enumerate(entrants)}
    by_points: dict[float, list[Line]] = {}
    for line in sorted(lines.values(), key=lambda line: start[line.player]):
        by_points.setdefault(line.points, []).append(line)
    ranked: list[Line] = []
    for points in sorted(by_points, reverse=True):
        for group in split(by_points[points], list(order), round_robin):
            for line in group:
                line.rank = len(ranked) + 1
            ranked.extend(group)
    return ranked


def split(group: list[Line], order: list[str], round_robin: bool) -> list[list[Line]]:
    """The tied `group` broken by the tie-breaks of `order` in turn, best first."""
    if len(group) == 1 or not order:
        return [group]
    first, rest = order[0], order[1:]
    if first == "de":
        parts = direct_encounter(group)
        out: list[list[Line]] = []
        for part in parts:
            # Art. 6: a smaller group left tied is looked at again on its own games first.
            again = len(part) < len(group) and len(part) > 1
            out.extend(split(part, order if again else rest, round_robin))
        return out
    values = sorted({line.values[first] for line in group}, reverse=True)
    out = []
    for value in values:
        same = [line for line in group if line.values[first] == value]
        out.extend(split(same, rest, round_robin))
    return out


def direct_encounter(group: list[Line]) -> list[list[Line]]:
    """Art. 6: the points each scored against the others of the group (the mean against one
    met several times). If all met, those points rank them; if not, a player goes ahead only
    when nobody else could reach their points by winning every game still missing."""
    members = {line.player for line in group}
    scores: dict[int, float] = {}
    could: dict[int, float] = {}
    for line in group:
        against: dict[int, list[float]] = {}
        for cell in line.cells:
            # A meeting is a game whose opponent counts: at the board in a Swiss, any pairing
            # (a forfeit too) in a round robin.
            if cell.opponent in members and cell.counts_opponent:
                against.setdefault(cell.opponent, []).append(cell.points)
        scores[line.player] = sum(sum(p) / len(p) for p in against.values())
        could[line.player] = scores[line.player] + (len(group) - 1 - len(against))
        line.values["de"] = scores[line.player]
    everyone_met = all(could[p] == scores[p] for p in members)
    if everyone_met:
        levels = sorted(set(scores.values()), reverse=True)
        return [[line for line in group if scores[line.player] == level] for level in levels]
    ahead: list[list[Line]] = []
    left = list(group)
    while len(left) > 1:
        best = max(scores[line.player] for line in left)
        leaders = [line for line in left if scores[line.player] == best]
        if len(leaders) > 1:
            break
        leader = leaders[0]
        if all(could[line.player] < best for line in left if line is not leader):
            ahead.append([leader])
            left.remove(leader)
        else:
            break
    return [*ahead, left]


def file_ranks_hold(
    points: Mapping[int, float], with_game: set[int], ranks: Mapping[int, int | None]
) -> bool:
    """The club's rule for a file's own final ranks: every entrant with a game has one
    above 0, no two share one, and no better rank has fewer points than a worse one."""
    given = [ranks.get(player) for player in with_game]
    if not given or any(rank is None or rank <= 0 for rank in given):
        return False
    if len(set(given)) != len(given):
        return False
    in_order = sorted(with_game, key=lambda player: ranks[player] or 0)
    return all(points[a] >= points[b] for a, b in pairwise(in_order))
