"""Pairs of roster names that may be one person, for the roster's duplicates screen.

The evidence is the names screen's: each roster name is looked up in the roster as
a typed name would be (`suggest.candidates`: names sharing a word or a word one typo
away, the surname-and-initial blocks, the same name after normalisation) and each
pair found is explained by the same rules. A pair is shown when the rules name a
reason for it to be one person (not only "similar", not a Jr./Sr. difference) with
at least `MIN_DUPLICATE_SCORE`. A roster of 10,000 names is thus never compared pair
by pair, and each name explains a bounded number of others.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from matching.rules import Reason, explain
from matching.suggest import candidates, prepare_roster, same_after_normalisation

# Initials, nicknames, middle names, a typo in a short word (Marco Rosi) or in every
# word (Tarik Hasan); not "only similar" (Emma and Eva), not Jr. against none.
MIN_DUPLICATE_SCORE = 70
NOT_EVIDENCE = frozenset({Reason.SIMILAR, Reason.SUFFIX})
_TEXT_CUTOFF = 50
# Of the pool (names sharing a word or a word one typo away), only names this alike as
# text can be one person for a reason the blocks do not already find (a typo in a word
# with another initial, in every word, or in the whole name): the rest are explained
# only to be dropped, and a 10,000-name roster has a great many of them.
POOL_CUTOFF = 75


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    i: int  # positions in the roster, i < j
    j: int
    score: float
    reason: Reason


def possible_duplicates(names: Sequence[str], limit: int = 200) -> list[DuplicatePair]:
    """Pairs that may be one person, best first, at most `limit`."""
    roster = prepare_roster(names)
    seen: set[tuple[int, int]] = set()
    pairs = []
    for at, profile in enumerate(roster.profiles):
        if not profile.units:
            continue
        same, _one_player = same_after_normalisation(profile, roster)
        for other in candidates(profile, roster, POOL_CUTOFF) | same:
            pair = (at, other) if at < other else (other, at)
            if other == at or pair in seen:
                continue
            seen.add(pair)
            i, j = pair
            if not fuzz.ratio(roster.texts[i], roster.texts[j], score_cutoff=_TEXT_CUTOFF):
                continue
            verdict = explain(roster.name(i), roster.name(j))
            if verdict.score >= MIN_DUPLICATE_SCORE and verdict.reason not in NOT_EVIDENCE:
                pairs.append(DuplicatePair(i, j, verdict.score, verdict.reason))
    pairs.sort(key=lambda pair: (-pair.score, pair.i, pair.j))
    return pairs[: max(0, limit)]
