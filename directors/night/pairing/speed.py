"""Speed (issues 22 and 34): py4swiss's Dutch engine with the Python around its C++ matching
done in batches. Pure, and it imports no library: swiss.py hands over the library's classes
(only swiss.py speaks to py4swiss) and applies this to the release it was read in, 0.3.1.

py4swiss sets up, pair by pair from Python, the validity graph of the round (may these two
meet: C.1, C.3, forbidden pairs) and each bracket's quality graph (C.5-C.19 summed in its
big-integer type, about 70 us a pair), then moves the bracket's weights one pair at a time.
Here:

- Who may not meet is gathered once per round: a short list per player (his opponents, his
  forbidden pairs, the players of the same absolute colour preference when neither is a
  topscorer), so `is_allowed_pair` is a set lookup.
- An allowed pair's weight depends only on what the criteria read of the two players (role
  in the bracket, score, colour preference and difference, same colour twice, last two
  floats, topscorer, bye had), so the library's own `_get_weight` computes it once per
  bracket and kind of pair, and the other pairs of that kind get a copy (copies: the library
  zeroes weights in place).
- Finalising a pair, adding to a player's weights and removing them run the library's steps
  in a loop of their own instead of a method call per pair.
- "Can the round still be completed?" (before the round and after each bracket) is answered
  yes by a perfect matching found in Python (witness.py) when the quick search finds one;
  otherwise the library's own validity graph, built then and told of the pairs chosen so
  far, answers. The answer is a yes or no that does not depend on which maximum matching is
  found, so it is the library's.
- In a bracket without MDPs, the C++ matching is asked less (homogeneous.py): not for the
  matcher's first matching when a quick proof gives what is read of it, without the lower
  bracket when it cannot matter, and not for a transposition whose answer is proven. Each
  short cut holds only where homogeneous.py proves that every maximum matching gives the
  answer read, so the library reads it too whatever state its C++ matcher is in.

The graphs get the same weights, set in the same order (in the bracket graphs homogeneous.py
leaves alone), so the pairings stay the library's, bit for bit:
tests/directors/night/test_pairing_speed.py pairs thousands of rounds and the corpus both
ways. py4swiss has no public hook for any of this: private methods are replaced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from directors.night.pairing.homogeneous import (
    first_matching,
    homogeneous_start,
    record_split,
    transpose,
)
from directors.night.pairing.witness import perfect_matching


@dataclass(frozen=True)
class Library:
    """The parts of py4swiss 0.3.1 that are read or replaced (swiss.py imports them)."""

    validity_matcher: Any  # py4swiss.engines.dutch.validity_matcher.ValidityMatcher
    bracket_matcher: Any  # py4swiss.engines.dutch.bracket.bracket_matcher.BracketMatcher
    bracket_pairer: Any  # py4swiss.engines.dutch.bracket.bracket_pairer.BracketPairer
    optimality_computer: Any  # py4swiss.matching_computer.ComputerDutchOptimality
    dynamic_uint: Any  # py4swiss.dynamicuint.DynamicUint
    bye_criterion: Any  # py4swiss.engines.dutch.criteria.absolute.C2
    absolute: Any  # py4swiss.engines.common.ColorPreferenceStrength.ABSOLUTE


def adapt(library: Library) -> dict[tuple[Any, str], Any]:
    """Replace the methods; returns (class, name) -> the library's own method, replaced."""
    validity, bracket, pairer = (
        library.validity_matcher,
        library.bracket_matcher,
        library.bracket_pairer,
    )
    replacements = {
        (validity, "_set_up_computer"): _validity_set_up(library),
        (validity, "is_allowed_pair"): _is_allowed_pair,
        (validity, "finalize_match"): _validity_finalize,
        (validity, "is_valid_matching"): _is_valid_matching(
            library, validity.finalize_match, validity.is_valid_matching
        ),
        (bracket, "_set_up_computer"): _bracket_set_up(library, bracket._get_weight),
        (bracket, "finalize_match"): _finalize_match,
        (bracket, "add_to_weights"): _add_to_weights,
        (bracket, "remove_weights"): _remove_weights,
        (bracket, "update_matching"): first_matching(_update_matching),
        (pairer, "determine_homogeneous_exchanges"): record_split(
            pairer.determine_homogeneous_exchanges, bracket
        ),
        (pairer, "transpose_homogeneous_s2"): transpose(pairer.transpose_homogeneous_s2),
    }
    originals = {key: getattr(*key) for key in replacements}
    for (cls, name), method in replacements.items():
        setattr(cls, name, method)
    return originals


def _barred_pairs(matcher: Any, absolute: Any) -> dict[int, set[int]]:
    """For each player id, the ids he may not be paired with, as is_allowed_pair(him, them)
    reads them: C.1 looks at the second player's opponents, the rest both ways."""
    barred: dict[int, set[int]] = {p.id: set() for p in matcher._players}
    for player in matcher._players:
        for opponent in player.opponents:
            barred.setdefault(opponent, set()).add(player.id)
    for a, b in matcher._forbidden_pairs:
        barred.setdefault(a, set()).add(b)
        barred.setdefault(b, set()).add(a)
    same_absolute: dict[object, list[int]] = {}
    for player in matcher._players:
        preference = player.color_preference
        if preference.strength == absolute and not player.top_scorer:
            same_absolute.setdefault(preference.side, []).append(player.id)
    for group in same_absolute.values():
        for pid in group:
            barred[pid].update(group)
    return barred


def _validity_set_up(library: Library) -> Any:
    def set_up(matcher: Any) -> None:
        matcher._club_pages_barred = _barred_pairs(matcher, library.absolute)
        _witness_set_up(matcher, library)
        # The library's own graph is built only if it is ever asked (_is_valid_matching).
        matcher._club_pages_graph_built = False

    return set_up


def _validity_graph(matcher: Any, library: Library) -> None:
    """ValidityMatcher._set_up_computer: a vertex a player (and one for the bye of an odd
    field), joined (1) when they may meet, apart (0) otherwise."""
    computer, players = matcher._computer, matcher._players
    for _ in range(matcher._len):
        computer.add_vertex()
    set_edge_weight = computer.set_edge_weight
    ids = [p.id for p in players]
    for i, pid in enumerate(ids):
        barred = matcher._club_pages_barred[pid]
        for j in range(i + 1, len(ids)):
            set_edge_weight(i, j, 0 if ids[j] in barred else 1)
    if len(players) % 2 == 1:
        for i, player in enumerate(players):
            allowed = library.bye_criterion.evaluate(player, player)
            set_edge_weight(i, len(players), int(allowed))


def _witness_set_up(matcher: Any, library: Library) -> None:
    """The validity graph as witness.py reads it, the same edges as the library's: vertex i
    and j > i apart when the id of j is barred for i (that order: C.1 need not be symmetric),
    the bye (vertex len(players), odd fields only) apart from those C.2 refuses it."""
    players = matcher._players
    position = {p.id: i for i, p in enumerate(players)}
    blocked: list[set[int]] = [set() for _ in range(matcher._len)]
    for i, player in enumerate(players):
        for other in matcher._club_pages_barred[player.id]:
            j = position.get(other)
            if j is not None and j > i:
                blocked[i].add(j)
                blocked[j].add(i)
    if len(players) % 2 == 1:
        for i, player in enumerate(players):
            if not library.bye_criterion.evaluate(player, player):
                blocked[i].add(len(players))
                blocked[len(players)].add(i)
    matcher._club_pages_blocked = blocked
    matcher._club_pages_forced = {}  # vertex -> the mate a finalised pair gave it
    matcher._club_pages_pending = []  # finalised pairs not yet told to the library's graph
    matcher._club_pages_witness = None  # the last perfect matching found
    matcher._club_pages_unsure = False  # a finalised pair this module does not model


def _validity_finalize(matcher: Any, player_1: Any, player_2: Any) -> None:
    """ValidityMatcher.finalize_match, recorded: the library's graph gets it (in order) only
    if it is asked to answer, since its answer does not depend on when it was told."""
    i, j = matcher._index_dict[player_1], matcher._index_dict[player_2]
    forced = matcher._club_pages_forced
    if i == j or i in forced or j in forced:
        matcher._club_pages_unsure = True  # the library's own graph decides from now on
    forced[i], forced[j] = j, i
    matcher._club_pages_pending.append((player_1, player_2))


def _is_valid_matching(library: Library, library_finalize: Any, library_is_valid: Any) -> Any:
    def is_valid_matching(matcher: Any) -> bool:
        if not matcher._club_pages_unsure:
            witness = perfect_matching(
                matcher._len,
                matcher._club_pages_blocked,
                matcher._club_pages_forced,
                matcher._club_pages_witness,
            )
            if witness is not None:
                matcher._club_pages_witness = witness
                return True
        # No proof found quickly (or a case not modelled): only the library can say no, from
        # its graph built as it builds it and told of every pair chosen since, in order.
        if not matcher._club_pages_graph_built:
            _validity_graph(matcher, library)
            matcher._club_pages_graph_built = True
        for player_1, player_2 in matcher._club_pages_pending:
            library_finalize(matcher, player_1, player_2)
        matcher._club_pages_pending.clear()
        return bool(library_is_valid(matcher))

    return is_valid_matching


def _is_allowed_pair(matcher: Any, player_1: Any, player_2: Any) -> bool:
    return player_2.id not in matcher._club_pages_barred[player_1.id]


def _kind(player: Any) -> tuple[object, ...]:
    """All the quality criteria read of one player in a bracket."""
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


def _bracket_set_up(library: Library, library_weight: Any) -> Any:
    copy = library.dynamic_uint

    def set_up(matcher: Any) -> None:
        players, rows = matcher._player_list, matcher._weights
        barred = matcher._validity_matcher._club_pages_barred
        matcher._club_pages_index = {p.id: i for i, p in enumerate(players)}
        # Each kind of player as a small number, and the weight of each pair of kinds once
        # (None until asked). One matcher is one bracket: roles and its figures stay put.
        numbers: dict[tuple[object, ...], int] = {}
        kinds = [numbers.setdefault(_kind(p), len(numbers)) for p in players]
        known: list[list[Any]] = [[None] * len(numbers) for _ in numbers]
        # A pair that may not meet gets the zero weight itself: nothing ever changes a zero
        # weight in place (the library skips it), so it needs no copy of its own.
        zero = matcher._zero_weight
        for i, player_1 in enumerate(players):
            row, by_kind, barred_1 = rows[i], known[kinds[i]], barred[player_1.id]
            for j in range(i + 1, len(players)):
                player_2 = players[j]
                if player_2.id in barred_1:
                    weight = zero
                else:
                    weight = by_kind[kinds[j]]
                    if weight is None:
                        weight = by_kind[kinds[j]] = library_weight(matcher, player_1, player_2)
                    weight = copy(weight)
                row[j] = rows[j][i] = weight
        # homogeneous.py may answer the matcher's first matching itself, and leave the lower
        # bracket out of the C++ graph: then only the residents' edges are set.
        size = homogeneous_start(matcher, library.optimality_computer)
        computer = matcher._computer
        for _ in range(size):
            computer.add_vertex()
        set_edge_weight = computer.set_edge_weight
        for i in range(size):
            row = rows[i]
            for j in range(i + 1, size):
                set_edge_weight(i, j, row[j])

    return set_up


def _finalize_match(matcher: Any, player_1: Any, player_2: Any) -> None:
    """BracketMatcher.finalize_match: every other edge of the two removed (zeroed in place,
    as _remove_weight does, in its order), then theirs set to the maximum. The shared zero
    weight is skipped without asking the library's type whether it is zero."""
    i, j = matcher._index_dict[player_1], matcher._index_dict[player_2]
    row_i, row_j = matcher._weights[i], matcher._weights[j]
    set_edge_weight, zero = matcher._computer.set_edge_weight, matcher._zero_weight
    for k in range(matcher._len):
        weight = row_i[k]
        if weight is not zero and weight:
            weight &= 0
            set_edge_weight(i, k, weight)
        weight = row_j[k]
        if weight is not zero and weight:
            weight &= 0
            set_edge_weight(j, k, weight)
    matcher._set_weight(i, j, matcher._max_weight)


def _add_to_weights(
    matcher: Any, player: Any, player_list: list[Any], value: int, increment: bool = False
) -> None:
    """BracketMatcher.add_to_weights: add_to_weight for each in turn (a zero weight is no
    edge and stays so; the sign handled apart, the library's type being unsigned)."""
    index, rows, zero = matcher._club_pages_index, matcher._weights, matcher._zero_weight
    i = index[player.id]
    set_edge_weight = matcher._computer.set_edge_weight
    for other in player_list:
        j = index[other.id]
        weight = rows[i][j]
        if weight is not zero and weight:
            change = zero | abs(value)
            weight = weight + change if value > 0 else weight - change
            rows[i][j] = rows[j][i] = weight
            set_edge_weight(i, j, weight)
        value += int(increment)


def _remove_weights(matcher: Any, player: Any, player_list: list[Any]) -> None:
    """BracketMatcher.remove_weights: remove_weight for each in turn (zeroed in place, as
    _remove_weight does; a zero weight is no edge and is left alone)."""
    index, zero = matcher._club_pages_index, matcher._zero_weight
    i = index[player.id]
    row, set_edge_weight = matcher._weights[i], matcher._computer.set_edge_weight
    for other in player_list:
        j = index[other.id]
        weight = row[j]
        if weight is not zero and weight:
            weight &= 0
            set_edge_weight(i, j, weight)


def _update_matching(matcher: Any) -> None:
    """BracketMatcher.update_matching, the vertex indices read from its player list."""
    matcher._computer.compute_matching()
    players, matching = matcher._player_list, matcher._computer.get_matching()
    matcher.matching = {players[i]: players[j] for i, j in enumerate(matching)}
