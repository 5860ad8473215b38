"""FIDE tie-breaks for an event's standings, from its games alone.

Pure Python (no Django) so the event page and club night can share it and the
arithmetic is tested without a database. Article numbers are those of the FIDE
Play-off and Tie-Break Regulations, Handbook C.07: the 2023 text (approved
1 August 2023, for all FIDE-rated events from 1 April 2024, re-issued then with
clearer explanations and unchanged definitions) and its amendment approved by the
FIDE Council on 2 February 2026, in force from 1 March 2026, which caps the dummy
opponent's score (art. 16.4). `Rules` picks the text; the newest is the default.

Unplayed rounds in a Swiss (art. 16):
- A forfeit win, a pairing-allocated bye and a full-point bye are unplayed but
  not the participant's choice. Every other unplayed round (a half- or
  zero-point bye, a forfeit loss, a double forfeit, a round with no game at all)
  is a "voluntary unplayed round", VUR (art. 16.2).
- In the tie-breaks of a participant's *opponents* every round counts the points
  it gave (16.3.1), except the VURs without an opponent that come after the
  participant's last round that is not a VUR, which count as draws (16.3.2):
  withdrawing does not punish the people met earlier; a forfeit loss keeps its 0.
- In the participant's *own* Buchholz and Sonneborn-Berger, each unplayed round
  is a game against a dummy opponent whose score is the participant's own
  (16.4); since 2026 no more than the scheduled opponent's adjusted score for a
  forfeit (16.4.1), or than a draw in every round for a bye or absence (16.4.2).
- The Cut modifiers remove a VUR's contribution before any other (16.5).

With pre-determined pairings (a round robin) art. 16 does not apply: a forfeit
counts as a game against its opponent, and a round without one adds nothing.

The FIDE TEC's worked examples (IA Mario Held, "Exercises in Tie-Breaking",
FIDE Arbiters' Commission, 2024) are the tests. The Python checker by the FIDE
tie-break author (OttoMilvang/TieBreakServer) is GPL, so this module is written
here rather than taken from it; the maintained FIDE-compliant alternatives are
TypeScript or Go packages.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from clubs.results import PAIRING_BYES, RESULT_SCORES, Result

DRAW = 0.5  # the points of a draw, a VUR's worth for opponents (16.3.2) and the 2026 cap


class Rules(enum.Enum):
    FIDE_2024 = "2024"  # C.07 as applied to every rated event from 1 April 2024
    FIDE_2026 = "2026"  # + the dummy opponent's caps of art. 16.4, from 1 March 2026


FIDE_2026_IN_FORCE = dt.date(2026, 3, 1)


class Tiebreak(enum.StrEnum):
    BUCHHOLZ_CUT1 = "bh-c1"  # art. 8.1 with the Cut-1 modifier of art. 14.1
    BUCHHOLZ_CUT2 = "bh-c2"  # art. 8.1 with the Cut-2 modifier of art. 14.2
    BUCHHOLZ = "bh"  # art. 8.1
    SONNEBORN_BERGER = "sb"  # art. 9.1
    DIRECT_ENCOUNTER = "de"  # art. 6
    WINS = "won"  # art. 7.2 (WON): games won over the board
    ROUNDS_WON = "win"  # art. 7.1 (WIN): rounds scored as a win, forfeits and byes included


# The club's order until a club chooses its own: Buchholz Cut-1 first, as FIDE
# recommends for individual Swiss events.
DEFAULT_ORDER: tuple[Tiebreak, ...] = (
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.WINS,
)


def parse_order(codes: Sequence[str]) -> tuple[Tiebreak, ...]:
    """A club's stored order (the codes of `Tiebreak`), checked; empty means DEFAULT_ORDER."""
    if not codes:
        return DEFAULT_ORDER
    order: list[Tiebreak] = []
    for code in codes:
        try:
            tiebreak = Tiebreak(code)
        except ValueError:
            raise ValueError(f"unknown tie-break {code!r}") from None
        if tiebreak in order:
            raise ValueError(f"tie-break {code!r} is listed twice")
        order.append(tiebreak)
    return tuple(order)


@dataclass(frozen=True)
class Game:
    """One pairing or bye of a round: black is None for a bye."""

    round: int
    white: int
    black: int | None
    result: Result


class _Round(NamedTuple):
    # A named tuple, not a frozen dataclass: an open of 284 players makes 2,500 of these on
    # every event page, and a frozen dataclass's __init__ costs several times a tuple's.
    round: int
    opponent: int | None  # who was paired (a forfeit keeps it: 16.4.1, round robins)
    points: float
    voluntary: bool  # a VUR (art. 16.2)
    played: bool  # scored against the opponent, not the dummy (over the board; any RR pairing)
    met: bool  # counts in direct encounter
    won_over_board: bool = False


@dataclass
class Values:
    """One entrant's points and tie-break values, and the rank they lead to."""

    player: int
    points: float = 0.0
    buchholz: float = 0.0
    buchholz_cut1: float = 0.0
    buchholz_cut2: float = 0.0
    sonneborn_berger: float = 0.0
    direct_encounter: float = 0.0  # points against the group tied when it was last applied
    wins: int = 0  # WON
    rounds_won: int = 0  # WIN
    rank: int = 0
    # A list, not a dict by round: a club night may pair someone twice in one round.
    rounds: list[_Round] = field(default_factory=list, repr=False)
    seen: set[int] = field(default_factory=set, repr=False)

    def value(self, tiebreak: Tiebreak) -> float:
        # An attribute look-up, not a dict built per call: the events list breaks the ties
        # of every event, and this runs for each comparison.
        return float(getattr(self, _VALUE_FIELDS[tiebreak]))


_VALUE_FIELDS: dict[Tiebreak, str] = {
    Tiebreak.BUCHHOLZ_CUT1: "buchholz_cut1",
    Tiebreak.BUCHHOLZ_CUT2: "buchholz_cut2",
    Tiebreak.BUCHHOLZ: "buchholz",
    Tiebreak.SONNEBORN_BERGER: "sonneborn_berger",
    Tiebreak.DIRECT_ENCOUNTER: "direct_encounter",
    Tiebreak.WINS: "wins",
    Tiebreak.ROUNDS_WON: "rounds_won",
}


def rules_on(day: dt.date) -> Rules:
    """The regulations in force for an event played on `day`: the 2026 amendment (its cap
    on the dummy opponent) applies from 1 March 2026."""
    return Rules.FIDE_2026 if day >= FIDE_2026_IN_FORCE else Rules.FIDE_2024


# Byes that are not the participant's choice (art. 16.2); every other bye is a VUR.
_INVOLUNTARY_BYES = frozenset({*PAIRING_BYES, Result.BYE_FULL})
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


def _rounds(
    entrants: Sequence[int], games: Iterable[Game], round_robin: bool
) -> tuple[dict[int, Values], int]:
    table = {player: Values(player) for player in entrants}
    last_round = 0
    for game in games:
        last_round = max(last_round, game.round)
        white_points, black_points = RESULT_SCORES[game.result]
        # Not setdefault(…, Values(…)): that builds a Values for every game, found or not.
        white = table.get(game.white) or table.setdefault(game.white, Values(game.white))
        white.seen.add(game.round)
        if game.black is None:
            voluntary = game.result not in _INVOLUNTARY_BYES
            white.rounds.append(_Round(game.round, None, white_points, voluntary, False, False))
            continue
        black = table.get(game.black) or table.setdefault(game.black, Values(game.black))
        black.seen.add(game.round)
        if game.result in _OVER_THE_BOARD:
            white_won, black_won = white_points > black_points, black_points > white_points
            white.rounds.append(
                _Round(game.round, game.black, white_points, False, True, True, white_won)
            )
            black.rounds.append(
                _Round(game.round, game.white, black_points, False, True, True, black_won)
            )
        else:
            # A forfeit: in a Swiss unplayed for both (art. 16.1), a VUR for a side that
            # scored nothing; in a round robin a game against the paired opponent.
            white.rounds.append(
                _Round(
                    game.round,
                    game.black,
                    white_points,
                    not round_robin and white_points == 0,
                    round_robin,
                    round_robin,
                )
            )
            black.rounds.append(
                _Round(
                    game.round,
                    game.white,
                    black_points,
                    not round_robin and black_points == 0,
                    round_robin,
                    round_robin,
                )
            )
    for values in table.values():
        # A round with no game at all (absent, withdrawn) is a zero-point VUR (art. 16.2).
        missing = sorted(set(range(1, last_round + 1)) - values.seen)
        values.rounds.extend(_Round(r, None, 0.0, not round_robin, False, False) for r in missing)
        values.points = sum(r.points for r in values.rounds)
        values.wins = sum(r.won_over_board for r in values.rounds)
        values.rounds_won = sum(r.points == 1.0 for r in values.rounds)
    return table, last_round


def _adjusted(values: Values, round_robin: bool) -> float:
    """The score a participant contributes to opponents' tie-breaks (art. 16.3)."""
    if round_robin:
        return values.points
    last_chosen = max((r.round for r in values.rounds if not r.voluntary), default=0)
    return sum(
        DRAW if r.voluntary and r.opponent is None and r.round > last_chosen else r.points
        for r in values.rounds
    )


def _cuts(contributions: list[tuple[bool, float]], most: int) -> list[float]:
    """The sums left after removing none, one, …, `most` of the contributions, each time the
    lowest VUR's first (14.1, 14.2, 16.5): one sort for every Cut modifier."""
    # Sorted once, VURs first and each part lowest first: removing from the front is
    # removing the lowest VUR while there is one, then the lowest other contribution.
    ordered = [c for _, c in sorted(contributions, key=lambda c: (not c[0], c[1]))]
    return [sum(ordered[cuts:], 0.0) for cuts in range(most + 1)]


def compute(
    entrants: Sequence[int],
    games: Iterable[Game],
    order: Sequence[Tiebreak] = DEFAULT_ORDER,
    *,
    up_to_round: int | None = None,
    rules: Rules = Rules.FIDE_2026,
    round_robin: bool = False,
    leaders_only: bool = False,
) -> list[Values]:
    """Every entrant's values, best first, with ranks; ties left after `order` share a rank.

    `leaders_only` computes the tie-breaks of the players on the top score alone and
    returns only them (who won, for a list of events: the rest is never shown there).

    `entrants` is in a stable order (start rank): it orders players who stay tied.
    `up_to_round` gives the standings after that round: later games are ignored and
    "the rounds" of the 2026 cap are those up to the last round with a game.
    `order` may hold any of the `Tiebreak` members in any order (see parse_order)."""
    if up_to_round is not None:
        games = [g for g in games if g.round <= up_to_round]
    table, rounds = _rounds(entrants, games, round_robin)
    adjusted = {player: _adjusted(values, round_robin) for player, values in table.items()}
    top = max((v.points for v in table.values()), default=0.0)
    for values in table.values():
        if leaders_only and values.points != top:
            continue
        contributions: list[tuple[bool, float]] = []  # (is VUR, contribution to Buchholz)
        sb = 0.0
        for game_round in values.rounds:
            if game_round.played and game_round.opponent is not None:
                score = adjusted[game_round.opponent]
            elif round_robin:
                continue  # a round robin's bye adds nothing
            else:
                score = _dummy(values.points, game_round, adjusted, rounds, rules)
            contributions.append((game_round.voluntary, score))
            sb += game_round.points * score
        values.buchholz, values.buchholz_cut1, values.buchholz_cut2 = _cuts(contributions, 2)
        values.sonneborn_berger = sb

    position = {player: index for index, player in enumerate(entrants)}
    ordered = sorted(
        table.values(), key=lambda v: (-v.points, position.get(v.player, len(position)))
    )
    result: list[Values] = []
    groups = _split(ordered, lambda v: v.points)
    for group in groups[:1] if leaders_only else groups:
        for tied in _break(group, list(order), round_robin):
            rank = len(result) + 1
            for values in tied:
                values.rank = rank
            result.extend(tied)
    return result


def _dummy(
    own: float, game_round: _Round, adjusted: dict[int, float], rounds: int, rules: Rules
) -> float:
    """The dummy opponent's score for an unplayed round (art. 16.4)."""
    if rules is Rules.FIDE_2024:
        return own
    if game_round.opponent is not None:
        return min(own, adjusted[game_round.opponent])  # a forfeit (16.4.1)
    return min(own, DRAW * rounds)  # a bye or an absence (16.4.2)


def _split(ordered: list[Values], key: Callable[[Values], float]) -> list[list[Values]]:
    groups: list[list[Values]] = []
    for values in ordered:
        value = key(values)
        if groups and key(groups[-1][0]) == value:
            groups[-1].append(values)
        else:
            groups.append([values])
    return groups


def _break(group: list[Values], order: list[Tiebreak], round_robin: bool) -> list[list[Values]]:
    """Groups still tied, best first: the first tie-break, then each remaining tie by the next.

    Direct encounter is applied again to a smaller group it leaves tied, before
    the next tie-break (art. 6): the games among the fewer players may separate them."""
    if len(group) < 2 or not order:
        return [group]
    tiebreak, rest = order[0], order[1:]
    if tiebreak is Tiebreak.DIRECT_ENCOUNTER:
        subgroups = _direct_encounter(group, round_robin)
    else:
        ordered = sorted(group, key=lambda v: -v.value(tiebreak))  # stable: start rank stays
        subgroups = _split(ordered, lambda v: v.value(tiebreak))
    broken: list[list[Values]] = []
    for sub in subgroups:
        again = tiebreak is Tiebreak.DIRECT_ENCOUNTER and len(sub) < len(group)
        broken.extend(_break(sub, order if again else rest, round_robin))
    return broken


def _direct_encounter(group: list[Values], round_robin: bool) -> list[list[Values]]:
    """The tied group split by the points scored against each other (art. 6).

    Meeting one opponent more than once counts the average against them. When every
    pair met, the sums rank the group. When some pair did not meet, only a player
    whose sum no other could reach by winning every missing game is ranked ahead,
    then the next such player; the rest stay tied (art. 6.2). In a Swiss only games
    played over the board count as meetings; in a round robin forfeits do too."""
    members = {v.player for v in group}
    scored: dict[int, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for values in group:
        for game_round in values.rounds:
            if game_round.met and game_round.opponent in members:
                scored[values.player][game_round.opponent].append(game_round.points)
    best: dict[int, float] = {}
    for values in group:
        against = scored[values.player]
        values.direct_encounter = sum(sum(p) / len(p) for p in against.values())
        best[values.player] = values.direct_encounter + (len(group) - 1 - len(against))
    ordered = sorted(group, key=lambda v: -v.direct_encounter)  # stable: start rank stays
    if all(best[v.player] == v.direct_encounter for v in group):
        return _split(ordered, lambda v: v.direct_encounter)
    ordered = sorted(ordered, key=lambda v: -best[v.player])
    ordered = sorted(ordered, key=lambda v: -v.direct_encounter)
    ahead: list[list[Values]] = []
    while len(ordered) > 1 and ordered[0].direct_encounter > max(
        best[v.player] for v in ordered[1:]
    ):
        ahead.append([ordered.pop(0)])
    return [*ahead, ordered]
