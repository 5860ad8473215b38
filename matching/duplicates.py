"""Pairs of roster names that may be one person, for the roster's duplicates screen.

Only names that could be compared are: names that are the same after
normalisation, and names that share a word and the initial of another word
(the blocks of `profile.block_keys`). A roster of 10,000 names is thus never
compared pair by pair.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from rapidfuzz import fuzz

from matching.profile import block_keys
from matching.rules import Reason, explain
from matching.suggest import prepare_roster

MIN_DUPLICATE_SCORE = 85  # initials, nicknames, middle names, one typo; not Jr. against none
_TEXT_CUTOFF = 50


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    i: int  # positions in the roster, i < j
    j: int
    score: float
    reason: Reason


def possible_duplicates(names: Sequence[str], limit: int = 200) -> list[DuplicatePair]:
    """Pairs that may be one person, best first, at most `limit`."""
    roster = prepare_roster(names)
    blocks: dict[tuple[str, str], list[int]] = {}
    for at, found in enumerate(roster.profiles):
        for block in block_keys(found, nicknames=True):
            blocks.setdefault(block, []).append(at)
    candidates: set[tuple[int, int]] = set()
    for group in (*roster.exact.values(), *blocks.values()):
        candidates.update(combinations(sorted(set(group)), 2))
    pairs = []
    for i, j in candidates:
        texts = roster.profiles[i].text, roster.profiles[j].text
        if fuzz.ratio(*texts, score_cutoff=_TEXT_CUTOFF):
            verdict = explain(roster.name(i), roster.name(j))
            if verdict.score >= MIN_DUPLICATE_SCORE:
                pairs.append(DuplicatePair(i, j, verdict.score, verdict.reason))
    pairs.sort(key=lambda pair: (-pair.score, pair.i, pair.j))
    return pairs[: max(0, limit)]
