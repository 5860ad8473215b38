"""Names that arrived as "Last,First" are offered as "First Last"."""

import pytest

from matching import first_last


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
