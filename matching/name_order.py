"""A name that arrived as "Last,First" (as Swiss-Manager and FIDE files write it), offered as
"First Last", the way the club's pages write everyone else. Pure Python: no Django."""

from __future__ import annotations

from matching.normalize import PARTICLES, clean_name, fold, plain


def first_last(name: str) -> str | None:
    """ "Jansen,Jan" -> "Jan Jansen"; "Vries, Emma de" -> "Emma de Vries".

    None when the name is not written "Last, First": no comma, more than one (a
    suffix or a title after a second comma is not ours to guess), or a side empty.
    Particles written after the first name go back before the surname, where
    "de Vries" keeps them; spelling and capitals stay exactly as typed.
    """
    parts = clean_name(name).split(",")
    if len(parts) != 2:
        return None
    surname, given = (part.split() for part in parts)
    if not surname or not given:
        return None
    moved = 0
    while moved < len(given) - 1 and fold(given[-1 - moved]) in PARTICLES:
        moved += 1
    if moved:
        given, surname = given[:-moved], given[-moved:] + surname
    return " ".join([*given, *surname])


def last_first(name: str) -> str:
    """ "Emma de Vries" -> "Vries, Emma de", the way clubs post an alphabetical list.

    The surname is the last word; particles just before it (de, van der, von...) follow the
    given names, the Dutch and German index form that `first_last` reads back, so "de
    Vries" is found under V (a Belgian "Van Damme" too: the simple rule, for every club).
    A single word is the whole name; a name already written "Last, First" stays as typed.
    A suffix (Jr) or a surname of two words without a particle ("García Márquez") is not
    guessed: the last word is the surname.
    """
    cleaned = clean_name(name)
    if cleaned.count(",") == 1:
        return cleaned
    words = cleaned.split()
    if len(words) < 2:
        return cleaned
    # Particles before the surname stay at the end of the given names: "Vries, Emma de".
    return f"{words[-1]}, {' '.join(words[:-1])}"


def surname_key(name: str) -> tuple[tuple[str, ...], str]:
    """A collation-like key for the alphabetical list by surname: each side of
    `last_first`'s "Surname, Given" folded to plain letters (Ö as O, ß as ss, Ł as L,
    Cyrillic and Devanagari as their Latin spelling), so accents never send a name to the
    end; the name as typed breaks a tie."""
    surname, _, given = last_first(name).partition(",")
    sides = tuple(" ".join(plain(fold(word)) for word in side.split()) for side in (surname, given))
    return sides, name.casefold()
