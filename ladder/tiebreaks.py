"""FIDE tie-breaks for an event's standings, from its games alone.

Pure Python (no Django) so the event page and club night can share it and the
arithmetic is tested without a database. Article numbers are those of the FIDE
Tie-Break Regulations, Handbook C.07 (2023 edition, in force for rated events
from 1 April 2024).

Unplayed rounds (C.07 art. 16):
- A forfeit win and a pairing-allocated bye are unplayed but not the
  participant's choice; every other unplayed round (a requested bye of any
  value, a forfeit loss, a double forfeit, an absence or a round after
  withdrawal) is a "voluntary unplayed round", VUR (art. 16.2).
- In the tie-breaks of a participant's *opponents*, each VUR of the participant
  counts as a draw (art. 16.3): a withdrawal does not punish the people who met
  that player earlier.
- In the participant's *own* Buchholz and Sonneborn-Berger, each unplayed round
  counts as a game against a dummy opponent whose score is the participant's
  own score (art. 16.4).
- Cut modifiers remove VUR contributions first (art. 16.5).

No maintained Python library implements these rules (the FIDE-compliant ones
found are TypeScript or Go packages, or a checker application), so this is the
small module written here.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ladder.results import RESULT_SCORES, Result


class Tiebreak(enum.StrEnum):
    BUCHHOLZ_CUT1 = "bh-c1"  # art. 8.1 with the Cut-1 modifier of art. 14.1
    BUCHHOLZ = "bh"  # art. 8.1
    SONNEBORN_BERGER = "sb"  # art. 9.1
    DIRECT_ENCOUNTER = "de"  # art. 6
    WINS = "won"  # art. 7.2: games won over the board


# The club's order until a club can choose its own: Buchholz Cut-1 first, as FIDE
# recommends for individual Swiss events (art. 4.6 / table of art. 15).
DEFAULT_ORDER: tuple[Tiebreak, ...] = (
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.WINS,
)


@dataclass(frozen=True)
class Game:
    """One pairing or bye of a round: black is None for a bye."""

    round: int
    white: int
    black: int | None
    result: Result


@dataclass(frozen=True)
class _Round:
    opponent: int | None  # who was paired (a forfeit keeps it, for direct encounter)
    points: float
    voluntary: bool  # a VUR (art. 16.2)
    played: bool = False  # over the board; otherwise scored against the dummy opponent
    won_over_board: bool = False


@dataclass
class Values:
    """One entrant's points and tie-break values, and the rank they lead to."""

    player: int
    points: float = 0.0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    sonneborn_berger: float = 0.0
    direct_encounter: float = 0.0  # within the group tied when it was applied
    wins: int = 0
    rank: int = 0
    # A list, not a dict by round: a club night may pair someone twice in one round.
    rounds: list[_Round] = field(default_factory=list, repr=False)
    seen: set[int] = field(default_factory=set, repr=False)

    def value(self, tiebreak: Tiebreak) -> float:
        return {
            Tiebreak.BUCHHOLZ_CUT1: self.buchholz_cut1,
            Tiebreak.BUCHHOLZ: self.buchholz,
            Tiebreak.SONNEBORN_BERGER: self.sonneborn_berger,
            Tiebreak.DIRECT_ENCOUNTER: self.direct_encounter,
            Tiebreak.WINS: float(self.wins),
        }[tiebreak]


# Unplayed results that are not the player's choice (art. 16.2).
_FORFEIT_WIN_FOR_WHITE = Result.WHITE_FORFEIT_WIN
_FORFEIT_WIN_FOR_BLACK = Result.BLACK_FORFEIT_WIN
_INVOLUNTARY_BYES = frozenset({Result.BYE_PAIRING})
_OVER_THE_BOARD = frozenset(
    {
        Result.WHITE_WIN,
        Result.DRAW,
        Result.BLACK_WIN,
        Result.UNRATED_WHITE_WIN,
        Result.UNRATED_DRAW,
        Result.UNRATED_BLACK_WIN,
    }
)


def _rounds(entrants: Sequence[int], games: Iterable[Game]) -> dict[int, Values]:
    table = {player: Values(player) for player in entrants}
    last_round = 0
    for game in games:
        last_round = max(last_round, game.round)
        white_points, black_points = RESULT_SCORES[game.result]
        white = table.setdefault(game.white, Values(game.white))
        white.seen.add(game.round)
        if game.black is None:
            voluntary = game.result not in _INVOLUNTARY_BYES
            white.rounds.append(_Round(None, white_points, voluntary))
            continue
        black = table.setdefault(game.black, Values(game.black))
        black.seen.add(game.round)
        if game.result in _OVER_THE_BOARD:
            white_won, black_won = white_points > black_points, black_points > white_points
            white.rounds.append(_Round(game.black, white_points, False, True, white_won))
            black.rounds.append(_Round(game.white, black_points, False, True, black_won))
        else:
            # A forfeit: unplayed for both (art. 16.1); the winner did not choose it,
            # the loser (or both, in a double forfeit) did. The opponent is kept:
            # direct encounter counts the points scored against each other (art. 6).
            white_chose = game.result != _FORFEIT_WIN_FOR_WHITE
            black_chose = game.result != _FORFEIT_WIN_FOR_BLACK
            white.rounds.append(_Round(game.black, white_points, white_chose))
            black.rounds.append(_Round(game.white, black_points, black_chose))
    for values in table.values():
        # A round with no game at all (absent, withdrawn) is a zero-point VUR (art. 16.2).
        missing = set(range(1, last_round + 1)) - values.seen
        values.rounds.extend(_Round(None, 0.0, True) for _ in missing)
        values.points = sum(r.points for r in values.rounds)
    return table


def compute(
    entrants: Sequence[int],
    games: Iterable[Game],
    order: Sequence[Tiebreak] = DEFAULT_ORDER,
) -> list[Values]:
    """Every entrant's values, best first, with ranks; ties left after `order` share a rank.

    `entrants` is in a stable order (start rank): it orders players who stay tied."""
    table = _rounds(entrants, games)

    # The score an opponent contributes: VURs counted as draws (art. 16.3).
    adjusted = {
        player: sum(0.5 if r.voluntary else r.points for r in values.rounds)
        for player, values in table.items()
    }
    for values in table.values():
        contributions: list[tuple[bool, float]] = []  # (is VUR, contribution)
        sb = 0.0
        for game_round in values.rounds:
            if not game_round.played or game_round.opponent is None:
                # Dummy opponent with the participant's own score (art. 16.4).
                contributions.append((game_round.voluntary, values.points))
                sb += game_round.points * values.points
            else:
                opponent_score = adjusted[game_round.opponent]
                contributions.append((False, opponent_score))
                sb += game_round.points * opponent_score
            if game_round.won_over_board:
                values.wins += 1
        values.buchholz = sum(c for _, c in contributions)
        values.sonneborn_berger = sb
        if contributions:
            # Cut-1 drops the lowest contribution, a VUR's first (art. 14.1, 16.5).
            cut = min(contributions, key=lambda c: (not c[0], c[1]))
            values.buchholz_cut1 = values.buchholz - cut[1]

    position = {player: index for index, player in enumerate(entrants)}
    ordered = sorted(
        table.values(), key=lambda v: (-v.points, position.get(v.player, len(position)))
    )
    result: list[Values] = []
    for group in _split(ordered, lambda v: v.points):
        result.extend(_break(group, list(order)))
    for index, values in enumerate(result):
        previous = result[index - 1] if index else None
        tied = previous is not None and _tied(previous, values, order)
        values.rank = previous.rank if previous is not None and tied else index + 1
    return result


def _tied(a: Values, b: Values, order: Sequence[Tiebreak]) -> bool:
    return a.points == b.points and all(a.value(t) == b.value(t) for t in order)


def _split(ordered: list[Values], key: Callable[[Values], float]) -> list[list[Values]]:
    groups: list[list[Values]] = []
    for values in ordered:
        value = key(values)
        if groups and key(groups[-1][0]) == value:
            groups[-1].append(values)
        else:
            groups.append([values])
    return groups


def _break(group: list[Values], order: list[Tiebreak]) -> list[Values]:
    """Order one tied group by the first tie-break, then each remaining tie by the next."""
    if len(group) < 2 or not order:
        return group
    tiebreak, rest = order[0], order[1:]
    if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
        _direct_encounter(group)
    ordered = sorted(group, key=lambda v: -v.value(tiebreak))  # stable: start rank stays
    broken: list[Values] = []
    for sub in _split(ordered, lambda v: v.value(tiebreak)):
        broken.extend(_break(sub, rest))
    return broken


def _direct_encounter(group: list[Values]) -> None:
    """Points scored against the other tied players, when every pair of them met (art. 6.1).

    When some pair did not meet, art. 6.2's partial rules are not applied: the
    group is left to the next tie-break (every value stays 0)."""
    members = {v.player for v in group}
    met: dict[int, set[int]] = defaultdict(set)
    for values in group:
        values.direct_encounter = 0.0
        for game_round in values.rounds:
            if game_round.opponent in members:
                met[values.player].add(game_round.opponent)
    if any(met[v.player] != members - {v.player} for v in group):
        return
    for values in group:
        values.direct_encounter = sum(r.points for r in values.rounds if r.opponent in members)
