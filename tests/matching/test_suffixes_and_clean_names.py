"""Generational suffixes as evidence of two people, names cleaned of invisible characters,
the duplicates screen's evidence and the bound on the work per typed name."""

import sys

import pytest

from matching import (
    Reason,
    clean_name,
    name_key,
    possible_duplicates,
    prepare_roster,
    suggest,
    suggest_prepared,
)
from matching.suggest import MAX_BLOCK, MAX_POOL, MAX_SAME, SHORTLIST

# Generational suffixes --------------------------------------------------------------------

SPELLINGS = {
    "sr": ["Sen.", "sen.", "(Sen.)", "(Sen)", "Sr", "Sr.", "(Sr.)", "[Sr]", "Senior", "(Senior)",
           "snr", "sr."],
    "jr": ["Jun.", "jun.", "(Jun.)", "(Jun)", "Jr", "Jr.", "(Jr.)", "[Jr]", "Junior", "(Junior)",
           "jnr", "jr."],
    "ii": ["II", "(II)"],
    "iii": ["III", "(III)"],
    "iv": ["IV", "(IV)"],
}  # fmt: skip
WRITTEN = [
    pytest.param(f"Hans Müller {spelling}", suffix, id=f"{suffix}-{spelling}")
    for suffix, spellings in SPELLINGS.items()
    for spelling in spellings
]


@pytest.mark.parametrize(("name", "suffix"), WRITTEN)
def test_every_spelling_of_a_generational_suffix_is_read_as_that_suffix(name, suffix):
    assert name_key(name).suffix == suffix
    assert name_key(name).given == ("hans",)
    assert name_key(name).surname == ("müller",)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Müller, Hans (Sen.)", id="comma-order"),
        pytest.param("Müller (Sen.), Hans", id="with-the-surname"),
        pytest.param("Müller, Hans sen.", id="german-lower-case"),
    ],
)
def test_a_suffix_is_read_wherever_a_director_writes_it(name):
    assert name_key(name) == name_key("Hans Müller Sr.")


@pytest.mark.parametrize(
    ("name", "key_words"),
    [
        pytest.param("Li Jun", ("li", "jun"), id="jun-without-full-stop-is-a-name"),
        pytest.param("Wang Xiao Jun", ("wang", "xiao", "jun"), id="chinese-given-name"),
        pytest.param("Antonio Senior", ("antonio", "senior"), id="senior-as-surname"),
        pytest.param("Junior Silva", ("junior", "silva"), id="junior-as-given-name"),
        pytest.param("Sen. Jan Bakker", ("sen", "jan", "bakker"), id="first-word-is-no-suffix"),
    ],
)
def test_words_that_only_look_like_a_suffix_stay_in_the_name(name, key_words):
    key = name_key(name)
    assert (*key.given, *key.surname) == key_words
    assert key.suffix == ""


# (typed, roster): the suffixes differ, so the two are never the same name.
DIFFERENT_SUFFIXES = [
    pytest.param("Hans Müller (Sen.)", "Hans Müller (Jun.)", id="brackets"),
    pytest.param("Hans Müller sen.", "Hans Müller jun.", id="german"),
    pytest.param("Jan de Vries sr.", "Jan de Vries jr.", id="dutch"),
    pytest.param("Hans Müller Senior", "Hans Müller Junior", id="words"),
    pytest.param("Hans Müller (Sen.)", "Hans Müller Jr.", id="mixed-spellings"),
    pytest.param("Henry Ford II", "Henry Ford III", id="numerals"),
    pytest.param("Henry Ford III", "Henry Ford IV", id="numerals-3-4"),
    pytest.param("Müller, Hans (Jun.)", "Hans Müller Sr", id="order-and-suffix"),
]


@pytest.mark.parametrize(("typed", "entry"), DIFFERENT_SUFFIXES)
def test_different_suffixes_are_never_preselected_nor_called_the_same_name(typed, entry):
    for one, other in [(typed, entry), (entry, typed)]:
        found = suggest(one, [other])
        assert not any(s.preselect for s in found)
        assert all(s.reason is Reason.SUFFIX for s in found)
        assert name_key(one) != name_key(other)


@pytest.mark.parametrize(
    ("typed", "entry"),
    [
        pytest.param("Hans Müller (Sen.)", "Hans Müller", id="suffix-typed"),
        pytest.param("Hans Müller", "Hans Müller jun.", id="suffix-on-the-roster"),
        pytest.param("Jan de Vries", "Jan de Vries (Jr.)", id="brackets-on-the-roster"),
    ],
)
def test_a_suffix_on_one_side_only_is_suggested_but_never_as_the_same_name(typed, entry):
    [found] = suggest(typed, [entry])
    assert (found.reason, found.preselect) == (Reason.SUFFIX, False)


@pytest.mark.parametrize(
    ("typed", "entry"),
    [
        pytest.param("Hans Müller (Sen.)", "Hans Müller Sr.", id="brackets-and-abbreviation"),
        pytest.param("Hans Müller sen.", "Müller, Hans (Senior)", id="german-and-word"),
        pytest.param("Jan de Vries jr.", "Jan de Vries Jun.", id="dutch-and-german"),
    ],
)
def test_one_suffix_in_two_spellings_is_still_the_same_name(typed, entry):
    [found] = suggest(typed, [entry])
    assert found.preselect


def test_father_and_son_on_the_roster_preselect_only_the_one_with_the_typed_suffix():
    roster = ["Hans Müller (Jun.)", "Hans Müller (Sen.)"]
    found = suggest("Hans Müller sen.", roster)
    assert [(roster[s.index], s.preselect) for s in found] == [
        ("Hans Müller (Sen.)", True),
        ("Hans Müller (Jun.)", False),
    ]


# Invisible characters and odd spaces ------------------------------------------------------

CLEAN = [
    pytest.param("Anna\u200b de Vries", "Anna de Vries", id="zero-width-space"),
    pytest.param("An\u200bna de Vries", "Anna de Vries", id="zero-width-space-in-a-word"),
    pytest.param("Anna\u200c de\u200d Vries", "Anna de Vries", id="zero-width-joiners"),
    pytest.param("\ufeffAnna de Vries", "Anna de Vries", id="byte-order-mark"),
    pytest.param("Anna de Vri\u00ades", "Anna de Vries", id="soft-hyphen"),
    pytest.param("\u200eAnna de Vries\u200f", "Anna de Vries", id="bidi-marks"),
    pytest.param("\u202aAnna de Vries\u202c", "Anna de Vries", id="bidi-embedding"),
    pytest.param("Anna\u2060de Vries", "Annade Vries", id="word-joiner-joins"),
    pytest.param("Anna\u00a0de\u00a0Vries", "Anna de Vries", id="no-break-space"),
    pytest.param("Anna\u2009de\u202fVries", "Anna de Vries", id="thin-spaces"),
    pytest.param("Anna\u3000de Vries", "Anna de Vries", id="ideographic-space"),
    pytest.param("Anna\u2003\u2002de Vries", "Anna de Vries", id="em-and-en-space"),
    pytest.param("  Anna   de\tVries \n", "Anna de Vries", id="runs-of-spaces-and-trim"),
    pytest.param("Anna\x00de\x1fVries", "Anna de Vries", id="control-characters"),
    pytest.param("Anna\u2028de Vries", "Anna de Vries", id="line-separator"),
    pytest.param("Ha\u3164ns Müller", "Hans Müller", id="hangul-filler"),
    pytest.param("Zoe\u0308 Go\u0308del", "Zoë Gödel", id="nfc"),
    pytest.param("Zoë Gödel", "Zoë Gödel", id="already-clean"),
    pytest.param("\u200b\u00a0", "", id="nothing-visible"),
]


@pytest.mark.parametrize(("written", "clean"), CLEAN)
def test_names_are_cleaned_of_what_a_page_would_not_show(written, clean):
    assert clean_name(written) == clean


def test_a_name_with_a_zero_width_space_is_the_same_name():
    assert name_key("An\u200bna de\u00a0Vries") == name_key("Anna de Vries")
    [found] = suggest("An\u200bna de Vries", ["Anna de Vries"])
    assert (found.reason, found.preselect) == (Reason.SAME_NAME, True)


# The duplicates screen uses the names screen's evidence -------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        pytest.param("Marco Rosi", "Marco Rossi", id="one-letter-in-a-short-word"),
        pytest.param("Tarik Hasan", "Tariq Hassan", id="a-letter-in-every-word"),
        pytest.param("Peter Baker", "Peter Bakker", id="a-letter-missing"),
    ],
)
def test_a_typo_the_names_screen_catches_is_a_possible_duplicate(one, other):
    assert suggest(one, [other])[0].reason is Reason.TYPO
    [pair] = possible_duplicates([one, other, "Magnus Carlsen"])
    assert (pair.i, pair.j, pair.reason) == (0, 1, Reason.TYPO)


def test_father_and_son_in_any_spelling_are_no_duplicates():
    assert possible_duplicates(["Hans Müller (Sen.)", "Hans Müller (Jun.)", "Hans Müller"]) == []


# Bounded work per typed name ----------------------------------------------------------------


def counting_explain(monkeypatch):
    module = sys.modules["matching.suggest"]
    calls = []
    explain = module.explain

    def counting(*args):
        calls.append(args)
        return explain(*args)

    monkeypatch.setattr(module, "explain", counting)
    return calls


@pytest.mark.parametrize(
    "roster",
    [
        pytest.param(["Jan Jansen"] * 10_000, id="one-name-10000-times"),
        pytest.param(
            [f"Jan Jansen {chr(97 + at % 26)}{chr(97 + at // 26 % 26)}" for at in range(10_000)],
            id="near-identical",
        ),
        pytest.param(
            [f"Jan Jans{chr(97 + at % 26)}n {chr(97 + at // 26 % 26)}" for at in range(10_000)],
            id="each-one-typo-away",
        ),
    ],
)
def test_one_typed_name_explains_a_bounded_number_of_roster_names(monkeypatch, roster):
    prepared = prepare_roster(roster)
    calls = counting_explain(monkeypatch)
    found = suggest_prepared("Jan Jansen", prepared)
    assert found
    assert len(calls) <= SHORTLIST + MAX_BLOCK + MAX_SAME
    assert not any(s.preselect for s in found)  # many players with that name: no preselect


def test_the_pool_of_one_typed_name_is_capped():
    prepared = prepare_roster([f"Jan Jansen {at}" for at in range(3 * MAX_POOL)])
    module = sys.modules["matching.suggest"]
    assert len(module._pool(prepared.profiles[0], prepared)) == MAX_POOL


def test_a_name_alone_among_many_near_namesakes_is_still_preselected_and_first():
    roster = [f"Jan Jansen {chr(97 + at % 26)}{chr(97 + at // 26 % 26)}" for at in range(5_000)]
    roster.append("Jan Janssen")
    found = suggest("Jan Janssen", roster)
    assert (roster[found[0].index], found[0].preselect) == ("Jan Janssen", True)
