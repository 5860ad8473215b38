"""The names step's one read of the roster (directors.events.names.NameRoster), no database."""

from directors.events.names import NameRoster

ROSTER = NameRoster({3: "Ann Archer", 5: "Bob Baker", 8: "bob baker", 9: "Cid"})


def test_a_typed_name_finds_the_one_player_of_that_name_whatever_its_case():
    assert ROSTER.player_named("ANN ARCHER") == 3
    assert ROSTER.player_named("cid") == 9


def test_a_typed_name_shared_by_two_players_or_by_nobody_finds_no_player():
    assert ROSTER.player_named("Bob Baker") is None
    assert ROSTER.player_named("Dee") is None


def test_only_the_rosters_players_are_in_it():
    assert 5 in ROSTER
    assert 4 not in ROSTER
