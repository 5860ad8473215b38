import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matching import (
    DuplicatePair,
    Reason,
    Suggestion,
    name_key,
    possible_duplicates,
    prepare_roster,
    suggest,
    suggest_prepared,
)

CLUB = [
    "Emma de Vries",
    "Eva de Vries",
    "John Smith",
    "John Smith Jr.",
    "John Michael Smith",
    "Jane Smith",
    "Robert Smith",
    "Hans Müller",
    "Katharina Müller",
    "Alexander Ivanov",
    "Amit Patel",
    "Jan van den Berg",
    "Magnus Carlsen",
    "Sanne Visser",
    "Kardashevskiy Evgeny",
]


def top(typed, roster=CLUB):
    found = suggest(typed, roster)
    assert found, f"no suggestion for {typed!r}"
    return roster[found[0].index], found[0]


# One row per reason code: (typed, roster name expected first, reason).
REASONS = [
    pytest.param("magnus CARLSEN", "Magnus Carlsen", Reason.SAME_NAME, id="same-name-case"),
    pytest.param("Magnus  Carlsen.", "Magnus Carlsen", Reason.SAME_NAME, id="same-name-spacing"),
    pytest.param("GM Magnus Carlsen", "Magnus Carlsen", Reason.SAME_NAME, id="same-name-title"),
    pytest.param("Hans Muller", "Hans Müller", Reason.ACCENTS, id="accents-dropped"),
    pytest.param("Hans Mueller", "Hans Müller", Reason.ACCENTS, id="accents-as-ue"),
    pytest.param("Александр Иванов", "Alexander Ivanov", Reason.ACCENTS, id="cyrillic"),
    pytest.param("अमित पटेल", "Amit Patel", Reason.ACCENTS, id="devanagari"),
    pytest.param("Smith, John", "John Smith", Reason.SWAPPED_ORDER, id="swapped-comma"),
    pytest.param(
        "Evgeny Kardashevskiy", "Kardashevskiy Evgeny", Reason.SWAPPED_ORDER, id="swapped"
    ),
    pytest.param("Vries, Emma de", "Emma de Vries", Reason.PARTICLES, id="particle-written-last"),
    pytest.param("Jan Berg", "Jan van den Berg", Reason.PARTICLES, id="particle-left-out"),
    pytest.param("Jan van der Berg", "Jan van den Berg", Reason.PARTICLES, id="other-particle"),
    pytest.param("M. Carlsen", "Magnus Carlsen", Reason.INITIAL, id="initial"),
    pytest.param("Carlsen, M.", "Magnus Carlsen", Reason.INITIAL, id="initial-last-first"),
    pytest.param("Sanne J. Visser", "Sanne Visser", Reason.MIDDLE_NAME, id="middle-initial-extra"),
    pytest.param("Amit Kumar Patel", "Amit Patel", Reason.MIDDLE_NAME, id="middle-name-extra"),
    pytest.param("Bob Smith", "Robert Smith", Reason.NICKNAME, id="nickname-bob"),
    pytest.param("Katja Müller", "Katharina Müller", Reason.NICKNAME, id="nickname-katja"),
    pytest.param("Sasha Ivanov", "Alexander Ivanov", Reason.NICKNAME, id="nickname-sasha"),
    pytest.param("Magnus Carlsne", "Magnus Carlsen", Reason.TYPO, id="typo-swapped-letters"),
    pytest.param("Sane Visser", "Sanne Visser", Reason.TYPO, id="typo-missing-letter"),
    pytest.param("Magnus Karlsen", "Magnus Carlsen", Reason.TYPO, id="typo-wrong-letter"),
    pytest.param("Robert Smith Jr.", "Robert Smith", Reason.SUFFIX, id="suffix-added"),
    pytest.param("Magnus Carlberg", "Magnus Carlsen", Reason.SIMILAR, id="similar"),
]


@pytest.mark.parametrize(("typed", "expected", "reason"), REASONS)
def test_each_suggestion_says_why(typed, expected, reason):
    name, suggestion = top(typed)
    assert (name, suggestion.reason) == (expected, reason)


def test_the_reason_table_covers_every_reason_code():
    assert {param.values[2] for param in REASONS} == set(Reason)


# (typed, the one roster name preselected, or None)
PRESELECT = [
    pytest.param("MAGNUS CARLSEN", "Magnus Carlsen", id="case"),
    pytest.param("Carlsen, Magnus", "Magnus Carlsen", id="order"),
    pytest.param("Hans Muller", "Hans Müller", id="accent-dropped"),
    pytest.param("Hans Mueller", "Hans Müller", id="umlaut-as-ue"),
    pytest.param("Vries, Emma de", "Emma de Vries", id="particle-last"),
    pytest.param("Jan Vandenberg", "Jan van den Berg", id="particles-run-together"),
    pytest.param("GM Magnus Carlsen (NOR)", "Magnus Carlsen", id="title-and-note"),
    pytest.param("Иван Петров", None, id="not-on-the-roster"),
    pytest.param("E. de Vries", None, id="initial-of-two-sisters"),
    pytest.param("M. Carlsen", None, id="initial-of-one"),
    pytest.param("Magnus Carlsne", None, id="typo"),
    pytest.param("Bob Smith", None, id="nickname"),
    pytest.param("Sanne J. Visser", None, id="middle-name"),
    pytest.param("Jan Berg", None, id="particle-left-out"),
    pytest.param("Smith Jr., John", "John Smith Jr.", id="junior-to-junior"),
    pytest.param("Robert Smith Jr.", None, id="junior-is-not-father"),
    pytest.param("Dmitriy Ivanov", None, id="transliteration-variant"),
]


@pytest.mark.parametrize(("typed", "expected"), PRESELECT)
def test_only_the_same_name_after_normalisation_is_preselected(typed, expected):
    found = suggest(typed, CLUB)
    chosen = [CLUB[suggestion.index] for suggestion in found if suggestion.preselect]
    assert chosen == ([expected] if expected else [])


def test_an_initial_shared_by_two_sisters_suggests_both_and_preselects_neither():
    found = suggest("E. de Vries", CLUB)
    assert {CLUB[s.index] for s in found[:2]} == {"Emma de Vries", "Eva de Vries"}
    assert found[0].score == found[1].score
    assert not any(s.preselect for s in found)


def test_two_roster_names_that_normalise_alike_are_both_suggested_and_neither_preselected():
    roster = ["Hans Müller", "Hans Mueller", "Hans Muller"]
    found = suggest("Hans Müller", roster)
    assert {roster[s.index] for s in found} == set(roster)
    assert not any(s.preselect for s in found)


def test_the_son_ranks_below_the_father_for_a_plain_name_and_is_not_preselected():
    roster = ["John Smith Jr.", "John Smith"]
    found = suggest("John Smith", roster)
    assert [roster[s.index] for s in found] == ["John Smith", "John Smith Jr."]
    assert [s.preselect for s in found] == [True, False]
    assert found[1].reason is Reason.SUFFIX
    assert found[1].score < found[0].score


def test_junior_and_senior_are_further_apart_than_junior_and_none():
    roster = ["Robert Brown Sr.", "Robert Brown"]
    found = suggest("Robert Brown Jr.", roster)
    assert [roster[s.index] for s in found] == ["Robert Brown", "Robert Brown Sr."]
    assert all(s.reason is Reason.SUFFIX and not s.preselect for s in found)


def test_suggestions_are_best_first_and_at_most_the_limit():
    found = suggest("J. Smith", CLUB, limit=3)
    assert len(found) == 3
    assert [s.score for s in found] == sorted((s.score for s in found), reverse=True)
    assert suggest("J. Smith", CLUB, limit=0) == []


def test_a_suggestion_is_a_frozen_value():
    suggestion = suggest("Magnus Carlsen", CLUB)[0]
    assert suggestion == Suggestion(CLUB.index("Magnus Carlsen"), 100, Reason.SAME_NAME, True)
    with pytest.raises(AttributeError):
        suggestion.score = 0


def test_nothing_is_suggested_for_an_empty_name_or_an_empty_roster():
    assert suggest("", CLUB) == []
    assert suggest("?!", CLUB) == []
    assert suggest("GM", []) == []


def test_a_name_with_nothing_in_common_is_not_suggested():
    assert suggest("Xu Wenjun", CLUB) == []


def test_suggest_is_prepare_then_suggest_prepared():
    prepared = prepare_roster(CLUB)
    for typed in ["E. de Vries", "Bob Smith", "Hans Mueller", "Nobody Here"]:
        assert suggest_prepared(typed, prepared) == suggest(typed, CLUB)


def test_stored_keys_give_the_same_suggestions_and_stale_keys_are_recomputed():
    keys = [name_key(name) for name in CLUB]
    keys[0] = "0:emma|de vries|"  # a key of an older version
    prepared = prepare_roster(CLUB, keys=keys)
    for typed in ["Vries, Emma de", "E. de Vries", "Bob Smith"]:
        assert suggest_prepared(typed, prepared) == suggest(typed, CLUB)


def test_a_player_with_aliases_is_suggested_once_and_counts_once_for_preselect():
    roster = ["Hans Müller", "Hans Mueller", "Katharina Müller"]
    prepared = prepare_roster(roster, owners=["hans", "hans", "katja"])
    found = suggest_prepared("Hans Muller", prepared)
    assert [(roster[s.index], s.preselect) for s in found[:1]] == [("Hans Müller", True)]
    assert [prepared.owners[s.index] for s in found].count("hans") == 1


def test_prepare_refuses_keys_or_owners_that_do_not_line_up():
    with pytest.raises(ValueError, match="keys"):
        prepare_roster(CLUB, keys=["1:a|b|"])
    with pytest.raises(ValueError, match="owners"):
        prepare_roster(CLUB, owners=[1])


@pytest.mark.heavy
@settings(max_examples=300, deadline=None)
@given(
    typed=st.one_of(
        st.text(),
        st.text(alphabet=st.characters(categories=["P", "S", "Z"])),
        st.just(""),
        st.just("a" * 10_000),
        st.just("Emma de Vries " * 800),
        st.sampled_from(CLUB),
    ),
    roster=st.lists(st.one_of(st.text(max_size=40), st.sampled_from(CLUB)), max_size=12),
    limit=st.integers(min_value=-1, max_value=8),
)
def test_suggest_never_fails_and_keeps_its_promises(typed, roster, limit):
    found = suggest(typed, roster, limit)
    assert len(found) <= max(limit, 0)
    assert all(0 <= s.score <= 100 for s in found)
    assert all(0 <= s.index < len(roster) for s in found)
    assert len({s.index for s in found}) == len(found)
    assert sum(s.preselect for s in found) <= 1
    assert [s.score for s in found] == sorted((s.score for s in found), reverse=True)


# Possible duplicates --------------------------------------------------------------

ROSTER_WITH_DUPLICATES = [
    "Emma de Vries",  # 0
    "Eva de Vries",  # 1
    "E. de Vries",  # 2
    "Hans Müller",  # 3
    "Hans Mueller",  # 4
    "John Smith",  # 5
    "John Smith Jr.",  # 6
    "Robert Smith",  # 7
    "Bob Smith",  # 8
    "Magnus Carlsen",  # 9
]


def test_possible_duplicates_are_pairs_that_may_be_one_person_best_first():
    pairs = possible_duplicates(ROSTER_WITH_DUPLICATES)
    found = {(pair.i, pair.j): pair.reason for pair in pairs}
    assert found == {
        (3, 4): Reason.ACCENTS,
        (0, 2): Reason.INITIAL,
        (1, 2): Reason.INITIAL,
        (7, 8): Reason.NICKNAME,
    }
    assert pairs[0] == DuplicatePair(3, 4, 98, Reason.ACCENTS)
    assert [pair.score for pair in pairs] == sorted((pair.score for pair in pairs), reverse=True)


def test_possible_duplicates_leave_out_sisters_and_father_and_son():
    pairs = possible_duplicates(["Emma de Vries", "Eva de Vries", "John Smith", "John Smith Jr."])
    assert pairs == []


def test_possible_duplicates_are_bounded():
    assert len(possible_duplicates(ROSTER_WITH_DUPLICATES, limit=2)) == 2


def test_possible_duplicates_compare_a_large_roster_by_blocks_not_pair_by_pair(monkeypatch):
    duplicates = sys.modules["matching.duplicates"]
    calls = 0
    explain = duplicates.explain

    def counting(*args):
        nonlocal calls
        calls += 1
        return explain(*args)

    monkeypatch.setattr(duplicates, "explain", counting)
    firsts = ["Anna", "Bram", "Daan", "Emma", "Fleur", "Jan", "Lotte", "Noor", "Sem", "Tess"]
    lasts = ["Bakker", "de Jong", "Jansen", "Smit", "Visser", "Meijer", "de Boer", "Mulder"]
    names = [
        f"{first} {middle} {last}" for first in firsts for last in lasts for middle in "ABCDEF"
    ]
    possible_duplicates(names)
    assert len(names) == 480
    assert calls < len(names) * 20  # pair by pair would be 114,960


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(), st.sampled_from(CLUB)))
def test_a_name_alone_on_the_roster_is_preselected_and_never_when_entered_twice(name):
    key = name_key(name)
    alone = suggest(name, [name])
    if key.given or key.surname:
        assert alone[0] == Suggestion(0, 100, Reason.SAME_NAME, True)
    else:
        assert alone == []
    assert not any(suggestion.preselect for suggestion in suggest(name, [name, name]))
