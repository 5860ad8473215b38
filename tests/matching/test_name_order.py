"""Names that arrived as "Last,First" are offered as "First Last"."""

import pytest

from matching import first_last
from matching.name_order import last_first, surname_key


@pytest.mark.parametrize(
    ("written", "offered"),
    [
        ("Jansen,Jan", "Jan Jansen"),
        ("Jansen, Jan", "Jan Jansen"),
        ("Vries, Emma de", "Emma de Vries"),
        ("Berg, Jan van der", "Jan van der Berg"),
        ("de Vries, Emma", "Emma de Vries"),
        ("Müller,Anna-Lena", "Anna-Lena Müller"),
        ("Carlsen, Magnus Øen", "Magnus Øen Carlsen"),
        ("Sharma, Priya", "Priya Sharma"),
    ],
)
def test_a_last_comma_first_name_is_offered_first_name_first(written, offered):
    assert first_last(written) == offered


@pytest.mark.parametrize(
    "written", ["Jan Jansen", "Jansen,", ",Jan", "Jansen, Jan, Jr.", "  ,  ", "De"]
)
def test_a_name_not_written_last_comma_first_gets_no_offer(written):
    assert first_last(written) is None


def test_a_lone_particle_after_the_comma_stays_a_first_name():
    assert first_last("Vries, De") == "De Vries"


@pytest.mark.parametrize(
    ("name", "listed"),
    [
        ("Emma de Vries", "Vries, Emma de"),
        ("Jan van der Berg", "Berg, Jan van der"),
        ("Ludwig van Beethoven", "Beethoven, Ludwig van"),
        ("Anna Maria Jansen", "Jansen, Anna Maria"),
        ("Madonna", "Madonna"),  # a single word is the whole name
        ("  Madonna  ", "Madonna"),
        ("Vries, Emma de", "Vries, Emma de"),  # already "Last, First": as typed
        ("Zoë Östen", "Östen, Zoë"),
    ],
)
def test_last_first_writes_a_name_as_clubs_post_it(name, listed):
    assert last_first(name) == listed


def test_the_list_by_surname_ignores_accents_and_case_like_a_collation():
    names = [
        "Zoë Zander", "anna Östen", "Otto Ohm", "Jan van der Berg", "Madonna", "Łukasz Lis",
        "Emma de Vries", "Bob berg", "Наталья Бах",
    ]  # fmt: skip
    assert sorted(names, key=surname_key) == [
        "Наталья Бах",  # Bakh
        "Bob berg",  # berg before "Berg, Jan van der": the given names decide
        "Jan van der Berg",
        "Łukasz Lis",  # Ł as L
        "Madonna",
        "Otto Ohm",
        "anna Östen",  # Ö as O, after Ohm; lower case is no reason to go first or last
        "Emma de Vries",  # under V, not D
        "Zoë Zander",
    ]


def test_a_name_sorted_by_surname_is_ordered_by_its_given_names_next():
    assert surname_key("Anna Berg") < surname_key("Bram Berg") < surname_key("Cora Bergman")
