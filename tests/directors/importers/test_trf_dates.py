"""Reading a TRF file's start date: the reading the file's other dates agree with."""

from datetime import date

import pytest

from directors.importers import parse_file
from directors.importers.base import DateSource
from directors.importers.trf import date_readings, read_event_dates

from .trf_lines import player

# The two Irish league exports: 13 September 2010 to 13 March 2011, written YY.MM.DD.
IRISH_ROUNDS = [date(2010, 9, 13), date(2010, 10, 11), date(2011, 3, 13)]

READINGS = [
    pytest.param("10.09.13", [(date(2013, 9, 10), "DD.MM.YY"), (date(2010, 9, 13), "YY.MM.DD")],
                 id="DD.MM.YY or YY.MM.DD, day first usual with dots"),
    pytest.param("24/11/23", [(date(2024, 11, 23), "YY/MM/DD"), (date(2023, 11, 24), "DD/MM/YY")],
                 id="YY/MM/DD usual with slashes, as TRF round dates"),
    pytest.param("98.05.12", [(date(1998, 5, 12), "YY.MM.DD")], id="no day 98: only YY.MM.DD"),
    pytest.param("13.09.45", [(date(2045, 9, 13), "DD.MM.YY")], id="no day 45: only DD.MM.YY"),
    pytest.param("14.09.2024", [(date(2024, 9, 14), "DD.MM.YYYY")], id="DD.MM.YYYY"),
    pytest.param("03/09/2024", [(date(2024, 9, 3), "DD/MM/YYYY"), (date(2024, 3, 9), "MM/DD/YYYY")],
                 id="DD/MM/YYYY or MM/DD/YYYY"),
    pytest.param("05.05.2024", [(date(2024, 5, 5), "DD.MM.YYYY")], id="both readings one date"),
    pytest.param("2024/11/23", [(date(2024, 11, 23), "YYYY/MM/DD")], id="YYYY/MM/DD"),
    pytest.param("2024.11.23", [(date(2024, 11, 23), "YYYY.MM.DD")], id="YYYY.MM.DD"),
    pytest.param("28. 07. 2005", [(date(2005, 7, 28), "DD.MM.YYYY")], id="spaced"),
    pytest.param("2024-05-18T10:00:00Z", [(date(2024, 5, 18), "YYYY-MM-DD")], id="ISO"),
    pytest.param("Jun 26, 2020", [(date(2020, 6, 26), "")], id="month name"),
    pytest.param("31.02.2024", [], id="no such day"),
    pytest.param("soon", [], id="not a date"),
]  # fmt: skip


@pytest.mark.parametrize(("written", "expected"), READINGS)
def test_a_written_date_has_these_readings_usual_first(written, expected):
    assert [(r.day, r.pattern) for r in date_readings(written)] == expected


CHOICES = [
    pytest.param(("10.09.13", 4), ("11.03.13", 5), IRISH_ROUNDS,
                 date(2010, 9, 13), DateSource("042", 4, "10.09.13", "YY.MM.DD", ("052", "132")),
                 id="Irish export: end date and round dates agree on YY.MM.DD"),
    pytest.param(("10.09.13", 4), ("11.03.13", 5), [],
                 date(2010, 9, 13), DateSource("042", 4, "10.09.13", "YY.MM.DD", ("052",)),
                 id="the end date alone decides: 10 Sep 2013 would end before it began"),
    pytest.param(("10.09.13", 4), None, IRISH_ROUNDS,
                 date(2010, 9, 13), DateSource("042", 4, "10.09.13", "YY.MM.DD", ("132",)),
                 id="the round dates alone decide"),
    pytest.param(("13.09.10", 4), ("13.03.11", 5), [],
                 date(2010, 9, 13), DateSource("042", 4, "13.09.10", "DD.MM.YY", ("052",)),
                 id="the same season written day first"),
    pytest.param(("03/09/2024", 4), ("03/10/2024", 5), [date(2024, 3, 9), date(2024, 3, 10)],
                 date(2024, 3, 9), DateSource("042", 4, "03/09/2024", "MM/DD/YYYY", ("052", "132")),
                 id="American dates: the rounds in March decide"),
    pytest.param(("2024/11/23", 4), ("2024/11/24", 5), [date(2024, 11, 23)],
                 date(2024, 11, 23), DateSource("042", 4, "2024/11/23", "YYYY/MM/DD"),
                 id="one reading: nothing to decide"),
    pytest.param(None, None, [date(2024, 3, 10), date(2024, 3, 9)],
                 date(2024, 3, 9), DateSource("132", 7, "24/03/09", "YY/MM/DD"),
                 id="no 042: the first round date"),
    pytest.param(None, None, [], None, None, id="no date at all"),
]  # fmt: skip


@pytest.mark.parametrize(("start", "end", "rounds", "expected", "source"), CHOICES)
def test_the_reading_the_other_dates_agree_with_is_taken_silently(
    start, end, rounds, expected, source
):
    found, found_source, warnings = read_event_dates(start, end, rounds, 7 if rounds else None)
    assert (found, found_source, warnings) == (expected, source, [])


def test_two_readings_that_both_fit_are_both_named_and_the_usual_one_taken():
    found, source, warnings = read_event_dates(("10.09.13", 4), None, [], None)
    assert found == date(2013, 9, 10)
    assert source == DateSource(
        "042", 4, "10.09.13", "DD.MM.YY", alternatives=((date(2010, 9, 13), "YY.MM.DD"),)
    )
    assert warnings == [
        "Line 4: the start date '10.09.13' could be 10 September 2013 or 13 September 2010; "
        "it was read day first, as 10 September 2013."
    ]


def test_a_start_date_after_the_end_date_is_kept_but_said():
    found, source, warnings = read_event_dates(("2024/09/14", 4), ("2024/09/01", 5), [], None)
    assert found == date(2024, 9, 14)
    assert source is not None and source.contradicted_by == ("052",)
    assert warnings == [
        "Line 4: the start date '2024/09/14', read as 14 September 2024, does not agree with "
        "the end date '2024/09/01' on line 5; check the event's date."
    ]


def test_a_round_before_the_start_date_is_said():
    found, source, warnings = read_event_dates(
        ("2024/09/14", 4), None, [date(2024, 9, 7), date(2024, 9, 21)], 9
    )
    assert found == date(2024, 9, 14)
    assert source is not None and source.contradicted_by == ("132",)
    assert warnings == [
        "Line 4: the start date '2024/09/14', read as 14 September 2024, does not agree with "
        "the round dates on line 9 (07 September 2024 to 21 September 2024); check the "
        "event's date."
    ]


def test_a_span_of_years_is_no_event():
    # Day first, 2013-09-10 to 2013-03-11 ends before it starts; year first, 2010-09-13 to
    # 2013-03-11 (different shapes, so mixed readings count) spans two and a half years.
    found, source, warnings = read_event_dates(("10.09.13", 4), ("2013-03-11", 5), [], None)
    assert found == date(2013, 9, 10)
    assert source is not None and source.contradicted_by == ("052",)
    assert len(warnings) == 1


def test_an_unreadable_start_falls_back_to_the_first_round_and_says_so():
    found, source, warnings = read_event_dates(("spring", 2), None, [date(2024, 3, 9)], 6)
    assert found == date(2024, 3, 9)
    assert source == DateSource("132", 6, "24/03/09", "YY/MM/DD")
    assert warnings == ["Line 2: the start date 'spring' was not understood."]


def test_the_irish_file_is_read_as_13_september_2010_from_record_042():
    round_dates = "132" + " " * 88 + "10/09/13  10/10/11  11/03/13"
    lines = ["012 Leinster League", "042 10.09.13", "052 11.03.13", player(1, "Ann"), round_dates]
    event = parse_file("\n".join(lines).encode(), "trf")
    assert event.date == date(2010, 9, 13)
    assert event.date_source == DateSource("042", 2, "10.09.13", "YY.MM.DD", ("052", "132"))
    assert event.warnings == ()


@pytest.mark.parametrize(
    "written", ["2² Juni 2020", "²6. Juni 2020", "Juni ² 2020", "１２ Juni 2020"]
)
def test_a_superscript_or_wide_digit_in_a_worded_date_is_no_crash(written):
    # "²" is a digit to str.isdigit but no number to int() (found by the property test).
    for reading in date_readings(written):
        assert reading.day.year == 2020
