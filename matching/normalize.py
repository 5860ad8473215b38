"""From a written player name to comparable parts.

`clean_name` is what every name entering the system goes through first: NFC,
invisible characters removed, odd spaces made plain (see its docstring). `clean_sent_text`
is the same cleaning for any text a browser sends, keeping its layout (tabs, line breaks).

`parse_name` reads one name the way a director would: it drops titles (GM, Dr.)
and bracketed notes, keeps a generational suffix (Jr., Sen., (Jun.), III) apart, finds the
surname ("Smith, John", "John Smith", "Emma de Vries", "Vries, Emma de") and
folds every word to lower-case ASCII (Cyrillic and Devanagari transliterated),
except that ä ö ü ø å are kept: "Müller" may be written "Muller" or "Mueller".

`NameKey` is the part a database stores per name and alias (see its docstring).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from anyascii import anyascii

# 2: "Sen.", "(Jun.)", "Senior" and the like read as suffixes; invisible characters ignored.
KEY_VERSION = 2
MAX_KEY_LENGTH = 255
_MAX_WORD = 60  # letters kept of one word; with the longest suffix, one word always fits

HONORIFICS = frozenset({"dr", "drs", "prof", "mr", "mrs", "ms", "mx", "mme", "mlle", "shri", "smt"})
# Chess titles are dropped only when written in capitals: "Im" is also a surname.
CHESS_TITLES = frozenset({"gm", "im", "fm", "cm", "nm", "wgm", "wim", "wfm", "wcm"})
SUFFIXES = {"jr": "jr", "jnr": "jr", "sr": "sr", "snr": "sr", "ii": "ii", "iii": "iii", "iv": "iv"}
# Whole words that are a suffix only after at least two other words: "Antonio Senior" and
# "Junior Silva" are names, "Hans Müller Senior" is the father.
LONG_SUFFIXES = {"junior": "jr", "senior": "sr"}
# Suffixes that only count with a full stop or in brackets: "Li Jun" is a name,
# "Hans Müller jun." and "Hans Müller (Jun)" are the son.
_MARKED_SUFFIX = re.compile(
    r"[(\[]\s*(jr|jnr|jun|junior|sr|snr|sen|senior|ii|iii|iv)\s*\.?\s*[)\]]|\b(jun|sen)\.",
    re.IGNORECASE,
)
_MARKED = {**SUFFIXES, **LONG_SUFFIXES, "jun": "jr", "sen": "sr"}
PARTICLES = frozenset(
    {
        "van", "von", "vom", "zu", "zum", "zur", "de", "der", "den", "des", "het", "t", "ten",
        "ter", "te", "da", "das", "do", "dos", "di", "du", "del", "della", "dei", "degli", "dal",
        "dalla", "le", "la", "lo", "af", "av", "vd",
    }
)  # fmt: skip

# ä ö ü ø å: kept in keys, read as a/o/u/o/a ("plain") or ae/oe/ue/oe/aa ("expanded").
_KEPT = "äöüøå"
_KEEP = str.maketrans({**{c: chr(1 + at) for at, c in enumerate(_KEPT)}, "ő": "\x02", "ű": "\x03"})
_UNKEEP = str.maketrans({chr(1 + at): c for at, c in enumerate(_KEPT)})
_PLAIN = str.maketrans({"ä": "a", "ö": "o", "ü": "u", "ø": "o", "å": "a"})
_EXPANDED = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ø": "oe", "å": "aa"})
_APOSTROPHES = str.maketrans(dict.fromkeys("'’‘ʼʻ`´", ""))
_BRACKETED = re.compile(r"\([^)]*\)|\[[^\]]*\]|\"[^\"]*\"|“[^”]*”")
_ASCII_WORD = re.compile(r"[A-Za-z0-9]+")
_FOLDED_WORD = re.compile(r"[a-z0-9äöüøå]+")
_WORDS = r"(?:[a-z0-9äöüøå]+(?: [a-z0-9äöüøå]+)*)?"
_KEY_FORMAT = re.compile(rf"{KEY_VERSION}:{_WORDS}\|{_WORDS}\|(?:jr|sr|ii|iii|iv)?")


class NameKey(str):
    """The stored form of a name: ``"2:<given names>|<surname words>|<suffix>"``.

    A plain string (store it in a CharField as it is), e.g. ``name_key("Vries, Emma de")``
    is ``"2:emma|de vries|"`` and ``name_key("Dr. Hans-Peter Müller Jr.")`` is
    ``"2:hans peter|müller|jr"``. Words are lower-case ASCII letters and digits, plus
    ä ö ü ø å. The leading number is `KEY_VERSION`; a stored key of another version is
    refused by `from_str` (and `prepare_roster` then recomputes it from the name). A key
    is never longer than `MAX_KEY_LENGTH` characters.
    """

    __slots__ = ()

    @classmethod
    def build(cls, given: Iterable[str], surname: Iterable[str], suffix: str = "") -> NameKey:
        given = [word[:_MAX_WORD] for word in given]
        surname = [word[:_MAX_WORD] for word in surname]
        while len(given) + len(surname) > 1 and _key_length(given, surname) > MAX_KEY_LENGTH:
            (given if len(given) > len(surname) else surname).pop()
        return cls(f"{KEY_VERSION}:{' '.join(given)}|{' '.join(surname)}|{suffix}")

    @classmethod
    def from_str(cls, text: str) -> NameKey:
        """A stored key; ValueError if it is not a key of the current version."""
        if not isinstance(text, str) or not _KEY_FORMAT.fullmatch(text):
            raise ValueError(f"not a version {KEY_VERSION} name key: {text!r}")
        return cls(text)

    def to_str(self) -> str:
        return str.__str__(self)

    @property
    def given(self) -> tuple[str, ...]:
        return tuple(self._fields()[0].split())

    @property
    def surname(self) -> tuple[str, ...]:
        return tuple(self._fields()[1].split())

    @property
    def suffix(self) -> str:
        return self._fields()[2]

    def _fields(self) -> list[str]:
        return self.partition(":")[2].split("|")


def _key_length(given: list[str], surname: list[str]) -> int:
    return len(" ".join(given)) + len(" ".join(surname)) + 10


@dataclass(frozen=True, slots=True)
class ParsedName:
    """One written name, read: its key plus what the written form adds."""

    key: NameKey
    letters: str  # case-folded letters and digits as written: "emmadevries", "müllerhans"
    written: tuple[str, ...]  # folded words in written order
    particle_last: bool  # the Dutch index form: "Vries, Emma de"
    non_latin: bool  # some letter is not from the Latin script (Cyrillic, Devanagari, ...)
    non_ascii: bool  # some letter is not plain ASCII (accents or another script)


def name_key(name: str) -> NameKey:
    """What to store per player name and alias; see `NameKey`."""
    return parse_name(name).key


def parse_name(name: str) -> ParsedName:
    text = unicodedata.normalize("NFKC", clean_name(name).translate(_APOSTROPHES))
    marked, text = _marked_suffix(text)
    text = _BRACKETED.sub(" ", text)
    parts = [_words(part) for part in text.split(",")]
    parts = _without_titles(parts)
    suffix, parts = _take_suffix(parts)
    suffix = marked or suffix
    parts = [part for part in parts if part]
    raw = [word for part in parts for word in part]
    folded = [_abbreviated_particles([word for _, word in part]) for part in parts]
    given, surname, particle_last = _structure(folded)
    return ParsedName(
        key=NameKey.build(given, surname, suffix),
        letters="".join(word.casefold() for word, _ in raw),
        written=tuple(folded for _, folded in raw),
        particle_last=particle_last,
        non_latin=any(not _is_latin(word) for word, _ in raw),
        non_ascii=not all(word.isascii() for word, _ in raw),
    )


# Characters that show nothing: format characters (zero-width space and joiners, BOM,
# soft hyphen, bidi marks; Unicode category Cf) and a few letters and marks that render
# blank (Hangul fillers, the combining grapheme joiner, variation selectors).
_BLANK_LETTERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0")
_ASCII_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clean_name(text: str) -> str:
    """A name as it should be stored and shown: NFC; invisible characters removed; every
    space-like character (no-break, thin, ideographic, line breaks, tabs, controls) a plain
    space; runs of spaces collapsed; trimmed. "Anna\u200b de\u00a0Vries" is "Anna de Vries"."""
    if not text.isascii():
        text = unicodedata.normalize("NFC", "".join(map(_visible, text)))
    return " ".join(_ASCII_CONTROL.sub(" ", text).split())


# What a textarea needs kept: tab and line breaks. Every other ASCII control goes.
_ASCII_CONTROL_BUT_LAYOUT = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean_sent_text(text: str) -> str:
    """Any text a browser sent (a search, a form field, a textarea), before it is queried or
    stored: NFC; NUL and every other control character, and the characters that show nothing
    (zero-width spaces and joiners, bidi marks and isolates, BOM, variation selectors)
    removed; tabs, line breaks and spaces kept as sent. A name then goes through
    `clean_name` as well. "a\x00b\u202ec" is "abc"."""
    text = _ASCII_CONTROL_BUT_LAYOUT.sub("", text)
    if text.isascii():
        return text
    # Each distinct character is judged once, then dropped in one C-level pass: a 3.5 MB
    # accented post judged char by char cost half a second of CPU before any throttle ran.
    hidden = {ord(char): None for char in set(text) if not _shows_or_lays_out(char)}
    return unicodedata.normalize("NFC", text.translate(hidden) if hidden else text)


def _shows_or_lays_out(char: str) -> bool:
    if char.isascii():
        return True
    category = unicodedata.category(char)
    return not (category in ("Cf", "Cc") or char in _BLANK_LETTERS or _is_variation_selector(char))


def _visible(char: str) -> str:
    if char.isascii():
        return char
    category = unicodedata.category(char)
    if category == "Cf" or char in _BLANK_LETTERS or _is_variation_selector(char):
        return ""
    if category in ("Zs", "Zl", "Zp", "Cc") or char == "\u2800":  # U+2800: braille blank
        return " "
    return char


def _is_variation_selector(char: str) -> bool:
    return "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


def _words(text: str) -> list[tuple[str, str]]:
    """(as written, folded) for every word of one comma-separated part."""
    if text.isascii():
        found = _ASCII_WORD.findall(text)
    else:
        found = "".join(c if unicodedata.category(c)[0] in "LMN" else " " for c in text).split()
    return [(word, folded) for word in found for folded in _FOLDED_WORD.findall(fold(word))]


def _without_titles(parts: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
    kept = [[w for w in part if not _is_title(*w)] for part in parts]
    return kept if any(kept) else parts


def _is_title(written: str, folded: str) -> bool:
    return folded in HONORIFICS or (folded in CHESS_TITLES and written.isupper())


def _marked_suffix(text: str) -> tuple[str, str]:
    """A suffix written with a full stop or in brackets ("jun.", "(Sen.)", "[Jr]"), taken
    out of the text before bracketed notes are dropped: (suffix or "", the text without it)."""
    found = _MARKED_SUFFIX.search(text)
    if found is None or not any(c.isalnum() for c in text[: found.start()]):
        return "", text  # first in the name, "Sen." is a senator's title, not a suffix
    word = (found.group(1) or found.group(2)).lower()
    return _MARKED[word], text[: found.start()] + " " + text[found.end() :]


def _take_suffix(parts: list[list[tuple[str, str]]]) -> tuple[str, list[list[tuple[str, str]]]]:
    """Jr., Sr., II, III, IV anywhere but in first place, and Junior or Senior after two
    other words: kept as evidence, not as a name."""
    words = sum(len(part) for part in parts)
    found = ""
    kept: list[list[tuple[str, str]]] = []
    for part in parts:
        kept.append([])
        for word in part:
            is_first = not any(kept)
            long = LONG_SUFFIXES.get(word[1]) if words >= 3 else None
            if (word[1] in SUFFIXES or long) and not is_first and not found:
                found = SUFFIXES.get(word[1]) or long or ""
            else:
                kept[-1].append(word)
    return found, kept


def _abbreviated_particles(words: list[str]) -> list[str]:
    """The Dutch "v.d." (van der, van den, van de) as the one particle "vd", after a name
    ("Jan v.d. Berg", "Berg, Jan v.d."); first in a name, "V. D." are initials."""
    for at in range(1, len(words) - 1):
        if words[at] == "v" and words[at + 1] == "d":
            return [*words[:at], "vd", *words[at + 2 :]]
    return words


def _structure(parts: list[list[str]]) -> tuple[list[str], list[str], bool]:
    """(given names, surname words with particles, particle written last)."""
    if not parts:
        return [], [], False
    if len(parts) > 1:
        surname, given = parts[0], [word for part in parts[1:] for word in part]
        moved = 0
        while moved < len(given) - 1 and given[-1 - moved] in PARTICLES:
            moved += 1
        if moved:
            return given[:-moved], given[-moved:] + surname, True
        return given, surname, False
    words = parts[0]
    if len(words) == 1:
        return [], words, False
    lead = _particle_run(words) if len(words[0]) > 1 else 0  # "T. Mulder" is no "'t Hart"
    if 0 < lead < len(words):
        return words[lead + 1 :], words[: lead + 1], False  # "de Vries Emma"
    if len(words[0]) > 1 and all(len(word) == 1 for word in words[1:]):
        return words[1:], words[:1], False  # "Smith J. M."
    for at in range(1, len(words) - 1):
        if 0 < _particle_run(words[at:]) < len(words) - at:
            return words[:at], words[at:], False  # "Jan van der Berg"
    return words[:-1], words[-1:], False


def _particle_run(words: list[str]) -> int:
    """How many words at the start are particles."""
    count = 0
    while count < len(words) and words[count] in PARTICLES:
        count += 1
    return count


def _is_latin(word: str) -> bool:
    return word.isascii() or all(
        not c.isalpha() or unicodedata.name(c, "").startswith("LATIN") for c in word
    )


# Folding: accents, other scripts -------------------------------------------------


@lru_cache(maxsize=65536)
def fold(word: str) -> str:
    """Lower-case ASCII (plus ä ö ü ø å) for one written word."""
    if any("\u0900" <= c <= "\u097f" for c in word):
        word = _devanagari(word)
    folded = anyascii(word.casefold().translate(_KEEP)).lower()
    return folded.translate(_UNKEEP).translate(_APOSTROPHES)  # Наталья -> Natal'ya


def plain(word: str) -> str:
    """ä ö ü ø å read as a o u o a: the spelling "Muller"."""
    return word.translate(_PLAIN)


def expanded(word: str) -> str:
    """ä ö ü ø å read as ae oe ue oe aa: the spelling "Mueller"."""
    return word.translate(_EXPANDED)


_LOOSE = (
    (re.compile(r"([aou])e"), r"\1"),  # Mueller ~ Müller ~ Muller
    (re.compile(r"ks"), "x"),  # Aleksandr ~ Alexandr
    (re.compile(r"kh"), "h"),  # Khalifman ~ Halifman
    (re.compile(r"ph"), "f"),
    (re.compile(r"w"), "v"),  # Wladimir ~ Vladimir
    (re.compile(r"ee"), "i"),  # Deepak ~ Dipak
    (re.compile(r"oo"), "u"),  # Pooja ~ Puja
    (re.compile(r"ij|y"), "i"),  # Dijkstra ~ Dykstra
    (re.compile(r"ii+"), "i"),  # Dmitriy ~ Dmitrii ~ Dmitry
)


@lru_cache(maxsize=65536)
def loose(word: str) -> str:
    """A spelling-tolerant form for comparing transliterations; never stored."""
    word = plain(word)
    for pattern, replacement in _LOOSE:
        word = pattern.sub(replacement, word)
    return word


# Devanagari: anyascii drops the inherent vowel ("पटेल" -> "ptel"); Hindi names want it
# after every consonant that has no vowel sign or virama, except at the end of a word.
_DEV_CONSONANTS = frozenset(
    chr(c) for c in [*range(0x915, 0x93A), *range(0x958, 0x960), *range(0x979, 0x980)]
)
_DEV_SIGNS = frozenset(chr(c) for c in [*range(0x93A, 0x950), 0x955, 0x956, 0x957, 0x962, 0x963])
_DEV_NASALS = frozenset("\u0900\u0901\u0902")
_DEV_NUKTA = "\u093c"
_DEV_SOUNDS = {
    "\u091a": "ch",  # च
    "\u091b": "chh",  # छ
    "\u0936": "sh",  # श
    "\u0937": "sh",  # ष
    "\u091c\u093c": "z",  # ज़
    "\u092b\u093c": "f",  # फ़
    "\u0921\u093c": "r",  # ड़
}


def _devanagari(word: str) -> str:
    out: list[str] = []
    for at, char in enumerate(word):
        if char in _DEV_NASALS:
            out.append("n")
        elif char in _DEV_CONSONANTS:
            nukta = word[at + 1 : at + 2] == _DEV_NUKTA
            out.append(_DEV_SOUNDS.get(char + _DEV_NUKTA if nukta else char, char))
            after = word[at + 2 if nukta else at + 1 : at + 3 if nukta else at + 2]
            if after and after not in _DEV_SIGNS:
                out.append("a")
        elif char != _DEV_NUKTA:
            out.append(char)
    return "".join(out)
