"""How one check-in is split into the sections of a club night (issue 36): pure, no Django.

The director ticks everyone once, then splits them by rating (thresholds), by age group
(the roster knows only whether a player is a junior, never a birth date) or by choice (every
player starts in the first section and is moved before that section's first round). The
sections are listed highest first: the strongest players' section, or the adults'.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

ONE = ""  # one section: the evening as it always was
BY_RATING = "rating"
BY_AGE = "age"
BY_CHOICE = "chosen"
SPLITS = (ONE, BY_RATING, BY_AGE, BY_CHOICE)

MOST_SECTIONS = 6
SECTION_NAME_LENGTH = 40  # Event.section's max_length


class SplitError(ValueError):
    """A split that cannot be made as asked; the caller says why in the reader's language."""

    def __init__(self, reason: str, **facts: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.facts = facts


@dataclass(frozen=True)
class CheckedIn:
    """A ticked player as the split sees them: their rating on the night's ladder (None
    before their first rated game) and whether the roster calls them a junior."""

    player: int
    rating: float | None
    junior: bool


def split(
    players: Sequence[CheckedIn], how: str, *, thresholds: Sequence[int], sections: int
) -> list[list[int]]:
    """The players' ids per section, highest first, each section in the order given.

    BY_RATING: `thresholds` ascending, one section per band ([1600]: 1600 and up, then
    below 1600); a player without a rating is in the lowest. BY_AGE: adults, then juniors.
    BY_CHOICE: `sections` sections, everyone in the first. ONE: one section of everyone."""
    ids = [p.player for p in players]
    if how == ONE:
        return [ids]
    if how == BY_AGE:
        adults = [p.player for p in players if not p.junior]
        return [adults, [p.player for p in players if p.junior]]
    if how == BY_CHOICE:
        if not 2 <= sections <= MOST_SECTIONS:
            raise SplitError("sections", most=MOST_SECTIONS)
        return [ids] + [[] for _more in range(sections - 1)]
    if how != BY_RATING:
        raise SplitError("how")
    if not thresholds or len(thresholds) >= MOST_SECTIONS:
        raise SplitError("thresholds", most=MOST_SECTIONS - 1)
    if any(low >= high for low, high in pairwise(thresholds)):
        raise SplitError("order")
    bands: list[list[int]] = [[] for _band in range(len(thresholds) + 1)]
    for p in players:
        band = 0 if p.rating is None else sum(p.rating >= low for low in thresholds)
        bands[band].append(p.player)
    return list(reversed(bands))


def section_names(typed: Sequence[str], count: int, defaults: Sequence[str]) -> list[str]:
    """The sections' names: those typed (highest first), else `defaults`; each one once,
    none blank, none longer than an event's section may be."""
    names = [" ".join(name.split()) for name in typed if name.strip()] or list(defaults)
    if len(names) != count:
        raise SplitError("names", count=count)
    if any(len(name) > SECTION_NAME_LENGTH for name in names):
        raise SplitError("long", most=SECTION_NAME_LENGTH)
    if len({name.casefold() for name in names}) != len(names):
        raise SplitError("twice")
    return names


def default_names(how: str, count: int, adults: str, juniors: str) -> list[str]:
    """Adults and juniors by age; A, B, C… otherwise."""
    if how == BY_AGE:
        return [adults, juniors]
    return [chr(ord("A") + number) for number in range(count)]
