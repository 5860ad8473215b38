"""The tables write dates as Django's dateformat does, in every language, only faster."""

import datetime as dt

import pytest
from django.conf import settings
from django.utils import dateformat, translation
from django.utils.formats import get_format

from ladder.pages.tables import Formats, _date_template


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
