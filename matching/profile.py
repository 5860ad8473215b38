"""What matching needs from one `NameKey`, computed once per roster name."""

from __future__ import annotations

from typing import NamedTuple

from matching.nicknames import initials_of_family
from matching.normalize import PARTICLES, NameKey, expanded, loose, plain

# Names with more words than this are compared as text only (rules and blocks look at
# pairs of words; a pasted paragraph must not make them slow).
MAX_UNITS = 12


class Profile(NamedTuple):
    """A name as units: given names, then each surname word with its particles glued on.

    "Jan van der Berg" has the units ("jan", "vanderberg") with cores ("jan", "berg").
    Units and cores are in their `loose` spelling. (A NamedTuple: a roster makes
    thousands of these, and it is the quickest immutable value to build.)
    """

    units: tuple[str, ...]
    cores: tuple[str, ...]
    text: str  # the units sorted and joined: what rapidfuzz compares
    suffix: str
    exact: tuple[str, ...]  # shared by names that are the same after normalisation (suffix aside)


def profile(key: NameKey) -> Profile:
    given_text, surname_text, suffix = key.partition(":")[2].split("|")
    given, surname = given_text.split(), surname_text.split()
    if PARTICLES.isdisjoint(surname):
        units = cores = given + surname
    else:
        runs = _runs(surname)
        units = given + ["".join(run) for run in runs]
        cores = given + [run[-1] for run in runs]
    loose_units = tuple(map(loose, units))
    return Profile(
        units=loose_units,
        cores=loose_units if cores is units else tuple(map(loose, cores)),
        text=" ".join(sorted(loose_units)),
        suffix=suffix,
        exact=_exact_forms(units),
    )


def _runs(words: list[str]) -> list[list[str]]:
    """Words grouped so that each run of particles goes with the word after it."""
    runs: list[list[str]] = [[]]
    for word in words:
        runs[-1].append(word)
        if word not in PARTICLES:
            runs.append([])
    return [run for run in runs if run]


def _exact_forms(units: list[str]) -> tuple[str, ...]:
    """Order-free forms, and the spaceless form ("McDonald" = "Mc Donald"), spelled both
    ways an umlaut is written without one (Müller = Muller, Müller = Mueller)."""
    if not units:
        return ()
    if "".join(units).isascii():
        spellings = [units]
    else:
        spellings = [[plain(unit) for unit in units], [expanded(unit) for unit in units]]
    forms = {" ".join(sorted(spelled)) for spelled in spellings}
    if min(map(len, units)) > 1:
        forms.update("".join(spelled) for spelled in spellings)
    return tuple(forms)


def block_keys(name: Profile, *, nicknames: bool = False) -> set[tuple[str, str]]:
    """(a word, the first letter of another word): names that share a surname and an
    initial share a block ("E. de Vries" and "Emma de Vries" share ("vries", "e")).

    With `nicknames`, a given name also stands for the initials of its family, so
    "Bob Smith" reaches the block of "Robert Smith".
    """
    cores = name.cores[:MAX_UNITS]
    keys: set[tuple[str, str]] = set()
    for at, core in enumerate(cores):
        if len(core) < 2:
            continue
        for other_at, other in enumerate(cores):
            if other_at != at and other:
                letters = initials_of_family(other) if nicknames else {other[0]}
                keys.update((core, letter) for letter in letters)
    return keys
