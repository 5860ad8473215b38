"""directors/night/pairing/witness.py: the quick search for a perfect matching that answers "can the
round still be completed?" yes without the library. It must never claim a matching where there
is none (the library alone may say no), and what it returns must be a perfect matching of the
graph asked about. Pure, no database.
"""

from __future__ import annotations

import itertools
import random

from directors.night.pairing.witness import perfect_matching


def symmetric(size: int, apart: set[tuple[int, int]]) -> list[set[int]]:
    blocked: list[set[int]] = [set() for _ in range(size)]
    for u, v in apart:
        blocked[u].add(v)
        blocked[v].add(u)
    return blocked


def is_perfect(size, blocked, forced, mate) -> bool:
    return sorted(mate) == list(range(size)) and all(
        mate[mate[u]] == u
        and mate[u] != u
        and (forced[u] == mate[u] if u in forced else mate[u] not in blocked[u])
        and (mate[u] not in forced or forced[mate[u]] == u)
        for u in range(size)
    )


def has_perfect(size, blocked, forced) -> bool:
    """Brute force, for small graphs."""

    def match(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        u, others = rest[0], rest[1:]
        for k, v in enumerate(others):
            joined = forced.get(u) == v if (u in forced or v in forced) else v not in blocked[u]
            if joined and match(others[:k] + others[k + 1 :]):
                return True
        return False

    return match(tuple(range(size)))


def test_a_dense_field_is_matched_perfectly():
    rng = random.Random(5)
    size = 400
    apart = {tuple(rng.sample(range(size), 2)) for _ in range(3000)}
    blocked = symmetric(size, apart)
    mate = perfect_matching(size, blocked, {})
    assert mate is not None and is_perfect(size, blocked, {}, mate)


def test_forced_pairs_are_kept_and_their_vertices_join_no_one_else():
    size = 6
    forced = {0: 5, 5: 0, 1: 2, 2: 1}
    mate = perfect_matching(size, symmetric(size, set()), forced)
    assert mate is not None
    assert (mate[0], mate[1], mate[3]) == (5, 2, 4)
    # 3 may meet only 0, which is taken by a forced pair: no perfect matching, none claimed
    blocked = symmetric(size, {(3, 1), (3, 2), (3, 4), (3, 5)})
    assert perfect_matching(size, blocked, forced) is None


def test_inconsistent_forced_pairs_are_not_matched():
    assert perfect_matching(4, symmetric(4, set()), {0: 1, 1: 2, 2: 1}) is None
    assert perfect_matching(4, symmetric(4, set()), {0: 0}) is None


def test_an_odd_field_or_an_isolated_player_is_never_claimed_matched():
    assert perfect_matching(5, symmetric(5, set()), {}) is None
    blocked = symmetric(4, {(0, 1), (0, 2), (0, 3)})
    assert perfect_matching(4, blocked, {}) is None


def test_a_short_augmenting_path_repairs_what_greedy_leaves():
    # Greedy takes 0-1 and leaves 2 and 3, which may not meet; 2-0 = 1-3 fixes it.
    blocked = symmetric(4, {(2, 3)})
    assert perfect_matching(4, blocked, {}) is not None
    blocked = symmetric(4, {(2, 3), (0, 3)})
    mate = perfect_matching(4, blocked, {})
    assert mate == {0: 2, 2: 0, 1: 3, 3: 1}


def test_a_hint_still_valid_is_reused():
    size = 8
    hint = {0: 7, 7: 0, 1: 6, 6: 1, 2: 5, 5: 2, 3: 4, 4: 3}
    blocked = symmetric(size, set())
    assert perfect_matching(size, blocked, {}, hint) == hint
    # 0 and 7 may no longer meet: the rest of the hint stays, 0 and 7 are matched anew
    blocked = symmetric(size, {(0, 7)})
    mate = perfect_matching(size, blocked, {}, hint)
    assert mate is not None and is_perfect(size, blocked, {}, mate)
    assert mate[2] == 5 and mate[3] == 4


def test_small_graphs_against_brute_force():
    """Whatever the graph, a matching returned is perfect and exists; on dense graphs (most
    pairs allowed, as in a Swiss field) the quick search finds one whenever one exists."""
    rng = random.Random(34)
    found = exists = 0
    for _ in range(400):
        size = rng.choice([2, 4, 6, 8, 10])
        pairs = list(itertools.combinations(range(size), 2))
        apart = set(rng.sample(pairs, rng.randint(0, len(pairs) // 2)))
        forced: dict[int, int] = {}
        if rng.random() < 0.3:
            u, v = rng.sample(range(size), 2)
            forced = {u: v, v: u}
        blocked = symmetric(size, apart)
        mate = perfect_matching(size, blocked, forced)
        truth = has_perfect(size, blocked, forced)
        if mate is not None:
            assert truth and is_perfect(size, blocked, forced, mate)
        exists += truth
        found += mate is not None
    assert exists > 100
    assert found >= 0.9 * exists
