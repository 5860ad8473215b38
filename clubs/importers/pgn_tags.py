"""PGN tag values, and a first count of a file's games from its tag lines alone.

python-chess reads a game's headers at about 15,000 games a second; a regular expression
finds every Event and White tag line of a 4 MiB file in milliseconds. Each game has one of
each, so a file whose tags alone take one event past the games limit is refused before
python-chess reads any of it. The exact count, game by game, follows in ``pgn._count``.
"""

from __future__ import annotations

import functools
import re
from collections import Counter

from .base import Limits, TooLargeError, clean_text, name_key

_UNKNOWN = frozenset({"", "?", "-", "??"})
_EVENT_TAG = re.compile(r'^\[Event\s+"((?:[^"\\]|\\.)*)"', re.M)
_WHITE_TAG = re.compile(r'^\[White\s+"', re.M)


def known(value: str | None) -> str | None:
    """A tag value with PGN escapes undone, or None for the placeholders ?, - and empty."""
    cleaned = clean_text(re.sub(r"\\(.)", r"\1", value or ""))
    return None if cleaned in _UNKNOWN else cleaned


@functools.lru_cache(maxsize=256)
def event_key(value: str) -> str | None:
    """How two spellings of one event's name are one event (None: no name)."""
    name = known(value)
    return None if name is None else name_key(name)


def refuse_by_tag_counts(text: str, wanted: str | None, limits: Limits) -> None:
    """Refuse a file whose Event tags (or, for games without one, White tags) already count
    more games of one event than the limit: of ``wanted`` only, when it is given."""
    events = Counter(event_key(value) for value in _EVENT_TAG.findall(text))
    untagged = len(_WHITE_TAG.findall(text)) - sum(events.values()) + events.pop(None, 0)
    counts = {**events, None: untagged}
    if wanted is not None:
        counts = {key: count for key, count in counts.items() if key in (name_key(wanted), None)}
    if max(counts.values(), default=0) > limits.games:
        raise TooLargeError("games", limits.games)
