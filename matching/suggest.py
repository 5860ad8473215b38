"""Ranked roster candidates for a typed name; a director confirms.

For each typed name a shortlist is drawn from the prepared roster, then
`rules.explain` says why each shortlisted name may be the typed one:

1. the pool: roster names sharing a word with the typed name, or a word one
   typo away (an index of one-letter deletions over the roster's words);
2. the best `SHORTLIST` of the pool by rapidfuzz similarity;
3. plus every roster name sharing a surname and an initial (E. de Vries) or a
   nickname's initial (Bob Smith: Robert Smith), and every name that is the
   same after normalisation.

A suggestion is preselected only when exactly one roster player has the same
name after normalisation.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from rapidfuzz import fuzz, process, utils

from matching.normalize import KEY_VERSION, NameKey, name_key
from matching.profile import MAX_UNITS, Profile, block_keys, profile
from matching.rules import Name, Reason, explain, read

SHORTLIST = 12  # best rapidfuzz matches kept from the pool of each typed name
SHORTLIST_CUTOFF = 55
MIN_SCORE = 45
_MIN_TYPO_WORD = 4  # shorter words are not looked up one typo away
_KEY_PREFIX = f"{KEY_VERSION}:"


@dataclass(frozen=True, slots=True)
class Suggestion:
    index: int  # position in the roster
    score: float  # 0-100
    reason: Reason
    preselect: bool


@dataclass(frozen=True, slots=True, eq=False)
class PreparedRoster:
    """A roster read once, for many `suggest_prepared` calls. Build it with `prepare_roster`."""

    names: tuple[str, ...]
    owners: tuple[Hashable, ...]
    profiles: tuple[Profile, ...]
    exact: dict[str, list[int]]  # exact form and suffix -> roster positions
    words: dict[str, list[int]]  # word (unit or core) -> roster positions
    near: dict[str, set[str]]  # a word, or a word less one letter -> those roster words
    _read: dict[int, Name] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.names)

    def name(self, index: int) -> Name:
        found = self._read.get(index)
        if found is None:
            found = self._read[index] = Name(self.names[index], self.profiles[index])
        return found


# A roster changes by a few names between two events, so re-preparing it after
# a change mostly reads keys seen before: remember their profiles (a few
# hundred bytes each) instead of deriving them again.
_profile_of = functools.lru_cache(maxsize=50_000)(profile)


def prepare_roster(
    names: Sequence[str],
    *,
    keys: Sequence[str] | None = None,
    owners: Sequence[Hashable] | None = None,
) -> PreparedRoster:
    """Read a roster once.

    `keys`: the stored `name_key` of each name, to skip computing it (a key that is not
    of the current `KEY_VERSION` is recomputed). `owners`: the player each entry belongs
    to when a player appears more than once (a name and its aliases); suggestions then
    name each player once, and "exactly one" for preselect counts players, not entries.
    """
    if keys is not None and len(keys) != len(names):
        raise ValueError("keys must have one entry per name")
    if owners is not None and len(owners) != len(names):
        raise ValueError("owners must have one entry per name")
    stored = [_stored_key(key) for key in keys] if keys is not None else [None] * len(names)
    profiles = tuple(
        _profile_of(key or name_key(name)) for key, name in zip(stored, names, strict=True)
    )
    exact: dict[str, list[int]] = {}
    words: dict[str, list[int]] = {}
    for at, found in enumerate(profiles):
        for form in found.exact:
            exact.setdefault(f"{form}|{found.suffix}", []).append(at)
        for word in _lookup_words(found):
            words.setdefault(word, []).append(at)
    near: dict[str, set[str]] = {}
    for word in words:
        if len(word) >= _MIN_TYPO_WORD:
            for variant in (word, *_one_letter_less(word)):
                near.setdefault(variant, set()).add(word)
    return PreparedRoster(
        names=tuple(names),
        owners=tuple(owners) if owners is not None else tuple(range(len(names))),
        profiles=profiles,
        exact=exact,
        words=words,
        near=near,
    )


def suggest_prepared(typed: str, roster: PreparedRoster, limit: int = 5) -> list[Suggestion]:
    """Roster candidates for one typed name, best first, at most `limit` (one per owner)."""
    name = read(typed)
    if limit <= 0 or not name.profile.units:
        return []
    same = _same_after_normalisation(name.profile, roster)
    preselected = {roster.owners[at] for at in same}
    ranked = []
    for at in _shortlist(name.profile, roster) | same:
        entry = roster.name(at)
        verdict = explain(name, entry)
        if verdict.score >= MIN_SCORE:
            closeness = fuzz.token_sort_ratio(typed, entry.raw, processor=utils.default_process)
            ranked.append((-verdict.score, -closeness, at, verdict))
    ranked.sort(key=lambda row: row[:3])
    suggestions: list[Suggestion] = []
    seen: set[Hashable] = set()
    for _, _, at, verdict in ranked:
        owner = roster.owners[at]
        if owner in seen:
            continue
        seen.add(owner)
        preselect = len(preselected) == 1 and at in same
        suggestions.append(Suggestion(at, verdict.score, verdict.reason, preselect))
        if len(suggestions) == limit:
            break
    return suggestions


def suggest(typed: str, roster: Sequence[str], limit: int = 5) -> list[Suggestion]:
    """`suggest_prepared` with a roster read for this one call."""
    return suggest_prepared(typed, prepare_roster(roster), limit)


def _same_after_normalisation(name: Profile, roster: PreparedRoster) -> set[int]:
    return {at for form in name.exact for at in roster.exact.get(f"{form}|{name.suffix}", ())}


def _shortlist(name: Profile, roster: PreparedRoster) -> set[int]:
    pool: set[int] = set()
    for word in _lookup_words(name):
        for similar in _near_words(word, roster):
            pool.update(roster.words[similar])
    found: set[int] = set()
    if pool:
        ordered = list(pool)
        best = process.extract(
            name.text,
            [roster.profiles[at].text for at in ordered],
            scorer=fuzz.ratio,
            limit=SHORTLIST,
            score_cutoff=SHORTLIST_CUTOFF,
        )
        found.update(ordered[position] for _, _, position in best)
    for core, letters in _blocks(name).items():
        found.update(
            at for at in roster.words.get(core, ()) if _in_block(roster.profiles[at], core, letters)
        )
    return found


def _blocks(name: Profile) -> dict[str, frozenset[str]]:
    """Word -> initials: the roster names with that word and a word with one of those
    initials are shortlisted whatever their text similarity ("E. de Vries" finds every
    E-something de Vries, "Bob Smith" every B- or R-something Smith)."""
    letters: dict[str, set[str]] = {}
    for core, letter in block_keys(name, nicknames=True):
        letters.setdefault(core, set()).add(letter)
    return {core: frozenset(found) for core, found in letters.items()}


def _in_block(entry: Profile, core: str, letters: frozenset[str]) -> bool:
    """Whether a roster name with `core` has another word starting with one of `letters`."""
    return any(
        unit[0] in letters
        for unit, unit_core in zip(entry.units, entry.cores, strict=True)
        if unit_core != core
    )


def _lookup_words(name: Profile) -> Iterable[str]:
    """The words a name is found by: its units and their cores, initials left out."""
    words = name.units if name.cores is name.units else {*name.units, *name.cores}
    return [word for word in words if len(word) > 1][:MAX_UNITS]


def _near_words(word: str, roster: PreparedRoster) -> set[str]:
    """Roster words equal to `word` or one typo away (a letter missing, extra, wrong or
    two swapped): the words that share a one-letter-less form with it."""
    found = {word} if word in roster.words else set()
    if len(word) >= _MIN_TYPO_WORD:
        for variant in (word, *_one_letter_less(word)):
            found.update(roster.near.get(variant, ()))
    return found


def _one_letter_less(word: str) -> Iterable[str]:
    return {word[:at] + word[at + 1 :] for at in range(len(word))}


def _stored_key(text: str) -> NameKey | None:
    """A stored key as it is, or None to recompute one of another version."""
    if text.startswith(_KEY_PREFIX) and text.count("|") == 2:
        return NameKey(text)
    return None
