"""A perfect matching found by a quick search, as proof that a round can still be completed
(issue 34). Pure: no library, no Django.

py4swiss asks "can every player still be paired?" (C.1-C.3, pairs already chosen kept) once
before the round and after each bracket, by a maximum matching over the whole field in its
C++ code: about 1.2 s for 1,000 players the first time. The answer is yes or no, the same
whichever maximum matching is found, and a perfect matching is a proof of "yes". The fields
are dense (a player may meet nearly everyone), so a greedy pass and short augmenting paths
almost always find one in milliseconds; when they do not, the caller asks the library, which
alone may answer "no".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set


def perfect_matching(
    size: int,
    blocked: Sequence[Set[int]],
    forced: Mapping[int, int],
    hint: Mapping[int, int] | None = None,
) -> dict[int, int] | None:
    """A perfect matching of vertices 0..size-1, each vertex to its mate, or None if this quick
    search finds none (which proves nothing: there may still be one).

    Two vertices are joined unless either is in the other's `blocked` set (the caller keeps
    them symmetric); a vertex in `forced` is joined to its forced mate only. `hint` (an earlier
    answer) is reused where it still holds. What is returned is checked against these rules.
    """
    mate: dict[int, int] = {}
    for vertex, partner in forced.items():
        if vertex == partner or forced.get(partner) != vertex:
            return None
        mate[vertex] = partner
    free = [u for u in range(size) if u not in forced]
    if hint:
        for u in free:
            v = hint.get(u)
            if (
                v is not None
                and u not in mate
                and v not in mate
                and v not in forced
                and hint.get(v) == u
                and _joined(u, v, blocked)
            ):
                mate[u] = v
                mate[v] = u
    exposed = [u for u in free if u not in mate]
    left = _greedy(exposed, blocked, mate)
    for u in left:
        if u not in mate and not _augment(u, free, left, blocked, mate):
            return None
    return mate if _is_perfect(size, blocked, forced, mate) else None


def _joined(u: int, v: int, blocked: Sequence[Set[int]]) -> bool:
    return u != v and v not in blocked[u] and u not in blocked[v]


def _greedy(exposed: list[int], blocked: Sequence[Set[int]], mate: dict[int, int]) -> list[int]:
    """Each exposed vertex in turn takes the first exposed one it is joined to; the vertices
    left over are returned."""
    rest = list(exposed)
    left: list[int] = []
    while rest:
        u = rest.pop(0)
        for k, v in enumerate(rest):
            if _joined(u, v, blocked):
                del rest[k]
                mate[u] = v
                mate[v] = u
                break
        else:
            left.append(u)
    return left


def _augment(
    u: int, free: list[int], left: list[int], blocked: Sequence[Set[int]], mate: dict[int, int]
) -> bool:
    """Match the exposed vertex u by a path of one edge (to another exposed vertex) or of three
    (u - v = w - x: v gives up its mate w, who takes the exposed x)."""
    for x in left:
        if x not in mate and _joined(u, x, blocked):
            mate[u], mate[x] = x, u
            return True
    for v in free:
        w = mate.get(v)
        if w is None or w == u or not _joined(u, v, blocked):
            continue
        for x in left:
            if x != u and x not in mate and _joined(w, x, blocked):
                mate[u], mate[v] = v, u
                mate[w], mate[x] = x, w
                return True
    return False


def _is_perfect(
    size: int, blocked: Sequence[Set[int]], forced: Mapping[int, int], mate: Mapping[int, int]
) -> bool:
    """Every vertex matched, both ways, along an edge of the graph: the proof is checked, not
    trusted."""
    if len(mate) != size:
        return False
    for u in range(size):
        v = mate.get(u)
        if v is None or not 0 <= v < size or mate.get(v) != u or u == v:
            return False
        if u in forced or v in forced:
            if forced.get(u) != v:
                return False
        elif not _joined(u, v, blocked):
            return False
    return True
