"""The roster's possible duplicates: the pairs a comparison of every pair by the rules would
show, found by shared keys; and the bound on the work where a crowd shares them."""

import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from matching import Reason, possible_duplicates, prepare_roster
from matching.duplicate_keys import MAX_PARTNERS, deletions, ends
from matching.rules import explain

FIRST = [
    "Emma", "Eva", "Anna", "Sanne", "Petra", "Jan", "Pieter", "Robert", "William", "Johannes",
    "Alexander", "Mehmet", "Tarik", "Jürgen", "José", "Łukasz", "Ivan", "Olga", "Marco", "Tim",
]  # fmt: skip
SURNAMES = [
    "de Vries", "van der Berg", "van den Berg", "Jansen", "Janssen", "Hoffmann", "Hofmann",
    "Müller", "Martin", "Martínez", "Rossi", "Hassan", "Smith", "Schröder", "O'Brien",
    "ter Horst", "Wiśniewski", "Ivanov", "Bakker", "Kowalski",
]  # fmt: skip
MIDDLE = ["Anne", "Maria", "Jan", "Peter"]
NICKNAMES = {"Robert": "Bob", "William": "Bill", "Johannes": "Hans", "Alexander": "Sasha"}
ACCENTS = str.maketrans("üöéíłśń", "uoeilsn")


def respelt(name: str, change: str, at: int) -> str:
    """A name as another file might write it: `at` picks the letter a typo touches."""
    words = name.split()
    spot = 1 + at % max(1, len(name) - 2)
    if change == "swap":
        return name[:spot] + name[spot + 1 : spot + 2] + name[spot] + name[spot + 2 :]
    if change == "drop":
        return name[:spot] + name[spot + 1 :]
    if change == "wrong":
        return name[:spot] + "xq"[at % 2] + name[spot + 1 :]
    if change == "order":
        return f"{words[-1]}, {' '.join(words[:-1])}"
    if change == "initial":
        return f"{words[0][0]}. {' '.join(words[1:])}"
    if change == "nickname":
        return " ".join(NICKNAMES.get(word, word) for word in words)
    if change == "accents":
        return name.translate(ACCENTS).replace("ü", "ue")
    if change == "particles":
        return " ".join(word for word in words if word not in {"de", "van", "der", "den", "ter"})
    if change == "middle":
        return f"{words[0]} {MIDDLE[at % len(MIDDLE)]} {' '.join(words[1:])}"
    return name


CHANGES = ["swap", "drop", "wrong", "order", "initial", "nickname", "accents", "particles"]
CHANGES += ["middle"]


@st.composite
def rosters(draw: st.DrawFn) -> list[str]:
    """50 to 400 different names of a small world (so names share words, as a club's do),
    a quarter of them an earlier name as another file spells it."""
    size = draw(st.integers(50, 400))
    names: dict[str, None] = {}
    for _ in range(4 * size):  # a roster keeps a name once; a redrawn one is skipped
        if len(names) == size:
            break
        first = draw(st.sampled_from(FIRST))
        last = draw(st.sampled_from(SURNAMES))
        middle = draw(st.sampled_from(["", "", "", *MIDDLE]))
        name = f"{first} {middle} {last}".replace("  ", " ")
        if names and draw(st.integers(0, 3)) == 0:
            earlier = draw(st.sampled_from(sorted(names)))
            name = respelt(earlier, draw(st.sampled_from(CHANGES)), draw(st.integers(0, 40)))
        names[name] = None
    return list(names)


def all_pairs(names: list[str]) -> dict[tuple[int, int], tuple[float, Reason]]:
    """The reference: every pair the rules name a reason for, at 70 points or more, not a
    Jr./Sr. difference nor only alike as text."""
    roster = prepare_roster(names)
    found = {}
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            if not (roster.profiles[i].units and roster.profiles[j].units):
                continue
            verdict = explain(roster.name(i), roster.name(j))
            shown = verdict.reason not in {Reason.SIMILAR, Reason.SUFFIX}
            if shown and verdict.score >= 70:
                found[(i, j)] = (verdict.score, verdict.reason)
    return found


@pytest.mark.heavy
@settings(max_examples=12)
@given(rosters())
def test_the_pairs_are_those_a_comparison_of_every_pair_shows(names):
    pairs = possible_duplicates(names, limit=len(names) ** 2)
    assert {(p.i, p.j): (p.score, p.reason) for p in pairs} == all_pairs(names)
    assert pairs == sorted(pairs, key=lambda pair: (-pair.score, pair.i, pair.j))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        pytest.param("Mehmet Hoffmann", "Mehmet oHffmann", id="two-letters-swapped"),
        pytest.param("Petra Anne Martin", "Sanne Martin", id="middle-name-and-a-typo"),
        pytest.param("Anna Marie Smith", "Annamarie Smith", id="two-words-run-together"),
        pytest.param("Tarik Hasan", "Tariq Hassan", id="a-typo-in-every-word"),
    ],
)
def test_pairs_the_names_screen_search_missed_are_found(one, other):
    crowd = [f"{first} {last}" for first in FIRST for last in SURNAMES]
    names = [*crowd, one, other]
    pairs = {(p.i, p.j) for p in possible_duplicates(names, limit=10_000)}
    assert (len(crowd), len(crowd) + 1) in pairs
    assert pairs == set(all_pairs(names))


@settings(max_examples=300)
@given(st.text("abcde", min_size=12, max_size=16), st.data())
def test_names_two_typos_apart_share_a_form_of_one_end(letters, data):
    """What the whole-name keys rely on: two spellings of twelve letters or more at most two
    typos apart share a form less a letter of their first six letters or of their last."""
    other = letters
    for _ in range(2):
        at = data.draw(st.integers(0, len(other) - 2))
        change = data.draw(st.sampled_from(["swap", "drop", "add", "wrong"]))
        letter = data.draw(st.sampled_from("abcde"))
        other = {
            "swap": other[:at] + other[at + 1] + other[at] + other[at + 2 :],
            "drop": other[:at] + other[at + 1 :],
            "add": other[:at] + letter + other[at:],
            "wrong": other[:at] + letter + other[at + 1 :],
        }[change]
    if len(other) < 12 or OSA.distance(letters, other) > 2:
        return
    assert any(
        deletions(ends(letters)[side], 1) & deletions(ends(other)[side], 1) for side in (0, 1)
    )


@pytest.mark.heavy
@pytest.mark.parametrize(
    "crowd",
    [
        pytest.param(["Jan Jansen"] * 1_500, id="one-name-1500-times"),
        pytest.param(
            [f"Jan Jans{chr(97 + at % 26)}n {chr(97 + at // 26 % 26)}" for at in range(1_500)],
            id="1500-names-a-typo-apart",
        ),
        pytest.param(
            [f"J. {chr(97 + at % 26)}{chr(97 + at // 26 % 26)} Smith" for at in range(750)]
            + [f"Jo{chr(97 + at % 26)}{chr(97 + at // 26 % 26)} Smith" for at in range(750)],
            id="750-initials-and-750-names",
        ),
    ],
)
def test_a_crowd_sharing_keys_costs_a_bounded_number_of_pairs_per_name(monkeypatch, crowd):
    duplicates = sys.modules["matching.duplicates"]
    calls = 0
    counted = duplicates.explain

    def counting(*args):
        nonlocal calls
        calls += 1
        return counted(*args)

    monkeypatch.setattr(duplicates, "explain", counting)
    pairs = possible_duplicates(crowd)
    # Pair by pair would be 1,124,250; each name takes at most 32 partners, as the names
    # screen explains at most 32 roster names a typed name.
    assert MAX_PARTNERS <= 32
    assert calls <= len(crowd) * 32
    assert len(pairs) == 200
    assert pairs == sorted(pairs, key=lambda pair: (-pair.score, pair.i, pair.j))
