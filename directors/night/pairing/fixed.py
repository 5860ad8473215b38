"""Pairings fixed by the rules alone, no engine and no library: the FIDE Berger tables of a
round robin (C.05 Annex 1), round 1 of a Dutch Swiss (C.04.3) in one score group, and the
Baku acceleration's figures (C.04.5.1).

Pure: no Django, no pairing library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class PairingImpossible(Exception):
    """No pairing satisfies the rules. The message says why, in plain English, as a clause
    that reads after "Round 3 cannot be paired: "."""


@dataclass(frozen=True)
class RoundPairing:
    boards: tuple[tuple[int, int], ...]  # (white id, black id), board 1 first
    bye: int | None  # the pairing-allocated bye, if any


def baku_group_size(players: int) -> int:
    """How many players the Baku acceleration's group A holds (C.04.5.1): the first half,
    rounded up to an even number, 2 * ceil(players / 4)."""
    return 2 * -(-players // 4)


def baku_virtual_points(round_number: int, total_rounds: int) -> float:
    """Group A's virtual points when pairing `round_number` (C.04.5.1): the accelerated
    rounds are the first half of the event (rounded up); 1 point in the first half of them
    (rounded up), ½ in the rest, none after."""
    accelerated_rounds = -(-total_rounds // 2)
    if round_number <= -(-accelerated_rounds // 2):
        return 1.0
    if round_number <= accelerated_rounds:
        return 0.5
    return 0.0


def dutch_round_one(present: Sequence[int], *, white_first: bool = True) -> RoundPairing:
    """Round 1 of a Dutch Swiss where every player present is in one score group (no
    acceleration, no forbidden pair on the way), `present` in pairing-number order: the
    lowest has the pairing-allocated bye of an odd field (nobody has had one), then S1[i]
    meets S2[i] (C.04.3 B.1, the first transposition); the higher player has the drawn
    colour on boards 1, 3, 5, ... and the other on 2, 4, ... (E.5, the colour going by the
    players' numbers among those paired, as bbpPairings counts them), and the boards go in
    S1 order (D.9: all scores equal, so by the higher player's rank)."""
    players = list(present)
    bye = players.pop() if len(players) % 2 else None
    half = len(players) // 2
    boards = []
    for board, (high, low) in enumerate(zip(players[:half], players[half:], strict=True)):
        boards.append((high, low) if (board % 2 == 0) == white_first else (low, high))
    return RoundPairing(boards=tuple(boards), bye=bye)


def round_robin(seeds: Sequence[int], *, double: bool = False) -> tuple[RoundPairing, ...]:
    """Every round of a Berger-table round robin for ids in seed order (seed 1 first);
    an odd count gets a bye each round (the dummy). Double = second cycle with colours reversed."""
    if len(set(seeds)) != len(seeds):
        raise ValueError("an id appears twice in the seeds")
    if len(seeds) < 2:
        raise PairingImpossible("a round robin needs at least two players.")
    # An odd field plays the table of one more: whoever meets the dummy has the bye.
    size = len(seeds) + len(seeds) % 2
    slot: dict[int, int | None] = dict(enumerate(seeds, start=1))
    slot.setdefault(size, None)

    first_cycle = []
    for table_round in _berger_tables(size):
        boards: list[tuple[int, int]] = []
        bye: int | None = None
        for w, b in table_round:
            white, black = slot[w], slot[b]
            if white is None or black is None:
                bye = white if black is None else black
            else:
                boards.append((white, black))
        first_cycle.append(RoundPairing(boards=tuple(boards), bye=bye))
    if not double:
        return tuple(first_cycle)
    second_cycle = [
        RoundPairing(boards=tuple((b, w) for w, b in r.boards), bye=r.bye) for r in first_cycle
    ]
    return (*first_cycle, *second_cycle)


def _berger_tables(size: int) -> list[list[tuple[int, int]]]:
    """The FIDE Berger table for an even `size`, as (white, black) pairing numbers per board.

    Round 1 is 1-n, 2-(n-1), ...; each next round starts from the previous one's last board
    turned into its first: numbers 1..n-1 move on by n/2 places (mod n-1) while n stays put,
    alternating colours, which is how the published tables are built."""
    half = size // 2
    rounds = []
    for r in range(size - 1):
        # Pairing number sitting at position k of the rotating ring this round.
        def ring(k: int, r: int = r) -> int:
            return (k + r * half) % (size - 1) + 1

        # Board 1: the fixed player n against ring(0); n has black in odd rounds.
        first = (ring(0), size) if r % 2 == 0 else (size, ring(0))
        others = [(ring(i), ring(size - 1 - i)) for i in range(1, half)]
        rounds.append([first, *others])
    return rounds
