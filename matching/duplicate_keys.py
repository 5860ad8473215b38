"""The pairs of a roster that `rules.explain` could call one person, found by shared keys.

A pair is shown when `explain` names a reason (not "similar", not a Jr./Sr. difference)
with at least 70 points: it may lose 30. Each rule that can do so needs the two names to
share something; the keys here are those things, so comparing only the pairs that share
one finds the pairs a comparison of every pair would (tests/matching compare the two):

- the same name after normalisation (`Pair.same_key`): an exact form;
- the same words in a looser spelling (`spelling_variant`): the profile's text;
- a word in common and a word related to a word of the other name (an initial, a
  nickname, the same core, a typo: `rules._pair_off`); relations are worked out once per
  *distinct word* of the roster (rosters repeat first names and surnames), then names
  are joined through their words: the name's (common word, other word) against the
  other's (common word, a related word);
- one name's words all among the other's, one or two more there (middle names, 12 points
  each): the smaller's words, sorted;
- no word in common but a typo in every word of five letters or more
  (`rules._typo_in_every_word`): the names having, for each word, a related word;
- a typo in the whole name (`rules.whole_name_typo`, its letters without spaces): a form
  less a letter for one typo; for two (twelve letters or more) a form less a letter of
  the first or of the last six letters (two typos leave one end with at most one).

Bounded work, as the names screen's: where keys are shared by a crowd (a roster of one
name 10,000 times has 50 million true pairs) each name takes at most `MAX_PARTNERS`
partners (the most alike as text), and a key's group is read at most `MAX_SCAN` members
far, so the pairs explained are at most `MAX_PARTNERS` a name whatever the roster. Below
that bound (a generated roster of 10,000 names) the pairs are exactly all-pairs'.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, islice

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from matching.nicknames import are_nicknames, families
from matching.profile import MAX_UNITS, Profile

# Partners one name takes, whatever keys it shares: about what a real roster gives one name
# (of a generated 10,000-name roster, "V. Elena Robinson" has the most candidates, 36, the
# true ones among the most alike), and the bound for rosters built to defeat the keys (the
# names screen explains at most 32 names a typed name, too).
MAX_PARTNERS = 32
# rules: a word is related by a typo from three letters (two typos from eight), every word
# a typo from five, the whole name two typos from twelve letters.
_TYPO_WORD = 3
_EVERY_WORD = 5
_TWO_TYPOS = 8
_WHOLE_TWO_TYPOS = 12
_END = _WHOLE_TWO_TYPOS // 2
_MIDDLE_NAMES = 2
# Members of a key's group one name or spelling is compared with, at most (as the names
# screen ranks at most 1,000 pool entries a typed name): the work stays linear in a crowd.
MAX_SCAN = 1_000

Word = tuple[str, str]  # (unit, core), as in rules
Pair = tuple[int, int]


def deletions(word: str, most: int) -> set[str]:
    """The word and each way of leaving out up to `most` of its letters: two words at most
    `most` typos apart (a letter missing, extra, wrong, or two swapped) share one."""
    found = {word}
    edge = {word}
    for _ in range(most):
        edge = {w[:at] + w[at + 1 :] for w in edge for at in range(len(w))}
        found |= edge
    return found


def one_typo_keys(letters: str) -> set[str]:
    """Forms less a letter: two spellings one typo apart share one."""
    return deletions(letters, 1)


def ends(letters: str) -> tuple[str, str]:
    """The first and last `_END` letters: of two spellings two typos apart (twelve letters
    or more), one has at most one typo in its first `_END` letters or in its last (one
    typo touches at most two neighbouring letters, and a key of one end shares a form
    less a letter with the other's when it has at most one)."""
    return letters[:_END], letters[-_END:]


class _Related:
    """Each distinct word's related words (typo, nickname, same core), found once."""

    def __init__(self, words: Iterable[Word]) -> None:
        self.of: dict[Word, set[Word]] = {}
        distinct = list(dict.fromkeys(words))
        by_form: dict[str, list[Word]] = {}
        by_family: dict[int, list[Word]] = {}
        by_core: dict[str, list[Word]] = {}
        for word in distinct:
            unit, core = word
            if len(unit) >= _TYPO_WORD:
                for form in deletions(unit, 2 if len(unit) >= _TWO_TYPOS else 1):
                    by_form.setdefault(form, []).append(word)
            for family in families(unit):
                by_family.setdefault(family, []).append(word)
            if len(core) > 1:
                by_core.setdefault(core, []).append(word)
        for group in by_form.values():
            self._typos(group)
        for group in by_family.values():
            self._link(group, lambda a, b: are_nicknames(a[0], b[0]))
        for group in by_core.values():
            self._link(group, lambda a, b: True)

    def _typos(self, group: list[Word]) -> None:
        """Words of a group one typo apart (two from eight letters), compared in C: a
        roster built for it puts thousands of words in one group."""
        units = [unit for unit, _core in group]
        for at, unit in enumerate(units[:-1]):
            later = units[at + 1 : at + 1 + MAX_SCAN]
            found = process.extract(unit, later, scorer=OSA.distance, score_cutoff=2, limit=None)
            for other, typos, position in found:
                if other != unit and typos <= _allowed_typos(unit, other):
                    self._add(group[at], group[at + 1 + position])

    def _link(self, group: list[Word], related: Callable[[Word, Word], bool]) -> None:
        for at, one in enumerate(group):
            for other in group[at + 1 : at + 1 + MAX_SCAN]:
                # Equal units pair off as a word in common, never as related words.
                if one[0] != other[0] and related(one, other):
                    self._add(one, other)

    def _add(self, one: Word, other: Word) -> None:
        self.of.setdefault(one, set()).add(other)
        self.of.setdefault(other, set()).add(one)

    def __call__(self, word: Word) -> set[Word]:
        return self.of.get(word, _NONE)


_NONE: set[Word] = set()


def _allowed_typos(one: str, other: str) -> int:
    return 2 if min(len(one), len(other)) >= _TWO_TYPOS else 1


class _Pairs:
    """The pairs found, at most `MAX_PARTNERS` taken by each name: of more, the most alike
    as text (as the names screen keeps the most alike of a crowd)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.texts = texts
        self.found: set[Pair] = set()
        self.taken: dict[int, int] = {}

    def within(self, members: Sequence[int]) -> None:
        """Every two members, or each with the next `MAX_PARTNERS` of a crowd."""
        if len(members) < 2:
            return
        unique = sorted(set(members))
        for at, i in enumerate(unique):
            self.across(i, unique[at + 1 : at + 1 + MAX_PARTNERS])

    def across(self, at: int, others: Iterable[int]) -> None:
        taken = self.taken.get(at, 0)
        room = MAX_PARTNERS - taken
        if room <= 0:
            return
        found = self.found
        new = [
            pair
            for other in islice(others, MAX_SCAN)
            if other != at and (pair := (at, other) if at < other else (other, at)) not in found
        ]
        if len(new) > room:
            texts = self.texts
            best = process.extract(
                texts[at],
                [texts[i if j == at else j] for i, j in new],
                scorer=fuzz.ratio,
                limit=room,
            )
            new = [new[position] for _, _, position in best]
        found.update(new)
        self.taken[at] = taken + len(new)


def candidate_pairs(profiles: Sequence[Profile]) -> set[Pair]:
    """(i, j), i < j, of the names that share a key (see the module's docstring)."""
    out = _Pairs([name.text for name in profiles])
    shared: dict[tuple[str, ...], list[int]] = {}
    letters: dict[int, str] = {}
    words_of: dict[int, list[Word]] = {}
    for at, name in enumerate(profiles):
        if not name.units:
            continue
        for form in name.exact:
            shared.setdefault(("exact", form, name.suffix), []).append(at)
        shared.setdefault(("text", name.text, name.suffix), []).append(at)
        letters[at] = name.text.replace(" ", "")
        if len(name.units) <= MAX_UNITS:  # longer: compared as text only (rules)
            words_of[at] = list(zip(name.units, name.cores, strict=True))
    for members in shared.values():
        out.within(members)
    _whole_names(letters, out)
    related = _Related(word for words in words_of.values() for word in words)
    _word_related(words_of, related, out)
    _middle_names(words_of, out)
    _typo_in_every_word(words_of, related, out)
    return out.found


def _whole_names(letters: dict[int, str], out: _Pairs) -> None:
    """Names whose letters are one typo apart (two from twelve letters), compared per
    distinct spelling: names of the same letters are each other's partners already."""
    spelt: dict[str, list[int]] = {}
    for at, text in letters.items():
        spelt.setdefault(text, []).append(at)
    for members in spelt.values():
        out.within(members)
    close: set[tuple[str, str]] = set()
    short = [text for text in spelt if len(text) <= _WHOLE_TWO_TYPOS]
    by_form: dict[str, list[str]] = {}
    for text in short:
        for form in one_typo_keys(text):
            by_form.setdefault(form, []).append(text)
    for texts in by_form.values():
        if len(texts) > 1:
            for at, one in enumerate(texts[:-1]):
                later = texts[at + 1 : at + 1 + MAX_SCAN]
                found = process.extract(
                    one, later, scorer=OSA.distance, score_cutoff=1, limit=MAX_PARTNERS
                )
                close.update((one, other) if one < other else (other, one) for other, _, _ in found)
    long = [text for text in spelt if len(text) >= _WHOLE_TWO_TYPOS]
    for side in (0, 1):
        _two_typos(long, side, close)
    for one, other in close:
        for at in spelt[one][:MAX_PARTNERS]:
            out.across(at, spelt[other])


def _two_typos(texts: list[str], side: int, close: set[tuple[str, str]]) -> None:
    """Spellings of twelve letters or more two typos apart with at most one typo in the
    given end (0: the first letters, 1: the last; see `ends`), found by the forms less a
    letter of that end, worked out once per distinct end and compared in C."""
    by_end: dict[str, list[str]] = {}
    for text in texts:
        by_end.setdefault(ends(text)[side], []).append(text)
    by_form: dict[str, list[str]] = {}
    for end in by_end:
        for form in deletions(end, 1):
            by_form.setdefault(form, []).append(end)
    for end, spellings in by_end.items():
        near_ends = dict.fromkeys(e for form in deletions(end, 1) for e in by_form[form])
        others = list(islice((text for e in near_ends for text in by_end[e]), MAX_SCAN))
        for one in spellings:
            found = process.extract(
                one, others, scorer=OSA.distance, score_cutoff=2, limit=MAX_PARTNERS
            )
            close.update((one, other) for other, _, _ in found if one < other)


def _word_related(words_of: dict[int, list[Word]], related: _Related, out: _Pairs) -> None:
    """A word in common and another word related: an initial (one side a letter), or a
    word related to the other's (`_Related`)."""
    having: dict[tuple[str, Word], list[int]] = {}
    initials: dict[tuple[str, str], list[int]] = {}
    spelled: dict[tuple[str, str], list[int]] = {}
    links: list[tuple[int, str, Word]] = []
    for at, words in words_of.items():
        for here, (common, _core) in enumerate(words):
            if len(common) < 2:
                continue
            for there, word in enumerate(words):
                if there == here or not word[0]:
                    continue
                having.setdefault((common, word), []).append(at)
                side = initials if len(word[0]) == 1 else spelled
                side.setdefault((common, word[0][0]), []).append(at)
                links.append((at, common, word))
    for at, common, word in links:
        for other in related(word):
            found = having.get((common, other))
            if found:
                out.across(at, found)
    for key, letters_only in initials.items():
        spelled_out = spelled.get(key)
        if spelled_out:
            # From both sides: "J. Smith" has as many partners as the roster has Smiths
            # with a J, and each of them has its own room for it.
            for at in dict.fromkeys(letters_only):
                out.across(at, spelled_out)
            for at in dict.fromkeys(spelled_out):
                out.across(at, letters_only)


def _middle_names(words_of: dict[int, list[Word]], out: _Pairs) -> None:
    whole: dict[tuple[str, ...], list[int]] = {}
    fewer: dict[tuple[str, ...], list[int]] = {}
    for at, words in words_of.items():
        units = sorted(unit for unit, _core in words)
        if len(units) < 2 or max(map(len, units)) < 2:
            continue
        whole.setdefault(tuple(units), []).append(at)
        for less in range(1, _MIDDLE_NAMES + 1):
            if len(units) - less < 2:
                break
            for kept in set(combinations(units, len(units) - less)):
                fewer.setdefault(kept, []).append(at)
    for key, smaller in whole.items():
        larger = fewer.get(key)
        if larger:
            for at in smaller:
                out.across(at, larger)
            for at in dict.fromkeys(larger):
                out.across(at, smaller)


def _typo_in_every_word(words_of: dict[int, list[Word]], related: _Related, out: _Pairs) -> None:
    """No word in common, every word a typo of one of the other's (five letters or more,
    as many words): the names that have, for each word, a word related to it."""
    having: dict[tuple[int, str], set[int]] = {}
    qualified: list[tuple[int, list[Word]]] = []
    for at, words in words_of.items():
        if len(words) < 2 or min(len(unit) for unit, _core in words) < _EVERY_WORD:
            continue
        qualified.append((at, words))
        for unit, _core in words:
            having.setdefault((len(words), unit), set()).add(at)
    for at, words in qualified:
        common: set[int] | None = None
        for word in words:
            near: set[int] = set()
            for other in related(word):
                near |= having.get((len(words), other[0]), _NO_NAMES)
                if len(near) >= MAX_SCAN:
                    break
            common = near if common is None else common & near
            if not common:
                break
        if common:
            out.across(at, sorted(common))


_NO_NAMES: set[int] = set()
