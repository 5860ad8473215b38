"""Why a roster name may be the typed name: an ordered list of small rules.

`explain` asks each rule in `RULES` in turn; the first that recognises the pair
gives the reason and the score (0-100). A generational suffix that differs
(Jr. against Sr., or against none) then turns any verdict into `Reason.SUFFIX`
with a lower score: it is evidence of two people.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from rapidfuzz import fuzz
from rapidfuzz.distance import OSA

from matching.nicknames import are_nicknames
from matching.normalize import ParsedName, loose, parse_name
from matching.profile import MAX_UNITS, Profile, profile


class Reason(StrEnum):
    """Short codes a template can translate."""

    SAME_NAME = "same_name"  # equal but for case, spacing and punctuation
    ACCENTS = "accents"  # accents or transliteration: Müller, Mueller, Muller; Иванов
    SWAPPED_ORDER = "swapped_order"  # "Smith, John" for "John Smith"
    PARTICLES = "particles"  # "Vries, Emma de"; van der / van den; particle left out
    INITIAL = "initial"  # "E. de Vries" for "Emma de Vries"
    MIDDLE_NAME = "middle_name"  # a middle name present on one side only
    NICKNAME = "nickname"  # Bob for Robert
    TYPO = "typo"  # a letter or two typed wrong
    SUFFIX = "suffix"  # Jr., Sr., II differ: probably two people
    SIMILAR = "similar"  # only alike as text


# Only alike as text: no rule recognised the pair ("Kandic, Milan" and "Mila Hendriks" share
# a first name and some letters). Such a candidate is shown as weak, never as a likely match.
WEAK_REASONS = frozenset({Reason.SIMILAR})


def is_weak(reason: Reason) -> bool:
    return reason in WEAK_REASONS


@dataclass(frozen=True, slots=True)
class Verdict:
    reason: Reason
    score: float


class Name:
    """A name read for comparison: as stored (`profile`) and, when a rule needs it, as
    written (`parsed`, read on first use: most roster names are never looked at so closely).
    """

    __slots__ = ("_parsed", "profile", "raw")

    def __init__(self, raw: str, profile: Profile, parsed: ParsedName | None = None) -> None:
        self.raw = raw
        self.profile = profile
        self._parsed = parsed

    @property
    def parsed(self) -> ParsedName:
        if self._parsed is None:
            self._parsed = parse_name(self.raw)
        return self._parsed

    @property
    def non_latin(self) -> bool:
        return not self.raw.isascii() and self.parsed.non_latin


def read(name: str) -> Name:
    parsed = parse_name(name)
    return Name(name, profile(parsed.key), parsed)


class Pair:
    __slots__ = ("entry", "same_key", "typed")

    def __init__(self, typed: Name, entry: Name) -> None:
        self.typed = typed
        self.entry = entry
        # The same name after normalisation (suffix aside).
        self.same_key = not frozenset(typed.profile.exact).isdisjoint(entry.profile.exact)

    @property
    def transliterated(self) -> bool:
        return self.typed.non_latin or self.entry.non_latin


# Same name after normalisation: which normalisation was needed? -----------------


def same_letters(pair: Pair) -> Verdict | None:
    if pair.same_key and pair.typed.parsed.letters == pair.entry.parsed.letters:
        return Verdict(Reason.SAME_NAME, 100)
    return None


def same_after_folding(pair: Pair) -> Verdict | None:
    if pair.same_key and _loose_letters(pair.typed) == _loose_letters(pair.entry):
        return Verdict(Reason.ACCENTS, 98)
    return None


def particle_moved(pair: Pair) -> Verdict | None:
    if pair.same_key and pair.typed.parsed.particle_last != pair.entry.parsed.particle_last:
        return Verdict(Reason.PARTICLES, 97)
    return None


def swapped_order(pair: Pair) -> Verdict | None:
    return Verdict(Reason.SWAPPED_ORDER, 97) if pair.same_key else None


# Not the same name: how far apart? ---------------------------------------------


def spelling_variant(pair: Pair) -> Verdict | None:
    """Mueller for Muller, Dmitriy for Dmitry: the same words in a looser spelling."""
    if pair.typed.profile.text != pair.entry.profile.text:
        return None
    typed, entry = pair.typed.parsed, pair.entry.parsed
    if typed.non_ascii or entry.non_ascii or _no_umlaut_e(typed) == _no_umlaut_e(entry):
        return Verdict(Reason.ACCENTS, 95)
    return Verdict(Reason.TYPO, 90)


def word_differences(pair: Pair) -> Verdict | None:
    """At least one word in common; every other word explained (see `_differences`)."""
    found = _differences(pair.typed.profile, pair.entry.profile)
    if not found:
        return None
    if pair.transliterated:
        accents = (Reason.ACCENTS, PENALTY[Reason.ACCENTS])
        found = [accents if reason is Reason.TYPO else (reason, p) for reason, p in found]
    reason, _ = max(found, key=lambda difference: difference[1])
    return Verdict(reason, max(0, 100 - sum(penalty for _, penalty in found)))


def whole_name_typo(pair: Pair) -> Verdict | None:
    typed = pair.typed.profile.text.replace(" ", "")
    entry = pair.entry.profile.text.replace(" ", "")
    distance = OSA.distance(typed, entry, score_cutoff=2)
    if distance > (2 if min(len(typed), len(entry)) >= 12 else 1):
        return None
    reason = Reason.ACCENTS if pair.transliterated else Reason.TYPO
    return Verdict(reason, 87 - 7 * max(0, distance - 1))


def similar(pair: Pair) -> Verdict:
    closeness = fuzz.ratio(pair.typed.profile.text, pair.entry.profile.text)
    return Verdict(Reason.SIMILAR, round(0.79 * closeness, 1))


Rule = Callable[[Pair], Verdict | None]
RULES: tuple[Rule, ...] = (
    same_letters,
    same_after_folding,
    particle_moved,
    swapped_order,
    spelling_variant,
    word_differences,
    whole_name_typo,
)


# The first rules only recognise names that are the same after normalisation: most pairs a
# roster search explains are not, and skip them (a names step explains ~15,000 pairs).
_NOT_SAME_KEY = RULES.index(spelling_variant)


def explain(typed: Name, entry: Name) -> Verdict:
    pair = Pair(typed, entry)
    verdict = None
    for rule in RULES if pair.same_key else RULES[_NOT_SAME_KEY:]:
        verdict = rule(pair)
        if verdict is not None:
            break
    else:
        verdict = similar(pair)
    typed_suffix, entry_suffix = typed.profile.suffix, entry.profile.suffix
    if typed_suffix != entry_suffix:
        penalty = 40 if typed_suffix and entry_suffix else 20
        return Verdict(Reason.SUFFIX, max(0, verdict.score - penalty))
    return verdict


# Word by word ---------------------------------------------------------------------

PENALTY = {
    Reason.ACCENTS: 6,
    Reason.INITIAL: 10,
    Reason.MIDDLE_NAME: 12,
    Reason.NICKNAME: 12,
    Reason.TYPO: 13,
    Reason.PARTICLES: 14,
}

Word = tuple[str, str]  # (unit, core): ("vanderberg", "berg")
_LONG_WORD = 5  # a typo in a shorter word is weaker evidence (Eva and Ava)


def _is_initial(a: Word, b: Word) -> bool:
    return (len(a[0]) == 1) != (len(b[0]) == 1) and a[0][0] == b[0][0]


def _is_nickname(a: Word, b: Word) -> bool:
    return are_nicknames(a[0], b[0])


def _same_core(a: Word, b: Word) -> bool:
    return a[1] == b[1] and len(a[1]) > 1


def _is_typo(a: Word, b: Word) -> bool:
    if min(len(a[0]), len(b[0])) < 3:
        return False
    return OSA.distance(a[0], b[0], score_cutoff=2) <= _allowed_typos(a[0], b[0])


RELATIONS: tuple[tuple[Reason, Callable[[Word, Word], bool]], ...] = (
    (Reason.INITIAL, _is_initial),
    (Reason.NICKNAME, _is_nickname),
    (Reason.PARTICLES, _same_core),
    (Reason.TYPO, _is_typo),
)


def _differences(typed: Profile, entry: Profile) -> list[tuple[Reason, int]]:
    """A reason and a penalty per word that differs, or [] when the names do not line up.

    Equal words pair off first (at least one must be a whole word, not an initial, unless
    every word of both names is one typo away from a word of the other); then each
    remaining typed word pairs with a remaining roster word it relates to (initial,
    nickname, particles, typo). Words left on one side only are middle names.
    """
    if max(len(typed.units), len(entry.units)) > MAX_UNITS:
        return []
    left: list[Word] = []
    right = list(zip(entry.units, entry.cores, strict=True))
    shared = False
    for word in zip(typed.units, typed.cores, strict=True):
        for at, other in enumerate(right):
            if other[0] == word[0]:
                del right[at]
                shared = shared or len(word[0]) > 1
                break
        else:
            left.append(word)
    if not (left or right):
        return []
    if not shared:
        # No word in common: still one person when every word is one typo away
        # ("Tarik Hasan" for "Tariq Hassan"); short words are too weak for that.
        if len(left) == len(typed.units) == len(entry.units) >= 2:
            return _typo_in_every_word(left, right)
        return []
    found: list[tuple[Reason, int]] = []
    for word in list(left):
        pairing = _pair_off(word, right)
        if pairing is not None:
            found.append(pairing)
            left.remove(word)
    extra = left or right
    if (left and right) or (extra and min(len(typed.units), len(entry.units)) < 2):
        return []
    return found + [(Reason.MIDDLE_NAME, PENALTY[Reason.MIDDLE_NAME])] * len(extra)


def _typo_in_every_word(left: list[Word], right: list[Word]) -> list[tuple[Reason, int]]:
    found: list[tuple[Reason, int]] = []
    for word in left:
        at = next(
            (
                at
                for at, other in enumerate(right)
                if min(len(word[0]), len(other[0])) >= _LONG_WORD and _is_typo(word, other)
            ),
            None,
        )
        if at is None:
            return []
        del right[at]
        found.append((Reason.TYPO, PENALTY[Reason.TYPO]))
    return found


def _pair_off(word: Word, others: list[Word]) -> tuple[Reason, int] | None:
    """The first relation (in `RELATIONS` order) of `word` to one of `others`, which
    loses that word."""
    for reason, related in RELATIONS:
        for at, other in enumerate(others):
            if related(word, other):
                del others[at]
                return reason, _penalty(reason, word[0], other[0])
    return None


def _penalty(reason: Reason, typed: str, entry: str) -> int:
    """A typo in a short word is weaker evidence: Eva and Ava, Tim and Tom are two names."""
    short = reason is Reason.TYPO and min(len(typed), len(entry)) < _LONG_WORD
    return PENALTY[reason] + (5 if short else 0)


def _allowed_typos(a: str, b: str) -> int:
    return 2 if min(len(a), len(b)) >= 8 else 1


def _loose_letters(name: Name) -> str:
    return "".join(map(loose, name.parsed.written))


def _no_umlaut_e(name: ParsedName) -> str:
    return "".join(name.written).replace("ae", "a").replace("oe", "o").replace("ue", "u")
