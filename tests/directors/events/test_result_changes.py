"""What a results save changed, board by board (the audit line of a grid correction): pure."""

from __future__ import annotations

import pytest

from directors.events.result_changes import ResultChange, StoredGame, result_changes


def g(round_no, white, black, result):
    return StoredGame(round_no, white, black, result)


BEFORE = [g(1, 1, 2, "1-0"), g(1, 3, 4, "0-1"), g(2, 1, 3, "1/2"), g(2, 2, None, "bye½")]


@pytest.mark.parametrize(
    ("after", "changed", "added", "removed"),
    [
        (BEFORE, [], 0, 0),
        (
            [g(1, 1, 2, "1-0"), g(1, 3, 4, "1/2"), *BEFORE[2:]],
            [ResultChange(1, 2, 3, 4, "0-1", "1/2")],
            0,
            0,
        ),
        # The board is the game's place in its round after the save.
        (
            [g(1, 3, 4, "1-0"), g(1, 1, 2, "1-0"), *BEFORE[2:]],
            [ResultChange(1, 1, 3, 4, "0-1", "1-0")],
            0,
            0,
        ),
        # The same two players with the colours swapped are another game.
        ([g(1, 2, 1, "0-1"), *BEFORE[1:]], [], 1, 1),
        # A bye changed to a full point.
        (
            [*BEFORE[:3], g(2, 2, None, "bye1")],
            [ResultChange(2, 2, 2, None, "bye½", "bye1")],
            0,
            0,
        ),
        ([*BEFORE, g(3, 1, 4, "1-0")], [], 1, 0),
        (BEFORE[1:], [], 0, 1),
        ([], [], 0, 4),
    ],
    ids=[
        "nothing",
        "one result",
        "rows reordered",
        "colours swapped",
        "bye",
        "a game added",
        "a game taken away",
        "everything taken away",
    ],
)
def test_result_changes_names_each_board_whose_result_changed(after, changed, added, removed):
    found = result_changes(BEFORE, after)
    assert list(found.changed) == changed
    assert (found.added, found.removed) == (added, removed)


def test_a_pair_met_twice_in_a_round_is_matched_in_order():
    before = [g(1, 1, 2, "1-0"), g(1, 1, 2, "0-1")]
    found = result_changes(before, [g(1, 1, 2, "1-0"), g(1, 1, 2, "1/2")])
    assert list(found.changed) == [ResultChange(1, 2, 1, 2, "0-1", "1/2")]
