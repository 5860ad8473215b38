"""Speed (issue 34): a homogeneous bracket (no MDP) of py4swiss 0.3.1's Dutch engine with the
C++ matching asked only where its answer is not already proven. Pure, and it imports no
library: speed.py hands over the library's methods and applies this to the release read.

In such a bracket the library asks its C++ code for a maximum-weight matching once when the
bracket's matcher is made (read only for how many pairs the residents make), once for rule
D.2 (are there exchanges between S1 and S2?), then once per player r of S1 for rule D.1: it
adds delta(y) = |S2| - 1 - j to the edge r - y for the j-th player y of S2 (the higher y
stands, the more), asks, reads r's mate and fixes the pair (every other edge of the two
removed, theirs set to the maximum). Each question costs milliseconds on a bracket of 600
vertices: most of a large round 2. Below, b = bracket_bits and s = 3b + 1: every weight the
quality criteria set up is 2^s * Q (the set-up shifts it left by s), and the library adds
only small numbers below 2^s afterwards. Where the answer a question would give is proven
to be the same in every maximum matching, the library reads it whatever state its C++
matcher is in, and so may this module, which then asks less or not at all.

A. The first matching. Outside the PPB, the most important quality criterion (C.5) counts the
   pairs among residents, so every maximum matching has as many as can be made: if one had
   fewer, an augmenting path among the residents would add one (dropping at most two edges
   to the lower bracket) and outweigh it. In the LPB the bye bits above C.5 give each pair
   1 plus the byes of its two players; an augmenting path keeps every player matched and
   adds a pair, so there too. That number is R // 2 (R residents) when a matching of all
   residents but at most one exists, which witness.py's quick search proves. The matcher's
   first matching is then that proof (the library reads nothing else of it: the MDP steps
   have nothing to do), and its first question is D.2's.
B. D.2. With `pairs` = R // 2 the library adds to the edge of residents i < j (by place)
   lambda = 2 * (2^(2b) * [i < pairs] - i): at most 2^(3b) over a matching, so every maximum
   matching has the maximum Q; among those, lambda is at its most exactly when each pair is
   one of the first `pairs` residents (S1) with one of the others (S2): the 2^(2b+1) per such
   pair outweighs all the rest, and the -2i are then those of S1, fixed. So if the matching
   found has no exchange, none has, and all split S1 and S2 alike. If it has one, a fresh
   matcher asked as the library asks (first matching computed) redoes the step, and the
   library's own methods go on.
C. D.1, the transpositions, with no exchange (S1 and S2 the residents' two parts as D.2's
   weights were set, each player of S1 matched into S2). Every edge left weighs
   2^s * Q(e) + lambda(e) with lambda(x, y) = phi(x) = 2 * (2^(2b) - i_x) for x in S1,
   y in S2, and 0 on the other edges left (those to and among the lower bracket; S1-S1 and
   S2-S2 edges are removed). |S2| < 2^b, |S1| < 2^(b-1): delta < 2^b < phi(x), and the
   lambdas of a matching sum to at most 2^(3b). The fixed pairs are in every maximum
   matching, so what follows speaks of the graph G of the players not yet fixed. Let M be
   the matching of the last question (or its variant proven below): it is a maximum matching
   of G before r's deltas (fixing a pair that M holds leaves the rest of M optimal).
   1. Every maximum matching N of G after r's deltas matches every player of S1 into S2 and
      has M's Q-total: before the deltas W(M) - W(N) is at least 0 and at most
      delta(N(r)) - delta(M(r)) < 2^b, so the Q-totals are equal and the difference is the
      sum of phi(x) over the x of S1 that N does not match into S2, each over 2^b: none.
   2. r's mate is the same in every maximum matching after the deltas. If N1 and N2 gave him
      a and b, take the part C of their symmetric difference through r: swapping C in either
      gives a matching no heavier, so both weigh the same on C. Every x of S1 in C is matched
      into S2 by both (1), so the lambdas on C are equal, then the Q parts (the rest is under
      2^s), so delta(a) = delta(b) and a = b, delta being one-to-one on S2. The C++ code
      asked from any state answers as it would for the library.
   3. If some maximum matching M' before the deltas gives r the highest-standing player s* of
      S2 he still has an edge to (and s* is not S2's last: delta(s*) >= 1), then M' is maximum
      after them and every maximum matching N after them has N(r) = s*: W(N) <= W(M') before
      the deltas and delta(N(r)) <= delta(s*), with the sums equal, and only s* has
      delta(s*). M' is M when M(r) = s*, or M with one exchange of equal weight before the
      deltas: r - s* and u - t for r - t and u - s* (t = M(r), u = M(s*)), or r - s* for
      r - t when s* is unmatched. Then nothing is asked, and M' goes on as M.
   After the last player of S1 the library reads the matching's pairs outside the lower
   bracket, and in the LPB who is left unmatched: by 1, the pairs fixed and the rest of S2.
D. The lower bracket left out. When A's proof pairs every resident (an even number) and no
   exchange follows, every maximum matching at every later question pairs the residents
   among themselves: by A for D.2's (its additions stay under 2^s), and for each of C's (the
   pairs fixed are residents, the matching found pairs all the others, and C.5 again). So a
   maximum matching is one of the residents' graph alone beside one of the lower bracket
   alone, and everything read (B's split, C's mates, the pairs at the end) is in the first:
   the C++ graph holds the residents alone (ResidentsAlone), its questions cost a fraction,
   and a lower player reads as unmatched. If B finds an exchange after all, the fresh
   matcher that redoes the step is the library's, the lower bracket in.

Anything else (an MDP, the PPB, no quick proof for A, an exchange; D with an odd number of
residents) runs the library's own methods. tests/directors/night/test_pairing_speed.py pairs
generated fields and every corpus file both ways, and with every mate asked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from directors.night.pairing.witness import perfect_matching


def transpose(library_transpose: Callable[[Any], None]) -> Any:
    """BracketPairer.transpose_homogeneous_s2, asking the matcher only when it must."""

    def transpose_homogeneous_s2(pairer: Any) -> None:
        if not _reads_are_fixed(pairer):
            library_transpose(pairer)
            return
        matcher, validity = pairer._bracket_matcher, pairer._validity_matcher
        s2 = pairer._homogeneous_s2
        reversed_s2 = s2[::-1]
        place = {player: j for j, player in enumerate(s2)}
        matching = dict(matcher.matching)
        for resident in pairer._homogeneous_s1:
            matcher.add_to_weights(resident, reversed_s2, 0, increment=True)
            mate = _proven_mate(matcher, resident, place, matching)
            if mate is None:
                matcher.update_matching()
                matching = dict(matcher.matching)
                mate = matching[resident]
            matcher.finalize_match(resident, mate)
            validity.finalize_match(resident, mate)
        matcher.matching = matching

    return transpose_homogeneous_s2


def homogeneous_start(matcher: Any, computer_class: Any) -> int:
    """Called by speed.py's set-up of a bracket's matcher, its weights in place and no vertex
    added yet: A's proof kept for first_matching, and D's C++ graph of the residents alone
    put in when D applies. Returns the number of vertices to add."""
    proof = None
    if not matcher.__dict__.get("_club_pages_ask_first"):
        proof = _residents_paired(matcher)
    matcher._club_pages_proof = proof
    bracket, size = matcher._bracket, int(matcher._len)
    count = len(bracket.resident_list)
    if proof is None or count % 2 or not bracket.lower_list:
        return size
    computer = computer_class(count, matcher._max_weight)
    matcher._computer = ResidentsAlone(computer, count, size)
    return count


class ResidentsAlone:
    """D's C++ graph: the residents' vertices (the first ones) and edges only; an edge to the
    lower bracket is left out, and its players are unmatched in the matching read."""

    def __init__(self, computer: Any, residents: int, size: int) -> None:
        self._computer, self._residents, self._size = computer, residents, size
        self.add_vertex = computer.add_vertex
        self.compute_matching = computer.compute_matching

    def set_edge_weight(self, u: int, v: int, weight: Any) -> None:
        if u < self._residents and v < self._residents:
            self._computer.set_edge_weight(u, v, weight)

    def get_matching(self) -> list[int]:
        return [*self._computer.get_matching(), *range(self._residents, self._size)]


def first_matching(library_update: Callable[[Any], None]) -> Any:
    """BracketMatcher.update_matching: its first call (the matcher being made) answered by
    A's proof when there is one, the C++ code asked otherwise and every later time."""

    def update_matching(matcher: Any) -> None:
        proof = matcher.__dict__.pop("_club_pages_proof", None)
        if proof is not None:
            matcher.matching = proof
            matcher._club_pages_unasked = True
            return
        library_update(matcher)

    return update_matching


def record_split(library_exchanges: Callable[[Any], None], matcher_class: Any) -> Any:
    """BracketPairer.determine_homogeneous_exchanges, redone as the library does it (by a
    fresh matcher whose first matching is computed) when B's proof does not hold; remembers
    the size of S1 it chose (D.2's `pairs`) for _reads_are_fixed."""

    def determine_homogeneous_exchanges(pairer: Any) -> None:
        library_exchanges(pairer)
        unasked = pairer._bracket_matcher.__dict__.get("_club_pages_unasked", False)
        if unasked and not _no_exchange(pairer):
            matcher = matcher_class.__new__(matcher_class)
            matcher._club_pages_ask_first = True
            matcher.__init__(pairer._bracket, pairer._validity_matcher)
            pairer._bracket_matcher = matcher
            library_exchanges(pairer)
        pairer._club_pages_pairs = len(pairer._homogeneous_s1)

    return determine_homogeneous_exchanges


def _residents_paired(matcher: Any) -> dict[Any, Any] | None:
    """A's proof: a matching of all the residents but at most one (everyone else unmatched),
    in a bracket without MDPs that is not the PPB; None when there is none to give."""
    bracket = matcher._bracket
    if bracket.mdp_list or bracket.penultimate_pairing_bracket:
        return None
    players, rows, zero = matcher._player_list, matcher._weights, matcher._zero_weight
    count = len(bracket.resident_list)  # the residents are the first players: no MDPs
    size = count + count % 2  # an odd count's extra vertex is joined to every resident
    blocked: list[set[int]] = [set() for _ in range(size)]
    for i in range(count):
        row = rows[i]
        for j in range(i + 1, count):
            weight = row[j]
            if weight is zero or not weight:
                blocked[i].add(j)
                blocked[j].add(i)
    mate = perfect_matching(size, blocked, {})
    if mate is None:
        return None
    matching = {player: player for player in players}
    for i, j in mate.items():
        if i < count and j < count:
            matching[players[i]] = players[j]
    return matching


def _no_exchange(pairer: Any) -> bool:
    """B's condition: no exchange, and as many pairs among residents as A proved."""
    if pairer._exchanges:
        return False
    matching, residents = pairer._bracket_matcher.matching, pairer._bracket.resident_list
    resident = set(residents)
    paired = sum(matching[player] in resident for player in residents)
    return paired == 2 * len(pairer._homogeneous_s1)


def _reads_are_fixed(pairer: Any) -> bool:
    """The conditions of the module's argument: no MDP, no exchange, S1 and S2 the residents'
    two parts as D.2's weights were set, each player of S1 matched into S2."""
    bracket = pairer._bracket
    if bracket.mdp_list or pairer._exchanges or pairer._heterogeneous_s1:
        return False
    s1, s2, residents = pairer._homogeneous_s1, pairer._homogeneous_s2, bracket.resident_list
    pairs = getattr(pairer, "_club_pages_pairs", None)
    if pairs != len(s1) or s1 != residents[:pairs] or s2 != residents[pairs:]:
        return False
    in_s2 = set(s2)
    matching = pairer._bracket_matcher.matching
    return all(matching.get(player) in in_s2 for player in s1)


def _proven_mate(
    matcher: Any, resident: Any, place: dict[Any, int], matching: dict[Any, Any]
) -> Any:
    """s* when point 3 of the module's argument proves it is the resident's mate (and
    `matching` becomes M'), else None. `place`: each player of S2 by his place in it."""
    index, rows, zero = matcher._index_dict, matcher._weights, matcher._zero_weight
    row = rows[index[resident]]
    star = None
    for player in place:
        weight = row[index[player]]
        if weight is not zero and weight:
            star = player
            break
    last = len(place) - 1
    if star is None or place[star] == last:
        return None
    mate = matching.get(resident)
    if mate == star:
        return star
    if mate not in place:
        return None
    # Weights before the deltas, compared with each side's delta added to the other side.
    with_star = row[index[star]] + (zero | (last - place[mate]))
    with_mate = row[index[mate]] + (zero | (last - place[star]))
    other = matching.get(star, star)
    if other == star:  # s* unmatched: r - s* for r - t
        if with_star != with_mate:
            return None
        matching[mate] = mate
    else:  # r - s* and u - t for r - t and u - s*
        if other == resident:
            return None
        other_row = rows[index[other]]
        other_mate = other_row[index[mate]]
        if other_mate is zero or not other_mate:
            return None
        if with_star + other_mate != with_mate + other_row[index[star]]:
            return None
        matching[other], matching[mate] = mate, other
    matching[resident], matching[star] = star, resident
    return star
