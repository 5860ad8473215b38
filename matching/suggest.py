"""Ranked roster candidates for a typed name; a director confirms.

For each typed name a shortlist is drawn from the prepared roster, then
`rules.explain` says why each shortlisted name may be the typed one:

1. the pool: roster names sharing a word with the typed name, or a word one
   typo away (an index of one-letter deletions over the roster's words);
2. the best `SHORTLIST` of the pool by rapidfuzz similarity;
3. plus the roster names sharing a surname and an initial (E. de Vries) or a
   nickname's initial (Bob Smith: Robert Smith), and the names that are the
   same after normalisation.

A suggestion is preselected only when exactly one roster player has the same
name after normalisation (a generational suffix included: Jr. is never Sr.).

Bounded work: whatever the roster and the typed name, one typed name looks at no
more than `MAX_POOL` pool entries and explains no more than `SHORTLIST + MAX_BLOCK +
MAX_SAME` roster names, so 10,000 near-identical names cost a bounded amount per typed
name (about twice a real roster's; BENCHMARKS.md). The one cost that grows with the
roster is paid once per prepared roster and word: the first typed name with a word
sorts that word's roster names by initial (`PreparedRoster.block`).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import NamedTuple

from rapidfuzz import fuzz, process, utils

from matching.normalize import KEY_VERSION, NameKey, name_key
from matching.profile import MAX_UNITS, Profile, block_keys, profile
from matching.rules import Name, Reason, explain, read

SHORTLIST = 8  # best rapidfuzz matches kept from the pool of each typed name
SHORTLIST_CUTOFF = 55
MIN_SCORE = 45
# Hard bounds per typed name (a real 10,000-player roster stays far below them).
MAX_POOL = 1_000  # pool entries ranked by rapidfuzz
MAX_NEAR = 64  # roster words one typo away from one typed word
MAX_BLOCK = 12  # names of a surname-and-initial block explained, the most alike first
MAX_SAME = 12  # names that are the same after normalisation explained
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
    near: dict[str, list[str]]  # a word, or a word less one letter -> those roster words
    texts: tuple[str, ...]  # each profile's text, what rapidfuzz compares
    _read: dict[int, Name] = field(default_factory=dict)
    # word -> initial of another word -> positions; filled the first time a word's block
    # is asked for, so each roster name is sorted into a word's blocks at most once.
    _blocks: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.names)

    def name(self, index: int) -> Name:
        found = self._read.get(index)
        if found is None:
            found = self._read[index] = Name(self.names[index], self.profiles[index])
        return found

    def block(self, word: str, letter: str) -> list[int]:
        """The roster names with `word` and another word starting with `letter`, as a unit
        or as a core: "E. de Vries" and "E. Vries" find "Emma de Vries", and so do
        "Emma d." and "Emma V."."""
        letters = self._blocks.get(word)
        if letters is None:
            letters = {}
            for at in self.words.get(word, ()):
                entry = self.profiles[at]
                initials = {
                    initial
                    for unit, core in zip(entry.units, entry.cores, strict=True)
                    if core != word
                    for initial in (unit[:1], core[:1])
                }
                for initial in initials:
                    letters.setdefault(initial, []).append(at)
            self._blocks[word] = letters
        return letters.get(letter, [])


class _Entry(NamedTuple):
    """What the roster indexes of one stored key."""

    profile: Profile
    words: tuple[str, ...]  # the words it is found by


def _entry(key: NameKey) -> _Entry:
    found = profile(key)
    return _Entry(found, tuple(_lookup_words(found)))


# A roster changes by a few names between two events, so re-preparing it after
# a change mostly reads keys seen before: remember what each one gives (a few
# hundred bytes each) instead of deriving it again.
_entry_of = functools.lru_cache(maxsize=50_000)(_entry)


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
    entries = [_entry_of(key or name_key(name)) for key, name in zip(stored, names, strict=True)]
    exact: dict[str, list[int]] = {}
    words: dict[str, list[int]] = {}
    for at, entry in enumerate(entries):
        suffix = entry.profile.suffix
        for form in entry.profile.exact:
            exact.setdefault(f"{form}|{suffix}", []).append(at)
        for word in entry.words:
            words.setdefault(word, []).append(at)
    near: dict[str, list[str]] = {}
    for word in words:
        if len(word) >= _MIN_TYPO_WORD:
            for variant in _variants(word):
                near.setdefault(variant, []).append(word)
    return PreparedRoster(
        names=tuple(names),
        owners=tuple(owners) if owners is not None else tuple(range(len(names))),
        profiles=tuple(entry.profile for entry in entries),
        exact=exact,
        words=words,
        near=near,
        texts=tuple(entry.profile.text for entry in entries),
    )


def suggest_prepared(typed: str, roster: PreparedRoster, limit: int = 5) -> list[Suggestion]:
    """Roster candidates for one typed name, best first, at most `limit` (one per owner)."""
    name = read(typed)
    if limit <= 0 or not name.profile.units:
        return []
    same, one_player = same_after_normalisation(name.profile, roster)
    found = []
    for at in candidates(name.profile, roster) | same:
        verdict = explain(name, roster.name(at))
        if verdict.score >= MIN_SCORE:
            found.append((at, verdict))
    # Equal scores are ordered by how alike the names look as written (then by position);
    # only they need that comparison.
    scores = Counter(verdict.score for _, verdict in found)
    ranked = sorted(
        (
            -verdict.score,
            -_closeness(typed, roster.names[at]) if scores[verdict.score] > 1 else 0,
            at,
            verdict,
        )
        for at, verdict in found
    )
    suggestions: list[Suggestion] = []
    seen: set[Hashable] = set()
    for _, _, at, verdict in ranked:
        owner = roster.owners[at]
        if owner in seen:
            continue
        seen.add(owner)
        preselect = one_player and at in same
        suggestions.append(Suggestion(at, verdict.score, verdict.reason, preselect))
        if len(suggestions) == limit:
            break
    return suggestions


def _closeness(typed: str, entry: str) -> float:
    return fuzz.token_sort_ratio(typed, entry, processor=utils.default_process)


def suggest(typed: str, roster: Sequence[str], limit: int = 5) -> list[Suggestion]:
    """`suggest_prepared` with a roster read for this one call."""
    return suggest_prepared(typed, prepare_roster(roster), limit)


def same_after_normalisation(name: Profile, roster: PreparedRoster) -> tuple[set[int], bool]:
    """Up to `MAX_SAME` roster positions with the same name after normalisation (suffix
    included), and whether they all belong to one player (then it is preselected)."""
    found = dict.fromkeys(
        islice(
            chain.from_iterable(roster.exact.get(f"{f}|{name.suffix}", ()) for f in name.exact),
            MAX_POOL + 1,
        )
    )
    owners = set()
    for at in found:
        owners.add(roster.owners[at])
        if len(owners) > 1:
            break
    one_player = len(owners) == 1 and len(found) <= MAX_POOL
    return set(islice(found, MAX_SAME)), one_player


def candidates(name: Profile, roster: PreparedRoster, cutoff: float = SHORTLIST_CUTOFF) -> set[int]:
    """The roster positions worth explaining for a name, at most `SHORTLIST + MAX_BLOCK`:
    the pool's best by text (at least `cutoff` alike), and the names of its
    surname-and-initial blocks."""
    found: set[int] = set()
    pool = _pool(name, roster)
    if pool:
        found.update(_most_alike(name, pool, roster, SHORTLIST, cutoff))
    block = _block_members(name, roster)
    found.update(block if len(block) <= MAX_BLOCK else _most_alike(name, block, roster, MAX_BLOCK))
    return found


def _most_alike(
    name: Profile, positions: list[int], roster: PreparedRoster, limit: int, cutoff: float = 0
) -> Iterator[int]:
    texts = [roster.texts[at] for at in positions]
    best = process.extract(name.text, texts, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff)
    return (positions[position] for _, _, position in best)


def _pool(name: Profile, roster: PreparedRoster) -> list[int]:
    """Roster names sharing a word, or a word one typo away, with the typed name: the names
    of rarer words first, at most `MAX_POOL` of them, and no more than `2 * MAX_POOL`
    positions read however the words overlap."""
    similar = dict.fromkeys(
        chain.from_iterable(_near_words(word, roster) for word in _lookup_words(name))
    )
    pool: dict[int, None] = {}
    budget = 2 * MAX_POOL
    for word in sorted(similar, key=lambda found: len(roster.words[found])):
        room = min(MAX_POOL - len(pool), budget)
        if room <= 0:
            break
        chunk = roster.words[word][:room]
        budget -= len(chunk)
        pool.update(dict.fromkeys(chunk))
    return list(pool)


def _block_members(name: Profile, roster: PreparedRoster) -> list[int]:
    """Roster names sharing a surname and an initial (or a nickname's initial) with the
    typed name (see `_blocks`), at most `MAX_POOL`."""
    members: dict[int, None] = {}
    for block in sorted(block_keys(name, nicknames=True)):
        room = MAX_POOL - len(members)
        if room <= 0:
            break
        members.update(dict.fromkeys(roster.block(*block)[:room]))
    return list(members)


def _lookup_words(name: Profile) -> Iterable[str]:
    """The words a name is found by: its units and their cores, initials left out."""
    words = dict.fromkeys(name.units if name.cores is name.units else (*name.units, *name.cores))
    return [word for word in words if len(word) > 1][:MAX_UNITS]


def _near_words(word: str, roster: PreparedRoster) -> list[str]:
    """Roster words equal to `word` or one typo away (a letter missing, extra, wrong or
    two swapped): the words that share a one-letter-less form with it; at most `MAX_NEAR`."""
    found: dict[str, None] = {word: None} if word in roster.words else {}
    if len(word) >= _MIN_TYPO_WORD:
        for variant in _variants(word):
            found.update(dict.fromkeys(roster.near.get(variant, ())[:MAX_NEAR]))
            if len(found) >= MAX_NEAR:
                break
    return list(found)[:MAX_NEAR]


def _variants(word: str) -> Iterable[str]:
    """The word and each way of leaving one letter out, in a fixed order."""
    return dict.fromkeys([word, *(word[:at] + word[at + 1 :] for at in range(len(word)))])


def _stored_key(text: str) -> NameKey | None:
    """A stored key as it is, or None to recompute one of another version."""
    if text.startswith(_KEY_PREFIX) and text.count("|") == 2:
        return NameKey(text)
    return None
