"""Season dates and labels: pure, no database."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladder.seasons.dates import Season, parse_season, season_of

days = st.dates(min_value=dt.date(1901, 1, 1), max_value=dt.date(2198, 12, 31))
months = st.integers(min_value=1, max_value=12)


def test_a_september_season_runs_from_the_first_of_september_to_the_end_of_august():
    season = season_of(dt.date(2026, 3, 14), 9)
    assert season.label == "2025-26"
    assert (season.first_day, season.last_day) == (dt.date(2025, 9, 1), dt.date(2026, 8, 31))


def test_a_january_season_is_one_calendar_year_named_by_its_year():
    season = season_of(dt.date(2026, 7, 1), 1)
    assert season.label == "2026"
    assert (season.first_day, season.last_day) == (dt.date(2026, 1, 1), dt.date(2026, 12, 31))


@pytest.mark.parametrize(
    ("day", "month", "label"),
    [
        (dt.date(2025, 8, 31), 9, "2024-25"),
        (dt.date(2025, 9, 1), 9, "2025-26"),
        (dt.date(2026, 2, 28), 3, "2025-26"),
        (dt.date(2026, 3, 1), 3, "2026-27"),
        (dt.date(2099, 12, 31), 12, "2099-00"),  # the century turns in the short form
        (dt.date(2024, 2, 29), 3, "2023-24"),  # a leap day is the season's last day
    ],
)
def test_the_season_of_a_day_at_the_boundaries(day, month, label):
    assert season_of(day, month).label == label


def test_a_season_ending_in_a_leap_february_ends_on_the_29th():
    assert Season(2023, 3).last_day == dt.date(2024, 2, 29)
    assert Season(2022, 3).last_day == dt.date(2023, 2, 28)


@given(days, months)
def test_every_day_lies_in_exactly_its_season_and_its_label_reads_back(day, month):
    season = season_of(day, month)
    assert season.holds(day)
    assert season.first_day.day == 1 and season.first_day.month == month
    assert not season.holds(season.first_day - dt.timedelta(days=1))
    assert not season.holds(season.last_day + dt.timedelta(days=1))
    assert season_of(season.last_day + dt.timedelta(days=1), month) == Season(
        season.start_year + 1, month
    )
    assert parse_season(season.label, month) == season


@pytest.mark.parametrize(
    ("label", "month"),
    [
        ("2025-26", 1),  # a January club's seasons are single years
        ("2026", 9),  # ... and no other club's
        ("2025-27", 9),
        ("2025-2026", 9),
        ("2025/26", 9),
        ("25-26", 9),
        ("2025-26 ", 9),
        ("٢٠٢٥-٢٦", 9),  # digits the pages never write
        ("1899-00", 9),
        ("2200-01", 9),
        ("", 9),
        ("abcd", 1),
    ],
)
def test_labels_the_pages_never_write_are_no_season(label, month):
    assert parse_season(label, month) is None


def test_a_start_month_outside_the_year_is_refused():
    with pytest.raises(ValueError):
        season_of(dt.date(2026, 1, 1), 13)
    assert parse_season("2025-26", 0) is None
