"""The rating history chart: an SVG string drawn on the server, no Django needed."""

import re
import xml.etree.ElementTree as ET

import pytest

from ladder.chart import LEFT, RIGHT, WIDTH, ChartPoint, ChartText, nice_ticks, rating_chart

SVG = "{http://www.w3.org/2000/svg}"
TEXT = ChartText(
    title="Rating history of J. B.",
    x_axis="Events, oldest first",
    y_axis="Rating",
    first_label="10/01/2026",
    last_label="12/03/2026",
)


def points(*values):
    return [ChartPoint(v, f"event {n}: {v:.0f}") for n, v in enumerate(values, start=1)]


def test_the_chart_is_valid_svg_with_a_title_and_a_viewbox_so_it_scales():
    root = ET.fromstring(rating_chart(points(1200, 1220, 1210), TEXT))
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox") == f"0 0 {WIDTH} 240"
    assert "width" not in root.attrib and "height" not in root.attrib
    assert root.get("role") == "img"
    title = root.find(f"{SVG}title")
    assert title is not None and title.text == "Rating history of J. B."
    assert root.get("aria-labelledby") == title.get("id")


def test_there_is_one_marked_point_per_event_each_with_its_own_title():
    root = ET.fromstring(rating_chart(points(1200, 1220, 1210, 1250), TEXT))
    circles = root.findall(f".//{SVG}circle")
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
    root = ET.fromstring(rating_chart(points(1200, 1300), TEXT))
    assert len(root.findall(f"./{SVG}g[@class='axes']/{SVG}line")) == 2
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Events, oldest first" in texts and "Rating" in texts
    assert "10/01/2026" in texts and "12/03/2026" in texts
    assert "1200" in texts and "1300" in texts


def test_a_higher_rating_is_drawn_higher():
    root = ET.fromstring(rating_chart(points(1200, 1300), TEXT))
    low, high = (float(c.get("cy")) for c in root.iter(f"{SVG}circle"))
    assert high < low  # SVG's y axis points down


def test_a_single_event_is_one_point_in_the_middle():
    root = ET.fromstring(rating_chart(points(1500), TEXT))
    (circle,) = root.iter(f"{SVG}circle")
    assert float(circle.get("cx")) == pytest.approx((LEFT + WIDTH - RIGHT) / 2)


def test_no_events_draw_nothing():
    assert rating_chart([], TEXT) == ""


def test_every_text_is_escaped():
    text = ChartText('<script>alert("x")</script>', "a & b", "<y>", "<", ">")
    svg = rating_chart([ChartPoint(1200, "<b>Ann & Bob</b>")], text)
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
    svg = rating_chart(points(1200, 1250, 1230), TEXT)
    assert not re.search(r"<script|href=|url\(", svg)
