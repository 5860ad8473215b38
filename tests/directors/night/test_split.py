"""One check-in split into sections (directors/night/split.py), pure: by rating, by age
group, by choice; the sections' names."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from directors.night.split import (
    BY_AGE,
    BY_CHOICE,
    BY_RATING,
    ONE,
    CheckedIn,
    SplitError,
    default_names,
    section_names,
    split,
)

FIELD = [
    CheckedIn(1, 1850.0, junior=False),
    CheckedIn(2, 1599.5, junior=True),
    CheckedIn(3, 1600.0, junior=False),
    CheckedIn(4, None, junior=True),  # no rated game yet
    CheckedIn(5, 1200.0, junior=False),
]


def test_by_rating_the_strongest_section_comes_first_and_a_threshold_belongs_above():
    assert split(FIELD, BY_RATING, thresholds=[1600], sections=0) == [[1, 3], [2, 4, 5]]


def test_by_rating_with_two_thresholds_makes_three_sections_and_no_rating_is_the_lowest():
    assert split(FIELD, BY_RATING, thresholds=[1300, 1800], sections=0) == [[1], [2, 3], [4, 5]]


def test_by_age_adults_then_juniors_from_the_rosters_junior_flag():
    assert split(FIELD, BY_AGE, thresholds=[], sections=0) == [[1, 3, 5], [2, 4]]


def test_by_choice_everyone_starts_in_the_first_section():
    assert split(FIELD, BY_CHOICE, thresholds=[], sections=3) == [[1, 2, 3, 4, 5], [], []]


def test_one_section_is_everyone_as_before():
    assert split(FIELD, ONE, thresholds=[], sections=0) == [[1, 2, 3, 4, 5]]


@pytest.mark.parametrize(
    ("how", "thresholds", "sections", "reason"),
    [
        (BY_RATING, [], 0, "thresholds"),
        (BY_RATING, [1600, 1600], 0, "order"),
        (BY_RATING, [1800, 1600], 0, "order"),
        (BY_CHOICE, [], 1, "sections"),
        (BY_CHOICE, [], 7, "sections"),
        ("forged", [], 2, "how"),
    ],
)
def test_a_split_that_cannot_be_made_is_refused_with_its_reason(how, thresholds, sections, reason):
    with pytest.raises(SplitError) as refused:
        split(FIELD, how, thresholds=thresholds, sections=sections)
    assert refused.value.reason == reason


@given(
    st.lists(st.tuples(st.one_of(st.none(), st.integers(800, 2600)), st.booleans()), max_size=30),
    st.lists(st.integers(900, 2500), min_size=1, max_size=4, unique=True),
)
def test_every_checked_in_player_is_in_exactly_one_section_once(players, thresholds):
    field = [CheckedIn(n, rating, junior) for n, (rating, junior) in enumerate(players)]
    for how, cut in ((BY_RATING, sorted(thresholds)), (BY_AGE, []), (BY_CHOICE, [])):
        sections = split(field, how, thresholds=cut, sections=2)
        everyone = [player for section in sections for player in section]
        assert sorted(everyone) == list(range(len(field)))


def test_names_typed_are_used_highest_first_else_the_defaults():
    assert section_names([" Open ", "Minor", ""], 2, ["A", "B"]) == ["Open", "Minor"]
    assert section_names([], 3, default_names(BY_RATING, 3, "Adults", "Juniors")) == [
        "A",
        "B",
        "C",
    ]
    assert default_names(BY_AGE, 2, "Adults", "Juniors") == ["Adults", "Juniors"]


@pytest.mark.parametrize(
    ("typed", "reason"),
    [(["Open"], "names"), (["Open", "open"], "twice"), (["Open", "x" * 41], "long")],
)
def test_names_that_cannot_tell_the_sections_apart_are_refused(typed, reason):
    with pytest.raises(SplitError) as refused:
        section_names(typed, 2, ["A", "B"])
    assert refused.value.reason == reason
