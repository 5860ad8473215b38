"""The rating history chart: an SVG string drawn on the server, no Django needed."""

import datetime as dt
import re
import xml.etree.ElementTree as ET

import pytest

from members.pages.chart import (
    HEIGHT,
    LEFT,
    RIGHT,
    START,
    UNRATED,
    WIDTH,
    ChartPoint,
    ChartText,
    date_ticks,
    nice_ticks,
    rating_chart,
)

SVG = "{http://www.w3.org/2000/svg}"
TEXT = ChartText(
    title="Rating history of J. B.",
    x_axis="Date of the event",
    y_axis="Rating",
    legend={"start": "starting rating", "rated": "rated event", "unrated": "event not rated"},
)
DAY = dt.date(2026, 1, 10)


def iso(day: dt.date) -> str:
    return day.isoformat()


def chart(points) -> ET.Element:
    return ET.fromstring(rating_chart(points, TEXT, iso))


def points(*values):
    """One event a week."""
    return [
        ChartPoint(v, f"event {n}: {v:.0f}", DAY + dt.timedelta(weeks=n))
        for n, v in enumerate(values, start=1)
    ]


def markers(root: ET.Element) -> list[ET.Element]:
    return list(root.find(f".//{SVG}g[@class='points']"))


def test_the_chart_is_valid_svg_with_a_title_and_a_viewbox_so_it_scales():
    root = ET.fromstring(rating_chart(points(1200, 1220, 1210), TEXT, iso))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {WIDTH} {HEIGHT}"
    assert "width" not in root.attrib and "height" not in root.attrib
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Rating history of J. B."
    assert root.get("aria-labelledby") == title.get("id")


def test_there_is_one_marked_point_per_event_each_with_its_own_title():
    root = chart(points(1200, 1220, 1210, 1250))
    circles = markers(root)
    assert len(circles) == 4
    assert [c.find(f"{SVG}title").text for c in circles] == [
        "event 1: 1200",
        "event 2: 1220",
        "event 3: 1210",
        "event 4: 1250",
    ]
    polyline = root.find(f".//{SVG}polyline")
    assert len(polyline.get("points").split()) == 4


def test_both_axes_are_drawn_and_labelled():
    root = chart(points(1200, 1300))
    assert len(root.findall(f"./{SVG}g[@class='axes']/{SVG}line")) == 2
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Date of the event" in texts and "Rating" in texts
    assert "1200" in texts and "1300" in texts


def test_points_stand_where_their_dates_are_not_at_equal_steps():
    days = [DAY, DAY + dt.timedelta(days=10), DAY + dt.timedelta(days=100)]
    root = chart([ChartPoint(1200 + n, f"p{n}", day) for n, day in enumerate(days)])
    xs = [float(c.get("cx")) for c in markers(root)]
    assert xs[0] == pytest.approx(LEFT) and xs[-1] == pytest.approx(WIDTH - RIGHT)
    # 10 days of 100: a tenth of the way along, not half of it.
    assert (xs[1] - xs[0]) / (xs[2] - xs[0]) == pytest.approx(0.1, abs=0.01)
    polyline = root.find(f".//{SVG}polyline").get("points").split()
    assert [float(pair.split(",")[0]) for pair in polyline] == pytest.approx(xs, abs=0.06)


def test_there_are_four_dated_labels_from_the_first_date_to_the_last():
    root = chart(points(1200, 1210, 1205))  # 17, 24 and 31 January
    dates = [t.text for t in root.findall(f".//{SVG}g[@class='dates']/{SVG}text")]
    assert dates == ["2026-01-17", "2026-01-22", "2026-01-26", "2026-01-31"]
    ticks = root.findall(f".//{SVG}g[@class='dates']/{SVG}line")
    # Each label sits at its own date: the second is 5 of the 14 days along.
    x0, x1, x3 = (float(ticks[n].get("x1")) for n in (0, 1, 3))
    assert (x1 - x0) / (x3 - x0) == pytest.approx(5 / 14, abs=0.01)


@pytest.mark.parametrize(
    ("days", "expected"),
    [
        (0, [DAY]),
        (1, [DAY, DAY + dt.timedelta(days=1)]),  # fewer dates than labels: each date once
        (30, [DAY + dt.timedelta(days=d) for d in (0, 10, 20, 30)]),
    ],
)
def test_date_ticks(days, expected):
    assert date_ticks(DAY, DAY + dt.timedelta(days=days)) == expected


def test_the_start_and_unrated_events_have_their_own_markers_and_legend():
    chart_points = [
        ChartPoint(1500, "start", DAY, START),
        ChartPoint(1510, "rated", DAY),
        ChartPoint(1510, "friendly", DAY + dt.timedelta(days=7), UNRATED),
    ]
    root = chart(chart_points)
    assert [m.tag for m in markers(root)] == [f"{SVG}path", f"{SVG}circle", f"{SVG}rect"]
    assert [m.get("class") for m in markers(root)] == ["start", "rated", "unrated"]
    legend = root.find(f".//{SVG}g[@class='legend']")
    words = [t.text for t in legend.iter(f"{SVG}text")]
    assert words == ["starting rating", "rated event", "event not rated"]
    # The start shares the first event's date: it is the rating taken into it.
    start, first, _ = markers(root)
    assert float(first.get("cx")) == pytest.approx(float(start.get("d")[1:].split()[0]))


def test_the_legend_leaves_out_a_kind_the_chart_does_not_draw():
    legend = chart(points(1200, 1210)).find(f".//{SVG}g[@class='legend']")
    assert [t.text for t in legend.iter(f"{SVG}text")] == ["rated event"]


def test_the_first_and_latest_values_are_written_on_the_chart():
    chart_points = [
        ChartPoint(1500, "start", DAY, START, "1500"),
        ChartPoint(1507.2, "a", DAY + dt.timedelta(days=3), shown="1507"),
        ChartPoint(1522.5, "b", DAY + dt.timedelta(days=9), shown="1523"),
    ]
    values = chart(chart_points).find(f".//{SVG}g[@class='values']")
    assert [t.text for t in values] == ["1500", "1523"]


def test_a_higher_rating_is_drawn_higher():
    low, high = (float(c.get("cy")) for c in markers(chart(points(1200, 1300))))
    assert high < low  # SVG's y axis points down


def test_a_single_event_is_one_point_in_the_middle():
    (circle,) = markers(chart(points(1500)))
    assert float(circle.get("cx")) == pytest.approx((LEFT + WIDTH - RIGHT) / 2)


def test_no_events_draw_nothing():
    assert rating_chart([], TEXT, iso) == ""


def test_every_text_is_escaped():
    legend = {"start": "<s>", "rated": "<r>", "unrated": "<u>"}
    text = ChartText('<script>alert("x")</script>', "a & b", "<y>", legend)
    svg = rating_chart([ChartPoint(1200, "<b>Ann & Bob</b>", DAY, shown="<i>")], text, iso)
    assert "<script>" not in svg and "<b>" not in svg
    ET.fromstring(svg)  # still well-formed


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (1200, 1300, [1200, 1250, 1300]),
        (1187, 1243, [1180, 1200, 1220, 1240, 1260]),
        (1500, 1500, [1499, 1500, 1501]),
        (800, 2400, [500, 1000, 1500, 2000, 2500]),
    ],
)
def test_ticks_are_round_numbers_covering_the_range(low, high, expected):
    ticks = nice_ticks(low, high)
    assert ticks == expected
    assert ticks[0] <= low and ticks[-1] >= high


def test_the_markup_has_no_script_and_no_external_references():
    svg = rating_chart(points(1200, 1250, 1230), TEXT, iso)
    assert not re.search(r"<script|href=|url\(", svg)
