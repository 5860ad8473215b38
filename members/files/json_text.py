"""ladder.json's text: `json.dumps(data, ensure_ascii=False, indent=1)`, byte for byte, written
row by row.

The standard library encodes in C only without `indent`; with it, its Python encoder walks
every value through nested generators, and for a ladder of 2,284 players that was most of
the file's time (8.6 ms of 15, issue 34). The file keeps its indented form (scripts and
people read it, and it is what the page has always sent), so the common shape (a dict of
plain values and lists of flat dicts of plain values) is written here with the C string
encoder; any other value goes to json.dumps, which also says what cannot be written. A list
can be written ahead (written_list), kept, and handed in as a value (issue 34: the players of
a kept roster's ladder are the same every request).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from json.encoder import encode_basestring

_LITERALS = {None: "null", True: "true", False: "false"}


def _plain(value: object) -> str | None:
    """A plain value as json.dumps writes it; None for anything else."""
    if value is None or value is True or value is False:
        return _LITERALS[value]
    # As json.dumps: subclasses (a SafeString, an IntEnum) are written as their base type.
    if isinstance(value, str):
        return encode_basestring(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float) and math.isfinite(value):
        return float.__repr__(value)
    return None


# Within a row the indented encoder separates items with ",\n" and three spaces: the C
# encoder (no indent) takes any separators, and so writes each row's items as the indented
# one would. Every newline of its text is then a separator's (a string's is escaped), so the
# rows' own boundaries ("},\n   {"), the first and the last are the only ones to re-indent.
_IN_ROW = ",\n   "
# Exactly these types (a subclass, a nested list or dict, anything else: the standard encoder).
_PLAIN_TYPES = frozenset({str, int, float, bool, type(None)})


def _rows(rows: Sequence[object]) -> str | None:
    """A list of non-empty dicts of plain values, at depth one; None for any other list (an
    empty one is "[]" either way)."""
    if not rows:
        return "[]"
    for row in rows:
        if type(row) is not dict or not row:
            return None
    values: Iterator[object] = chain.from_iterable(row.values() for row in rows)  # type: ignore[attr-defined]
    if not _PLAIN_TYPES.issuperset(map(type, values)):
        return None
    flat = json.dumps(rows, ensure_ascii=False, separators=(_IN_ROW, ": "))
    body = flat[2:-2].replace("}" + _IN_ROW + "{", "\n  },\n  {\n   ")
    return "[\n  {\n   " + body + "\n  }\n ]"


class Written(str):
    """A list's text as indented() writes it as a value of its dict (written_list)."""


# json.dumps({"": value}, indent=1) is this, the value's text as a dict's value, and "\n}".
_VALUE_AT = len('{\n "": ')


def written_list(rows: Sequence[object]) -> Written:
    """`rows` written as indented() writes a list that is a value of its dict: for a dict
    value of indented(), which puts it in as it is."""
    text = _rows(rows)
    if text is None:
        text = json.dumps({"": rows}, ensure_ascii=False, indent=1)[_VALUE_AT:-2]
    return Written(text)


def indented(data: Mapping[str, object]) -> str:
    """`json.dumps(data, ensure_ascii=False, indent=1)`, a Written value (written_list)
    as the list it was written from."""
    if type(data) is not dict or not data:
        return json.dumps(_read_back(data), ensure_ascii=False, indent=1)
    parts = []
    for key, value in data.items():
        if type(value) is Written:
            written: str | None = value
        else:
            written = _rows(value) if type(value) is list else _plain(value)
        if not isinstance(key, str) or written is None:
            return json.dumps(_read_back(data), ensure_ascii=False, indent=1)
        parts.append(f"{encode_basestring(key)}: {written}")
    return "{\n " + ",\n ".join(parts) + "\n}"


def _read_back(data: object) -> object:
    """`data` with each Written value read back into its list, for json.dumps (which would
    write it as a string)."""
    if isinstance(data, Mapping):
        return {k: json.loads(v) if type(v) is Written else v for k, v in data.items()}
    return data
