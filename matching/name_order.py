"""A name that arrived as "Last,First" (as Swiss-Manager and FIDE files write it), offered as
"First Last", the way the club's pages write everyone else. Pure Python: no Django."""

from __future__ import annotations

from matching.normalize import PARTICLES, clean_name, fold


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
