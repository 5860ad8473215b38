"""Whether an event's standings may follow the final ranks its tournament file gives.

A TRF file ranks its players (columns 86-89) by the tie-breaks its program used, which may
not be the club's. The page follows that order only when it can be trusted to describe the
stored results: every entrant with a game has a rank, no two share one, and a better rank
never has fewer points than a worse one. Anything else (lichess leaves the column blank,
Swiss-Manager writes 0 for a withdrawn player, some files write the starting rank there)
and the club's tie-breaks decide, as for every other event.

Pure Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import pairwise


def file_order(points: Mapping[int, float], ranks: Mapping[int, int | None]) -> list[int] | None:
    """The entries of `points` (each entrant with a game, and its points) in the order of
    their file ranks, or None when those ranks cannot be used."""
    ranked: list[tuple[int, int]] = []
    for entry in points:
        rank = ranks.get(entry)
        if rank is None or rank <= 0:
            return None
        ranked.append((rank, entry))
    if not ranked or len({rank for rank, _entry in ranked}) != len(ranked):
        return None
    ranked.sort()
    in_order = [entry for _rank, entry in ranked]
    if any(points[a] < points[b] for a, b in pairwise(in_order)):
        return None
    return in_order


def file_ranking(
    computed: list[int],
    points: Mapping[int, float],
    played: set[int],
    ranks: Mapping[int, int | None],
) -> list[tuple[int, int]] | None:
    """The final ranking as the event page shows it when it follows the file: (entry, rank)
    for the entrants with a game in the file's order and with its ranks, then the entrants
    without one, in the `computed` order, sharing the next rank. None when the file's
    ranks cannot be used (file_order), and the club's tie-breaks rank the event.

    One rule for every place that ranks an event: the event page, `standings`, the events
    list's winner and the live page."""
    order = file_order({e: points[e] for e in sorted(played)}, ranks)
    if order is None:
        return None
    after_last = max(ranks[e] or 0 for e in order) + 1
    rest = [(e, after_last) for e in computed if e not in played]
    return [(e, ranks[e] or 0) for e in order] + rest
