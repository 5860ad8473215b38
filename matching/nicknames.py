"""Given names that one person may go by: each line is one family of names.

A name may sit in more than one family (Sasha is short for Alexander and for
Alexandra). Names are compared in their `loose` form, so "Aleksandr" and
"Alexandr" need no line of their own.
"""

from __future__ import annotations

from functools import lru_cache

from matching.normalize import loose

FAMILIES = (
    "alexander alex sasha sascha sander sandro alessandro alejandro alexandre oleksandr",
    "alexandra alex sasha sandra lexie",
    "andrew andreas andries andrei andrey andre andy drew dries",
    "anthony antonius anton antonio antoine toon tony",
    "benjamin ben benny benji",
    "charles karel karl carl carlos charlie chuck",
    "christopher christoph chris",
    "christian christiaan chris kris",
    "christina christine kristina kristin chris tina",
    "cornelis cornelius kees cor",
    "daniel daan dan danny dani",
    "david dave davy",
    "dmitri dimitrios dima mitya",
    "edward eduard ed eddie ted ned",
    "elizabeth elisabeth liesbeth eliza elise lisa liz lizzy beth betty betsy ilse",
    "evgeny eugene zhenya",
    "francis franciscus frans franz francesco francois frank frankie",
    "frederick frederik friedrich fritz frits freek fred freddie",
    "gerard gerardus gerhard gerrit gert geert ger",
    "hendrik heinrich hein heinz henk henry henri harry hank",
    "jacob jakob jacobus jaap koos kobus jacques jakov",
    "james jim jimmy jamie",
    "johannes johann johan jan hans hannes john johnny jack",
    "jonathan jon jonny",
    "joseph josef jozef jos joe joey sepp",
    "katherine catherine katharina katrin ekaterina katja katya kate katie kathy cathy",
    "margaret margarete margriet grietje greta marga maggie meg peggy",
    "maria marie mary masha mia mieke ria",
    "matthew matthias mathias matthijs mathieu matteo thijs matt",
    "michael michiel michel michal mikhail miguel mike mick misha",
    "muhammad mohammed mohammad mohamed muhammed",
    "natalia natalie nathalie natasha",
    "nicholas nicolaas nicolas nikolai nikolaos klaas niek nick nico kolya",
    "peter pieter piet pyotr piotr petr pedro pierre pete",
    "philip philipp philippe filip phil flip",
    "richard rick ricky rich richie dick",
    "robert rob robbie bob bobby bert",
    "samuel sam sammy",
    "sergei serge sergio seryozha",
    "stephen steven stefan stephan stepan steve stevie",
    "thomas tomas tom tommy thom",
    "timothy tim timmy",
    "vladimir volodya vova",
    "william willem wilhelm will bill billy willy wim liam",
)


@lru_cache(maxsize=1)
def _families_by_name() -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for number, family in enumerate(FAMILIES):
        for name in family.split():
            found.setdefault(loose(name), set()).add(number)
    return {name: frozenset(numbers) for name, numbers in found.items()}


_NONE: frozenset[int] = frozenset()


def families(name: str) -> frozenset[int]:
    """The families a loose given name belongs to (empty when it is in none)."""
    return (_FAMILIES_BY_NAME or _remember_families()).get(name, _NONE)


_FAMILIES_BY_NAME: dict[str, frozenset[int]] = {}


def _remember_families() -> dict[str, frozenset[int]]:
    # Built on first use, then read without a call through lru_cache: `families` is asked
    # for every pair of given names a roster search compares.
    _FAMILIES_BY_NAME.update(_families_by_name())
    return _FAMILIES_BY_NAME


def are_nicknames(first: str, second: str) -> bool:
    """Whether two different loose given names may belong to one person."""
    return first != second and not families(first).isdisjoint(families(second))


def initials_of_family(name: str) -> frozenset[str]:
    """First letters of every name in the families of `name` (Bob: b and r)."""
    found = {name[:1]}
    for number in families(name):
        found.update(loose(other)[:1] for other in FAMILIES[number].split())
    return frozenset(found)
