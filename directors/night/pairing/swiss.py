"""FIDE Dutch Swiss rounds for a club night.

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

A Dutch round 1 in one score group is fixed by the rules: fixed.py computes it without the
library when nothing else applies (_round_one_fixed), as it does the Berger tables.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from clubs.results import PAIRING_BYES, RESULT_SCORES, Result
from directors.night.pairing.fixed import (
    PairingImpossible,
    RoundPairing,
    baku_virtual_points,
    dutch_round_one,
)
from directors.night.pairing.speed import Library, adapt

# py4swiss is imported inside the functions that use it, not here: it builds its pydantic models
# on import, a good part of a data command's start-up, and most commands never pair a round.
if TYPE_CHECKING:
    from py4swiss.trf import ParsedTrf  # type: ignore[import-untyped]
    from py4swiss.trf.results import ResultToken, RoundResult  # type: ignore[import-untyped]


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

# Above this many players a later Swiss round takes seconds to pair (about 1.0 s of CPU at
# 500, 1.7 s at 700, 3-3.7 s at 1,000 on the 2-core bench machine; bench/pairing.py), so the
# evening page says so. Round 1 is paired at once at any size.
SLOW_PAIRING_FIELD = 500


# TRF tokens for (white, black) of a game between two players.
GAME_TOKENS: dict[Result, tuple[str, str]] = {
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
BYE_TOKENS: dict[Result, str] = {
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
    fixed = _round_one_fixed(ordered, history, round_number, absent_ids, rules)
    if fixed is not None:
        return fixed
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


def _round_one_fixed(
    ordered: Sequence[Entrant],
    history: Sequence[PastGame],
    round_number: int,
    absent: Collection[int],
    rules: DirectorRules,
) -> RoundPairing | None:
    """Speed (issue 34): round 1 as the rules fix it, without the engine (which takes a
    minute and a half for 1,000 players in one score group), when everyone present is in
    one score group and the standard pairing breaks no rule: no acceleration splitting
    the field, no never-pair couple on a board of it. None otherwise: the engine decides.
    tests/directors/night/test_pairing_speed.py pairs generated fields both ways."""
    if round_number != 1 or history:
        return None
    present = [e.id for e in ordered if e.id not in absent]
    accelerated = sum(pid in rules.accelerated for pid in present)
    if accelerated not in (0, len(present)):
        return None
    fixed = dutch_round_one(present, white_first=rules.white_first)
    apart = {frozenset(pair) for pair in rules.never_pair}
    if any(frozenset(board) in apart for board in fixed.boards):
        return None
    return fixed


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
            token = "U" if allocated else BYE_TOKENS.get(g.result)
            if allocated:
                allocated_points = round(white_points * 10)
            if token is None:
                raise ValueError(f"round {g.round}: {g.result!r} needs an opponent")
            put(g.white, g.round, _unpaired(ResultToken(token)))
            continue
        if g.result.is_bye:
            raise ValueError(f"round {g.round}: a bye has no opponent")
        points[g.black] += black_points
        white_token, black_token = GAME_TOKENS[g.result]
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

# The py4swiss release whose private methods were read for _adapt_engine.
_WEIGHTS_READ_IN = "0.3.1"
# (class, method name) -> the library's own method, for each one _adapt_engine replaced: the
# tests put them back to pair with the plain library and compare.
LIBRARY_METHODS: dict[tuple[Any, str], Any] = {}


@cache
def _dutch_engine() -> Any:
    """py4swiss's Dutch engine, adapted for speed when the release is the one read for that
    (another release runs as it comes: slower, never different)."""
    from importlib.metadata import version

    from py4swiss.engines import DutchEngine  # type: ignore[import-untyped]

    if version("py4swiss") == _WEIGHTS_READ_IN:
        _adapt_engine()
    return DutchEngine


def _adapt_engine() -> None:
    """Speed (issues 22 and 34): speed.py replaces private methods of the library's Dutch
    engine (it has no public hook for that), hence the release check in _dutch_engine."""
    from py4swiss.dynamicuint import DynamicUint  # type: ignore[import-untyped]
    from py4swiss.engines.common import ColorPreferenceStrength
    from py4swiss.engines.dutch.bracket.bracket_matcher import (  # type: ignore[import-untyped]
        BracketMatcher,
    )
    from py4swiss.engines.dutch.bracket.bracket_pairer import (  # type: ignore[import-untyped]
        BracketPairer,
    )
    from py4swiss.engines.dutch.criteria.absolute import C2  # type: ignore[import-untyped]
    from py4swiss.engines.dutch.validity_matcher import (  # type: ignore[import-untyped]
        ValidityMatcher,
    )
    from py4swiss.matching_computer import (  # type: ignore[import-untyped]
        ComputerDutchOptimality,
    )

    if LIBRARY_METHODS:  # already done (by another thread, say)
        return
    library = Library(
        validity_matcher=ValidityMatcher,
        bracket_matcher=BracketMatcher,
        bracket_pairer=BracketPairer,
        optimality_computer=ComputerDutchOptimality,
        dynamic_uint=DynamicUint,
        bye_criterion=C2,
        absolute=ColorPreferenceStrength.ABSOLUTE,
    )
    LIBRARY_METHODS.update(adapt(library))
