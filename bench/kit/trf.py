"""A Swiss event so far as a TRF-16 file for a second engine (bbpPairings), and its answer read
back (issue 34: our pairing timed against bbpPairings on the same input, in one run).

`write_trf` writes what `directors.night.pairing.pair_swiss` hands py4swiss, as text: the same
starting numbers (`_pairing_order`, players known only from the history last), the same round
cells (a round without an entry is a zero-point bye "Z", as in swiss._build_trf), and a
"0000 - Z" cell in the round being paired for everyone not to be paired (bbpPairings reads the
last column as that round's byes). Ratings go in the rating columns, the points column is the
score so far, ``XXR`` the total rounds, ``XXC white1``/``black1`` the first colour and ``BBU``
what a pairing-allocated bye scored when it is not a whole point (bbpPairings checks every
points column against the cells with its point system).

Pure: no Django, nothing the project imports.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from clubs.results import PAIRING_BYES, RESULT_SCORES
from directors.night.pairing.swiss import (
    BYE_TOKENS,
    GAME_TOKENS,
    Entrant,
    PastGame,
    _pairing_order,
)

# The round cells' codes are the engine's own (swiss.GAME_TOKENS, BYE_TOKENS): the file says
# what pair_swiss hands py4swiss. A pairing-allocated bye is written "U" whatever it scores.


@dataclass(frozen=True)
class TrfEvent:
    text: str  # the file, lines ending in "\n"
    number: dict[int, int]  # entrant id -> starting number in the file
    player_of: dict[int, int]  # starting number -> entrant id


def starting_numbers(
    entrants: Sequence[Entrant], history: Sequence[PastGame], absent: Collection[int]
) -> dict[int, int]:
    """Entrant id -> starting number, as pair_swiss numbers them for py4swiss."""
    ordered = _pairing_order(entrants, history, set(absent))
    number = {e.id: i for i, e in enumerate(ordered, start=1)}
    known = set(number)
    ghosts = sorted({pid for g in history for pid in (g.white, g.black) if pid is not None} - known)
    for pid in ghosts:
        number[pid] = len(number) + 1
    return number


def _cell(opponent: int, colour: str, code: str) -> str:
    return f"{opponent:4d} {colour} {code}" if opponent else f"0000 - {code}"


def _points(value: float) -> str:
    return f"{value:4.1f}"


def write_trf(
    entrants: Sequence[Entrant],
    history: Sequence[PastGame],
    round_number: int,
    total_rounds: int,
    absent: Collection[int] = (),
    *,
    white_first: bool = True,
    name: str = "bench/pairing.py",
) -> TrfEvent:
    """The event before `round_number` as TRF-16, to pair `round_number` without `absent`."""
    number = starting_numbers(entrants, history, absent)
    rating = {e.id: e.rating for e in entrants}
    skip = set(absent) | (set(number) - {e.id for e in entrants})
    cells: dict[int, dict[int, str]] = {pid: {} for pid in number}
    points: dict[int, float] = dict.fromkeys(number, 0.0)
    allocated_points: float | None = None

    def put(pid: int, rnd: int, cell: str) -> None:
        if rnd in cells[pid]:
            raise ValueError(f"player {pid} has two entries in round {rnd}")
        cells[pid][rnd] = cell

    for g in history:
        white_points, black_points = RESULT_SCORES[g.result]
        points[g.white] += white_points
        if g.black is None:
            allocated = g.allocated or g.result in PAIRING_BYES
            if allocated:
                if allocated_points not in (None, white_points):
                    raise ValueError("pairing-allocated byes that score differently")
                allocated_points = white_points
                put(g.white, g.round, _cell(0, "-", "U"))
            elif g.result in BYE_TOKENS:
                put(g.white, g.round, _cell(0, "-", BYE_TOKENS[g.result]))
            else:
                raise ValueError(f"round {g.round}: {g.result!r} needs an opponent")
            continue
        points[g.black] += black_points
        white_code, black_code = GAME_TOKENS[g.result]
        put(g.white, g.round, _cell(number[g.black], "w", white_code))
        put(g.black, g.round, _cell(number[g.white], "b", black_code))

    lines = [f"012 {name}"]
    for pid, n in sorted(number.items(), key=lambda item: item[1]):
        last = round_number if pid in skip else round_number - 1
        row = "".join("  " + cells[pid].get(rnd, _cell(0, "-", "Z")) for rnd in range(1, last + 1))
        rated = f"{rating[pid]:4d}" if rating.get(pid) else "    "
        # TRF-16 columns: number 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89,
        # the round cells from 92 on, ten columns each.
        head = (
            f"001 {n:4d} {'':1}{'':3} {'Player ' + str(pid):<33.33} {rated} {'':3} {'':11} "
            f"{'':10} {_points(points[pid])} {n:4d}"
        )
        lines.append(head + row)
    lines.append(f"XXR {total_rounds}")
    lines.append("XXC " + ("white1" if white_first else "black1"))
    if allocated_points is not None and allocated_points != 1.0:
        lines.append(f"BBU {_points(allocated_points)}")
    return TrfEvent(
        text="\n".join(lines) + "\n",
        number=number,
        player_of={n: pid for pid, n in number.items()},
    )


def read_pairing(text: str, player_of: dict[int, int]) -> tuple[list[tuple[int, int]], int | None]:
    """bbpPairings' output (a count, then "white black" by board, "n 0" for the bye) as
    (boards of entrant ids, white first; the bye's id or None)."""
    rows = [line.split() for line in text.splitlines() if line.strip()]
    count = int(rows[0][0])
    if count != len(rows) - 1:
        raise ValueError(f"bbpPairings announced {count} pairs and wrote {len(rows) - 1}")
    boards: list[tuple[int, int]] = []
    bye: int | None = None
    for white, black in ((int(a), int(b)) for a, b in rows[1:]):
        if black == 0:
            bye = player_of[white]
        else:
            boards.append((player_of[white], player_of[black]))
    return boards, bye


def boards_differing(ours: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]]) -> int:
    """How many of our boards bbpPairings did not pair the same (the same two players with
    the same colours, whatever the board order)."""
    return len(set(ours) - set(theirs))
