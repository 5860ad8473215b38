"""Pairs of roster names that may be one person, for the roster's duplicates screen.

A pair is shown when the names screen's rules (`rules.explain`) name a reason for it to
be one person (not only "similar", not a Jr./Sr. difference) with at least
`MIN_DUPLICATE_SCORE`. The pairs explained are those sharing a key of one of the rules
(`duplicate_keys`): on real rosters exactly the pairs a comparison of every pair would
show (tests/matching check it against that comparison), in about linear time; where a
key is shared by a crowd (one name a thousand times) each name explains at most
`duplicate_keys.MAX_PARTNERS` names of that key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from matching.duplicate_keys import candidate_pairs
from matching.rules import Reason, explain
from matching.suggest import prepare_roster

# Initials, nicknames, middle names, a typo in a short word (Marco Rosi) or in every
# word (Tarik Hasan); not "only similar" (Emma and Eva), not Jr. against none.
MIN_DUPLICATE_SCORE = 70
NOT_EVIDENCE = frozenset({Reason.SIMILAR, Reason.SUFFIX})


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    i: int  # positions in the roster, i < j
    j: int
    score: float
    reason: Reason


def possible_duplicates(names: Sequence[str], limit: int = 200) -> list[DuplicatePair]:
    """Pairs that may be one person, best first, at most `limit`."""
    roster = prepare_roster(names)
    profiles = roster.profiles
    pairs = []
    for i, j in candidate_pairs(profiles):
        # A Jr. against a Sr. or none is never shown (explain's SUFFIX): nothing to explain.
        if profiles[i].suffix != profiles[j].suffix:
            continue
        verdict = explain(roster.name(i), roster.name(j))
        if verdict.score >= MIN_DUPLICATE_SCORE and verdict.reason not in NOT_EVIDENCE:
            pairs.append(DuplicatePair(i, j, verdict.score, verdict.reason))
    pairs.sort(key=lambda pair: (-pair.score, pair.i, pair.j))
    return pairs[: max(0, limit)]
