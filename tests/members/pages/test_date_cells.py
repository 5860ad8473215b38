"""The tables write dates as Django's dateformat does, and exact numbers as format(…, "f")
does, in every language, only faster."""

import datetime as dt
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import dateformat, translation
from django.utils.formats import get_format
from hypothesis import given
from hypothesis import strategies as st

from members.pages.tables import Formats, _date_template


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_every_day_is_written_as_dateformat_writes_it(language):
    days = [dt.date(2023, 1, 1) + dt.timedelta(days=n) for n in range(800)]
    with translation.override(language):
        f = Formats()
        expected = [dateformat.format(day, get_format("SHORT_DATE_FORMAT")) for day in days]
        assert [f.date(day) for day in days] == expected


@pytest.mark.parametrize(
    ("django_format", "template"),
    [
        ("d.m.Y", ("{0.day:02d}.{0.month:02d}.{0.year}", None)),
        ("j M Y", ("{0.day} {1} {0.year}", "M")),
        ("j. N Y", ("{0.day}. {1} {0.year}", "N")),
        ("D j M Y", (None, None)),  # a weekday: left to dateformat
        ("j M \\d\\e Y", (None, None)),  # escaped letters too
        ("M F Y", (None, None)),  # two ways of naming the month
    ],
)
def test_a_format_becomes_a_template_only_when_its_fields_are_known(django_format, template):
    assert _date_template(django_format) == template


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
@given(
    digits=st.integers(min_value=-(10**12), max_value=10**12),
    exponent=st.integers(min_value=-12, max_value=3),
)
def test_an_exact_number_is_written_as_format_f_writes_it(language, digits, exponent):
    """Formats.exact takes str() where it writes no exponent (0E-8 and 1E+1 do): the same
    text as format(value, "f"), with the language's decimal mark."""
    value = Decimal(digits).scaleb(exponent)
    with translation.override(language):
        expected = format(value, "f").replace(".", get_format("DECIMAL_SEPARATOR"))
        assert Formats().exact(value) == expected
