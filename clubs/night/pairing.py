"""Pairings for a club night: FIDE Dutch Swiss rounds and Berger round robins.

Pure: no Django imports. The Swiss pairing is delegated to py4swiss (a Python port of the
FIDE-endorsed bbpPairings that uses bbpPairings' own C++ matching code); everything that
is specific to that library (its TRF(x) model, result tokens, starting numbers) stays in
this module so the library can be replaced without touching callers.

How the event's history is read, following bbpPairings (and so py4swiss):

- Only games played over the board (including unrated W/D/L results) count as "have met"
  (C.04.1.b) and for colour history. A forfeit is an unplayed game: the two players may be
  paired again, and neither got a colour. A forfeit still scores its points.
- A player who did not play a round (bye, forfeit, absent) gets a downfloat for it (A.4.b).
- The pairing-allocated bye goes at most once to a player, and never to one who already has
  a forfeit win (C.04.1.d). A requested bye (full, half or zero) does not count.
- A round with no entry for a player is an absence scoring 0 (TRF "Z").

The round robin uses the FIDE Berger tables (C.05 Annex 1), computed here rather than taken
from a library: the tables are a fixed rotation, and they are tested against the published
tables.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from ladder.results import PAIRING_BYES, RESULT_SCORES, Result

# py4swiss is imported inside the functions that use it, not here: it builds its pydantic models
# on import, a good part of a data command's start-up, and most commands never pair a round.
if TYPE_CHECKING:
    from py4swiss.trf import ParsedTrf  # type: ignore[import-untyped]
    from py4swiss.trf.results import ResultToken, RoundResult  # type: ignore[import-untyped]


class PairingImpossible(Exception):
    """No pairing satisfies the rules. The message says why, in plain English, as a clause
    that reads after "Round 3 cannot be paired: "."""


@dataclass(frozen=True)
class Entrant:
    id: int  # stable id (an Entry pk)
    seed: int  # pairing number: 1 = top seed; unique
    rating: int  # the ladder rating used for seeding (0 if none)


@dataclass(frozen=True)
class PastGame:
    """One pairing of an earlier round, or a bye (black None)."""

    round: int
    white: int
    black: int | None
    result: Result
    # A bye the pairing gave (the odd player out), whatever it scores: a club may score it
    # ½ or 0 (stored as that bye's result), and it still rules out a second one (C.04.1.d).
    allocated: bool = False


@dataclass(frozen=True)
class DirectorRules:
    """What the director adds to the FIDE rules, handed to the engine as TRF(x) extensions
    (py4swiss reads them as bbpPairings does): pairs that must not meet (XXP), the colour
    of the top seed in round 1 (XXC white1/black1) and who is in the Baku acceleration's
    first group (XXA virtual points, `baku_virtual_points`)."""

    never_pair: frozenset[tuple[int, int]] = frozenset()  # entrant ids, either order
    white_first: bool = True
    accelerated: frozenset[int] = frozenset()  # entrant ids of group A; empty = no acceleration


NO_DIRECTOR_RULES = DirectorRules()

# Above this many players a Swiss round takes more than a few seconds to pair (about 25 s
# for round 1 of 1,000: bench/pairing.py, BENCHMARKS.md), so the evening page says so.
SLOW_PAIRING_FIELD = 300


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


@dataclass(frozen=True)
class RoundPairing:
    boards: tuple[tuple[int, int], ...]  # (white id, black id), board 1 first
    bye: int | None  # the pairing-allocated bye, if any


# TRF tokens for (white, black) of a game between two players.
_GAME_TOKENS: dict[Result, tuple[str, str]] = {
    Result.WHITE_WIN: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WIN: ("0", "1"),
    Result.UNRATED_WHITE_WIN: ("W", "L"),
    Result.UNRATED_DRAW: ("D", "D"),
    Result.UNRATED_BLACK_WIN: ("L", "W"),
    Result.WHITE_FORFEIT_WIN: ("+", "-"),
    Result.BLACK_FORFEIT_WIN: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
    # A game left without a result scores nothing for either side (RESULT_SCORES) and was
    # not played: the nearest TRF reading is a double forfeit.
    Result.NO_RESULT: ("-", "-"),
}
_BYE_TOKENS: dict[Result, str] = {
    Result.BYE_PAIRING: "U",
    Result.BYE_PAIRING_HALF: "U",
    Result.BYE_PAIRING_ZERO: "U",
    Result.BYE_FULL: "F",
    Result.BYE_HALF: "H",
    Result.BYE_ZERO: "Z",
}


def max_swiss_rounds(players: int) -> int:
    """The most rounds a Swiss of `players` can have: everyone needs a new opponent each
    round, and the one pairing-allocated bye each can take covers an odd count."""
    return players if players % 2 else players - 1


def pair_swiss(
    entrants: Sequence[Entrant],
    history: Sequence[PastGame],
    round_number: int,
    total_rounds: int,
    absent: Collection[int] = (),
    rules: DirectorRules = NO_DIRECTOR_RULES,
) -> RoundPairing:
    """FIDE Dutch pairing of `round_number`. `absent` = ids not to pair this round (withdrawn, or a
    requested bye for this round). Deterministic for the same input. Raises PairingImpossible.
    `rules`: the director's own (never-pair list, first colour, acceleration).

    `entrants` is everyone in the event, absent ones included. A player who appears only in
    `history` (removed from the event later) is kept as a permanently absent entrant so that
    his opponents' scores and colours stay right.
    """
    if round_number < 1:
        raise ValueError(f"round_number must be at least 1, not {round_number}")
    if round_number > total_rounds:
        raise PairingImpossible(f"all {total_rounds} rounds are already paired.")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("two entrants share an id")
    if len({e.seed for e in entrants}) != len(entrants):
        raise ValueError("two entrants share a seed")
    if any(g.round >= round_number for g in history):
        raise ValueError(f"history holds games of round {round_number} or later")
    if total_rounds > max_swiss_rounds(len(entrants)):
        raise PairingImpossible(
            f"a Swiss of {len(entrants)} players can have at most "
            f"{max_swiss_rounds(len(entrants))} rounds, not {total_rounds}."
        )
    absent_ids = set(absent)
    present = [e for e in entrants if e.id not in absent_ids]
    if len(present) < 2:
        raise PairingImpossible("fewer than two players are present.")

    ordered = _pairing_order(entrants, history, absent_ids)
    known = {e.id for e in ordered}
    ghosts = sorted({pid for g in history for pid in (g.white, g.black) if pid is not None} - known)
    number = {e.id: i for i, e in enumerate(ordered, start=1)}
    for pid in ghosts:
        number[pid] = len(number) + 1
    player_of = {n: pid for pid, n in number.items()}
    skip = absent_ids | set(ghosts)

    from py4swiss.engines.common import PairingError  # type: ignore[import-untyped]
    from py4swiss.trf.exceptions import ConsistencyError  # type: ignore[import-untyped]

    trf = _build_trf(number, ordered, history, round_number, total_rounds, skip)
    _apply_rules(trf, rules, number, round_number, total_rounds)
    try:
        trf.validate_contents()
    except ConsistencyError as exc:  # a player in two games of one round, etc.
        raise ValueError(f"inconsistent history: {exc}") from exc
    try:
        pairings = _dutch_engine().generate_pairings(trf)
    except PairingError as exc:
        raise PairingImpossible(
            "every way of pairing the players present would repeat a game, give someone a "
            "second pairing-allocated bye, or break the FIDE colour limits."
        ) from exc

    boards: list[tuple[int, int]] = []
    bye: int | None = None
    for pairing in pairings:
        white, black = int(pairing.white), int(pairing.black)
        if black == 0:  # py4swiss marks the pairing-allocated bye with opponent 0
            bye = player_of[white]
        else:
            boards.append((player_of[white], player_of[black]))
    return RoundPairing(boards=tuple(boards), bye=bye)


def _pairing_order(
    entrants: Sequence[Entrant], history: Sequence[PastGame], absent: Collection[int]
) -> list[Entrant]:
    """The entrants in the order of the starting numbers handed to the library (1..N: it needs
    them contiguous). Seed order, except that an entrant who is absent now and was never in a
    pairing (no game, forfeit or pairing-allocated bye; a requested bye is not one) goes after
    the others: bbpPairings numbers only the players "in" the event that way (its rankIndex)
    and gives the drawn colour (C.04.3 E.5) by the parity of that number, so in round 1 with
    no. 36 absent the colours alternate by board among those present, not by seed. The order
    among the players paired is the seeds' all the same. Sorting also makes the result
    independent of the input order."""
    paired_before = {
        pid
        for g in history
        if g.black is not None or g.allocated or g.result in PAIRING_BYES
        for pid in (g.white, g.black)
        if pid is not None
    }
    absent_ids = set(absent)

    def counted(e: Entrant) -> bool:
        return e.id not in absent_ids or e.id in paired_before

    return sorted(entrants, key=lambda e: (not counted(e), e.seed))


def _build_trf(
    number: dict[int, int],
    ordered: Sequence[Entrant],
    history: Sequence[PastGame],
    round_number: int,
    total_rounds: int,
    skip: set[int],
) -> ParsedTrf:
    """The event so far as py4swiss's TRF(x) model, with an absence ("Z") this round for
    everyone not to be paired: py4swiss pairs exactly the players without an entry for it."""
    from py4swiss.trf import ParsedTrf
    from py4swiss.trf.codes import PlayerCode  # type: ignore[import-untyped]
    from py4swiss.trf.results import (
        ColorToken,
        ResultToken,
        RoundResult,
        ScoringPointSystemCode,
    )
    from py4swiss.trf.sections import PlayerSection, XSection  # type: ignore[import-untyped]
    from py4swiss.trf.sections.x_section import (  # type: ignore[import-untyped]
        XSectionConfiguration,
    )

    rating = {e.id: e.rating for e in ordered}
    allocated_points = 10  # what a pairing-allocated bye scores, times ten
    results: dict[int, dict[int, RoundResult]] = {pid: {} for pid in number}
    points: dict[int, float] = dict.fromkeys(number, 0.0)

    def put(pid: int, rnd: int, entry: RoundResult) -> None:
        if rnd in results[pid]:
            raise ValueError(f"player {pid} has two entries in round {rnd}")
        results[pid][rnd] = entry

    for g in history:
        white_points, black_points = RESULT_SCORES[g.result]
        points[g.white] += white_points
        if g.black is None:
            allocated = g.allocated or g.result in PAIRING_BYES
            token = "U" if allocated else _BYE_TOKENS.get(g.result)
            if allocated:
                allocated_points = round(white_points * 10)
            if token is None:
                raise ValueError(f"round {g.round}: {g.result!r} needs an opponent")
            put(g.white, g.round, _unpaired(ResultToken(token)))
            continue
        if g.result.is_bye:
            raise ValueError(f"round {g.round}: a bye has no opponent")
        points[g.black] += black_points
        white_token, black_token = _GAME_TOKENS[g.result]
        put(
            g.white,
            g.round,
            RoundResult(
                id=number[g.black], color=ColorToken.WHITE, result=ResultToken(white_token)
            ),
        )
        put(
            g.black,
            g.round,
            RoundResult(
                id=number[g.white], color=ColorToken.BLACK, result=ResultToken(black_token)
            ),
        )

    sections = []
    for pid, n in sorted(number.items(), key=lambda item: item[1]):
        last = round_number if pid in skip else round_number - 1
        row = [
            results[pid].get(rnd) or _unpaired(ResultToken.ZERO_POINT_BYE)
            for rnd in range(1, last + 1)
        ]
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=n,
                name=str(pid),
                fide_rating=rating.get(pid) or None,
                points_times_ten=round(points[pid] * 10),
                rank=n,
                results=row,
            )
        )
    x_section = XSection(
        number_of_rounds=total_rounds,
        # The top seed gets white in round 1, as in the Berger tables (py4swiss's default too).
        configuration=XSectionConfiguration(first_round_color=True),
    )
    x_section.scoring_point_system.apply_code(
        ScoringPointSystemCode.PAIRING_ALLOCATED_BYE, allocated_points
    )
    return ParsedTrf(player_sections=sections, x_section=x_section)


def _apply_rules(
    trf: ParsedTrf, rules: DirectorRules, number: dict[int, int], round_number: int, total: int
) -> None:
    """The director's rules as py4swiss's X-section: forbidden pairs and accelerations by
    starting number (py4swiss.trf.sections.x_section), the first colour as its "white1" /
    "black1" configuration. A pair or group member not in the event is left out."""
    x_section = trf.x_section
    x_section.configuration.first_round_color = rules.white_first
    x_section.forbidden_pairs = {
        (min(number[a], number[b]), max(number[a], number[b]))
        for a, b in rules.never_pair
        if a in number and b in number and a != b
    }
    # One value per round up to this one: py4swiss reads the entry at the index of the
    # round being paired (its count of results so far) as that round's virtual points.
    points = [round(baku_virtual_points(r, total) * 10) for r in range(1, round_number + 1)]
    x_section.accelerations = {
        number[pid]: list(points) for pid in rules.accelerated if pid in number and any(points)
    }


def _unpaired(token: ResultToken) -> RoundResult:
    from py4swiss.trf.results import ColorToken, RoundResult

    return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=token)


# --- calling py4swiss ---------------------------------------------------------------------

# The py4swiss release whose BracketMatcher._get_weight was read for _remember_pair_weights.
_WEIGHTS_READ_IN = "0.3.1"


@cache
def _dutch_engine() -> Any:
    """py4swiss's Dutch engine, its bracket weights remembered when the release is the one
    read for that (another release runs as it comes: slower, never different)."""
    from importlib.metadata import version

    from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]

    if version("py4swiss") == _WEIGHTS_READ_IN:
        _remember_pair_weights()
    return DutchEngine


def _remember_pair_weights() -> None:
    """Speed (issue 22). For each bracket py4swiss builds a matching graph with an edge weight
    for every pair of its players, summing the quality criteria C.5-C.19 in its big-integer
    type from Python: about 70 us a pair, so 1,000 players in one score group (round 1) are
    half a million pairs, 35 s. Yet, once a pair is allowed at all (C.1, C.3, forbidden pairs:
    asked of the library per pair, as before), its weight depends only on what the criteria
    read of the two players: role in the bracket, score, colour preference, colour difference,
    same colour twice, last two floats, topscorer, bye had. So py4swiss's own code computes it
    once per bracket and kind of pair, and the other pairs of that kind get a copy (copies:
    the library zeroes weights in place). The pairings stay the library's, bit for bit
    (tests/clubs/night/test_pairing.py pairs the 500-round check both ways).

    py4swiss has no public hook for this: the wrapper replaces the private
    BracketMatcher._get_weight, hence the release check in _dutch_engine."""
    from py4swiss.dynamicuint import DynamicUint  # type: ignore[import-untyped]
    from py4swiss.engines.dutch.bracket.bracket_matcher import (  # type: ignore[import-untyped]
        BracketMatcher,
    )

    library_weight = BracketMatcher._get_weight
    if hasattr(library_weight, "__wrapped__"):  # already done (by another thread, say)
        return

    def kind(player: Any) -> tuple[object, ...]:
        preference = player.color_preference
        return (
            player.role,
            player.points_with_acceleration,
            preference.side,
            preference.strength,
            player.color_difference,
            player.color_double,
            player.float_1,
            player.float_2,
            player.top_scorer,
            player.bye_received,
        )

    def remembered_weight(matcher: Any, player_1: Any, player_2: Any) -> Any:
        if not matcher._validity_matcher.is_allowed_pair(player_1, player_2):
            return DynamicUint(matcher._zero_weight)
        # One matcher is one bracket: its players' roles and the bracket's figures stay put.
        kinds, weights = matcher.__dict__.setdefault("_club_pages_remembered", ({}, {}))
        kind_1 = kinds.get(player_1.id) or kinds.setdefault(player_1.id, kind(player_1))
        kind_2 = kinds.get(player_2.id) or kinds.setdefault(player_2.id, kind(player_2))
        weight = weights.get((kind_1, kind_2))
        if weight is None:
            weight = weights[kind_1, kind_2] = library_weight(matcher, player_1, player_2)
        return DynamicUint(weight)

    remembered_weight.__wrapped__ = library_weight  # type: ignore[attr-defined]  # for the tests
    BracketMatcher._get_weight = remembered_weight


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
