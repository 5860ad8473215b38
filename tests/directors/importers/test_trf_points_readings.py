"""Byes that only a TRF's points column records, in any pattern over the rounds (issue 33):
restored when the rounds leave exactly one reading, else each player and round is named.

The expected reading is found by trying every way of giving each open round 0, ½ or 1 point,
not by the importer's own rule (directors/importers/trf_points.py)."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from clubs.results import Result
from directors.importers import ImportedEvent, parse_file
from directors.importers.trf_points import Fit, bye_reading

from .trf_lines import Cell, player

SCORES = {"1": 1.0, "=": 0.5, "0": 0.0}
OTHER = {"1": "0", "=": "=", "0": "1"}
OPEN_CELLS: dict[str, Cell] = {"blank": None, "not paired": (0, "-", "-"), "Z": (0, "-", "Z")}
BYES = {1: Result.BYE_HALF, 2: Result.BYE_FULL}

# Each round of the target player (Tia, starting rank 3): a game against Cal (rank 4) with
# Tia's result, or no game, written one of three ways, with a bye of 0, ½ or 1 (in half
# points) that only her points column counts.
game_round = st.tuples(st.just("game"), st.sampled_from(sorted(SCORES)), st.just(0))
open_round = st.tuples(st.just("open"), st.sampled_from(sorted(OPEN_CELLS)), st.integers(0, 2))
patterns = st.lists(st.one_of(game_round, open_round), min_size=1, max_size=5)


def event_for(pattern: list[tuple[str, str, int]], announced: bool) -> ImportedEvent:
    """Ann and Bob play every round, so every round is played; with `announced` a round
    after them holds only Bob's half-point bye (announced, never played)."""
    rounds = len(pattern)
    ann = [(2, "w" if r % 2 else "b", "1" if r % 2 else "0") for r in range(1, rounds + 1)]
    bob = [(1, "b" if r % 2 else "w", "0" if r % 2 else "1") for r in range(1, rounds + 1)]
    tia: list[Cell] = []
    cal: list[Cell] = []
    tia_points = cal_points = 0.0
    for kind, what, hidden in pattern:
        if kind == "game":
            tia.append((4, "w", what))
            cal.append((3, "b", OTHER[what]))
            tia_points += SCORES[what]
            cal_points += SCORES[OTHER[what]]
        else:
            tia.append(OPEN_CELLS[what])
            cal.append((0, "-", "-"))
            tia_points += hidden / 2
    bob_extra: list[Cell] = [(0, "-", "H")] if announced else []
    lines = [
        "012 Patterns",
        player(1, "Ann", *ann, points=f"{sum(c[2] == '1' for c in ann):.1f}"),
        player(
            2,
            "Bob",
            *bob,
            *bob_extra,
            points=f"{sum(c[2] == '1' for c in bob) + 0.5 * announced:.1f}",
        ),
        player(3, "Tia", *tia, points=f"{tia_points:.1f}"),
        player(4, "Cal", *cal, points=f"{cal_points:.1f}"),
    ]
    return parse_file(("\n".join(lines) + "\n").encode(), "trf")


def tia_byes(event: ImportedEvent) -> list[tuple[int, Result]]:
    return sorted((g.round, g.result) for g in event.games if g.white == 3 and g.black is None)


@settings(max_examples=300, database=None)
@given(patterns, st.booleans())
def test_bye_points_only_in_the_points_column_are_restored_iff_the_reading_is_unique(
    pattern, announced
):
    event = event_for(pattern, announced)
    opened = [
        (r, what, hidden) for r, (kind, what, hidden) in enumerate(pattern, 1) if kind == "open"
    ]
    written_zero = [(r, Result.BYE_ZERO) for r, what, _hidden in opened if what == "Z"]
    target = sum(hidden for _r, _what, hidden in opened)
    ways = [way for way in itertools.product((0, 1, 2), repeat=len(opened)) if sum(way) == target]
    notes = [w for w in event.warnings if "for player 3 (Tia)" in w]
    # Nobody else's points column disagrees, and nothing is stored for the announced round.
    assert all("for player 3 (Tia)" in w for w in event.warnings if "points column" in w)
    assert event.rounds == len(pattern)
    if target == 0:
        assert notes == []
        assert tia_byes(event) == written_zero
    elif len(ways) == 1:
        (way,) = ways
        expected = [
            (r, BYES[halves]) if halves else (r, Result.BYE_ZERO)
            for (r, what, _hidden), halves in zip(opened, way, strict=True)
            if halves or what == "Z"
        ]
        assert tia_byes(event) == expected
        # The only reading is the pattern itself: every hidden bye came back, none other.
        assert [h for _r, _w, h in opened] == list(way)
        (note,) = notes
        assert " read as " in note
    else:
        assert tia_byes(event) == written_zero
        (note,) = notes
        named = re.search(r"in rounds ([\d, and]+); the round results were used\.$", note)
        assert named is not None, note
        assert [int(n) for n in re.findall(r"\d+", named.group(1))] == [r for r, _w, _h in opened]


@given(st.integers(-4, 12), st.integers(0, 5))
def test_bye_reading_is_one_exactly_when_a_single_way_adds_up(halves, rounds):
    ways = [way for way in itertools.product((0, 1, 2), repeat=rounds) if sum(way) == halves]
    reading = bye_reading(halves / 2, rounds)
    if not ways:
        assert reading.fit is Fit.NONE
    elif len(ways) == 1:
        assert reading.fit is Fit.ONE
        assert reading.halves == ways[0]
    else:
        assert reading.fit is Fit.SEVERAL


def test_a_difference_no_bye_can_make_is_no_reading():
    assert bye_reading(0.3, 1).fit is Fit.NONE
    assert bye_reading(-0.5, 2).fit is Fit.NONE
