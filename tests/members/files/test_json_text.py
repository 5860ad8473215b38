"""ladder.json written row by row is json.dumps(…, ensure_ascii=False, indent=1) byte for byte
(issue 34): the same file, written in a fraction of the time. Pure: no database."""

import json
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from members.files.json_text import indented, written_list

# Text with what JSON escapes: quotes, backslashes, control characters, line separators,
# and what it does not (accents, Cyrillic, emoji, lone surrogates' neighbours).
TEXT = st.text(st.characters(codec="utf-8") | st.sampled_from('"\\\n\t\x00\x1f\u2028\u2029é Ж 😀'))
PLAIN = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**20), max_value=10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | TEXT
)
ROW = st.dictionaries(TEXT, PLAIN, max_size=8)
ANYTHING = st.recursive(PLAIN, lambda inner: st.lists(inner) | st.dictionaries(TEXT, inner))
DATA = st.dictionaries(TEXT, PLAIN | st.lists(ROW, max_size=6) | ANYTHING, max_size=8)


def reference(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


@pytest.mark.heavy
@settings(max_examples=400)
@given(DATA)
@example({})
@example({"players": []})
@example({"players": [{}]})
@example({"x": [1, {"a": 1}]})  # a list that is not of rows: the standard encoder writes it
@example({"x": math.nan, "y": [{"z": -math.inf}]})
@example({"n": 10**30, "b": [{"t": True, "f": False, "none": None, "f1": 1e-7, "f2": 1e16}]})
def test_the_text_is_json_dumps_with_indent_one(data):
    assert indented(data) == reference(data)


@pytest.mark.heavy
@settings(max_examples=300)
@given(DATA)
@example({"players": [{"a": 1}], 1: "a key json.dumps turns into text"})
@example({"players": [1, [2, {"a": {"b": []}}]], "x": 1})  # not rows: the standard encoder's
@example({"players": [{"a": 1}], "bad": math.nan, "k": (1, 2)})  # a tuple: the fallback
def test_a_list_written_ahead_is_the_list_written_in_place(data):
    """ladder.json's players are written once per kept roster (written_list) and put in as
    they are: the same file as the list written with the rest."""
    ahead = {k: written_list(v) if type(v) is list else v for k, v in data.items()}
    assert indented(ahead) == reference(data)


def test_a_ladder_as_the_page_writes_it():
    data = {
        "club": 'The "Rooks" \\ Knights',
        "ladder": "main",
        "ladder_is_current": True,
        "active_only": False,
        "on": "2026-03-01",
        "players": [
            {
                "rank": 1,
                "name": "Jürgen Müller",
                "rating": 1612,
                "rated_games": 40,
                "provisional": False,
                "last_played": "2026-02-27",
                "last_change": -3.4,
            },
            {
                "rank": 2,
                "name": "J. B.",
                "rating": None,
                "rated_games": 1,
                "provisional": True,
                "last_played": None,
                "last_change": None,
            },
        ],
    }
    assert indented(data) == reference(data)
    assert json.loads(indented(data)) == data


def test_what_json_cannot_write_fails_as_json_dumps_does():
    for bad in ({"x": object()}, {"x": [{"y": {1, 2}}]}):
        try:
            reference(bad)
        except TypeError as expected:
            message = str(expected)
        try:
            indented(bad)
        except TypeError as raised:
            assert str(raised) == message
        else:
            raise AssertionError("no TypeError")
