"""Which names of a roster file are close to roster players, and reading the director's
answers (directors/roster/close_names.py: pure, no database)."""

from __future__ import annotations

import pytest

from directors.roster.close_names import (
    NEW_PERSON,
    ChoiceRefused,
    ChosenTwice,
    CloseCandidate,
    close_candidates,
    folded,
    folded_owners,
    read_choices,
)
from matching import Reason, prepare_roster

# Player id -> roster name; Robert Brown is also known by the alias "Bobby Brown".
PLAYERS = {
    1: "Zoë van Dijk",
    2: "Ann Archer",
    3: "Hans Müller",
    4: "Robert Brown",
    5: "Antonín Dvořák",
    6: "Emma de Vries",
}
ALIASES = [(4, "Bobby Brown")]


def roster(players=PLAYERS, aliases=ALIASES):
    rows = [*players.items(), *aliases]
    owners = [pk for pk, _name in rows]
    return prepare_roster([name for _pk, name in rows], owners=owners), owners


def candidates(typed, players=PLAYERS, aliases=ALIASES, **options):
    prepared, owners = roster(players, aliases)
    same = folded_owners(prepared, owners)
    return close_candidates(typed, prepared, owners, players, same_folded=same, **options)


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("Zoe van Dijk", "zoe van dijk"),
        ("ZOË  VAN DIJK", "zoe van dijk"),
        ("Antonín Dvořák", "antonin dvorak"),
        ("hans müller", "hans muller"),
    ],
)
def test_folding_drops_capitals_accents_and_extra_spaces(typed, expected):
    assert folded(typed) == expected


@pytest.mark.parametrize(
    ("typed", "player_id", "same_name"),
    [
        ("Zoe van Dijk", 1, True),  # the QA walk's case: an accent left out
        ("ANN ARCHER", 2, True),  # capitals
        ("ann archer", 2, True),
        ("Hans Muller", 3, True),
        ("Antonin Dvorak", 5, True),
        ("Hans Mueller", 3, False),  # a spelling of ü, not the same letters
        ("Bob Brown", 4, False),  # a nickname
        ("Bobby Brown", 4, True),  # an old spelling kept as an alias
        ("Emma Vries", 6, False),  # a particle left out
        ("Ann Archre", 2, False),  # a typo
    ],
)
def test_a_name_close_to_a_roster_player_offers_that_player_first(typed, player_id, same_name):
    found = candidates(typed)
    assert found[0].player_id == player_id
    assert found[0].name == PLAYERS[player_id]
    assert found[0].same_name is same_name


def test_an_alias_that_matched_is_named_beside_the_player():
    found = candidates("Bobby Brown")[0]
    assert (found.name, found.matched) == ("Robert Brown", "Bobby Brown")


def test_a_name_close_to_nobody_has_no_candidates():
    assert candidates("Xavier Quintero") == ()


def test_only_alike_as_text_is_a_weak_candidate():
    found = candidates("Milan Kandic", players={7: "Mila Hendriks"}, aliases=[])
    assert [(c.player_id, c.reason, c.weak) for c in found] == [(7, Reason.SIMILAR, True)]


def test_every_player_the_same_but_for_accents_and_capitals_is_offered_whatever_the_limit():
    players = {1: "Zoë van Dijk", 2: "ZOE VAN DIJK", 3: "Zoe van Dijke", 4: "Zoé van Dijk"}
    found = candidates("Zoe van Dijk", players=players, aliases=[], limit=1)
    assert {c.player_id for c in found if c.same_name} == {1, 2, 4}
    assert all(c.same_name for c in found[:3])


def test_a_player_another_line_already_is_not_offered_unless_the_same_but_for_accents():
    assert [c.player_id for c in candidates("Ann Archre", taken={2})] == []
    found = candidates("Zoe van Dijk", taken={1})
    assert [(c.player_id, c.taken) for c in found] == [(1, True)]


def test_a_suggestion_of_someone_not_on_the_active_roster_is_left_out():
    prepared, owners = roster()
    active = {pk: name for pk, name in PLAYERS.items() if pk != 1}
    same = folded_owners(prepared, owners)
    assert close_candidates("Zoe van Dijk", prepared, owners, active, same_folded=same) == ()


ZOE = CloseCandidate(1, "Zoë van Dijk", "Zoë van Dijk", Reason.ACCENTS, True)
ZOE_TAKEN = CloseCandidate(1, "Zoë van Dijk", "Zoë van Dijk", Reason.ACCENTS, True, taken=True)
ANN = CloseCandidate(2, "Ann Archer", "Ann Archer", Reason.SAME_NAME, True)
OFFERED = {"same-2": (ZOE,), "same-3": (ANN, ZOE)}


@pytest.mark.parametrize(
    ("posted", "expected"),
    [
        ({"same-2": "1", "same-3": "new"}, {"same-2": 1, "same-3": NEW_PERSON}),
        ({"same-2": "new"}, {"same-2": NEW_PERSON}),  # one left unanswered
        ({"same-2": "", "same-3": " 2 "}, {"same-3": 2}),
        ({"other": "1"}, {}),  # a field the page did not offer is not read
        ({}, {}),
    ],
)
def test_the_answers_offered_are_read(posted, expected):
    assert read_choices(posted, OFFERED) == expected


@pytest.mark.parametrize(
    "value",
    ["2", "99", "-1", "1.0", "١", "zoe", "New", "1 or 1=1"],
    ids=["offered elsewhere", "never offered", "negative", "decimal", "arabic digit", "text",
         "capital New", "injection"],
)  # fmt: skip
def test_an_answer_the_page_did_not_offer_is_refused(value):
    with pytest.raises(ChoiceRefused):
        read_choices({"same-2": value}, OFFERED)


def test_a_player_another_line_already_is_cannot_be_chosen():
    with pytest.raises(ChoiceRefused):
        read_choices({"same-2": "1"}, {"same-2": (ZOE_TAKEN,)})
    assert read_choices({"same-2": "new"}, {"same-2": (ZOE_TAKEN,)}) == {"same-2": NEW_PERSON}


def test_one_roster_player_chosen_for_two_names_is_refused_naming_both():
    with pytest.raises(ChosenTwice) as twice:
        read_choices({"same-2": "1", "same-3": "1"}, OFFERED)
    assert (twice.value.fields, twice.value.player_id) == (("same-2", "same-3"), 1)
