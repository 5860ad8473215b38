"""A rating history chart as an SVG string, drawn on the server.

Pure Python: no Django imports. The caller passes translated, formatted text;
everything put into the markup is escaped here. The chart scales with its
container (viewBox, no fixed size) and needs no JavaScript.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 480, 240
LEFT, RIGHT, TOP, BOTTOM = 66, 14, 14, 44  # margins for the axis labels


@dataclass(frozen=True)
class ChartPoint:
    value: float
    label: str  # e.g. the event's date and name; the point's tooltip and accessible name


@dataclass(frozen=True)
class ChartText:
    title: str
    x_axis: str
    y_axis: str
    first_label: str  # under the first point, e.g. its date
    last_label: str  # under the last point


def nice_ticks(low: float, high: float, count: int = 5) -> list[int]:
    """Round numbers covering [low, high], about ``count`` of them (steps of 1, 2 or 5 x 10^n)."""
    if high < low:
        low, high = high, low
    span = max(high - low, 1.0)
    raw = span / max(count - 1, 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(int(step), 1)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    if first == last:
        first, last = first - step, last + step
    return list(range(int(first), int(last) + 1, step))


def rating_chart(points: Sequence[ChartPoint], text: ChartText) -> str:
    """An SVG line chart with one marked point per event; "" when there is nothing to draw."""
    if not points:
        return ""
    ticks = nice_ticks(min(p.value for p in points), max(p.value for p in points))
    low, high = ticks[0], ticks[-1]
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        if len(points) == 1:
            return LEFT + plot_w / 2
        return LEFT + plot_w * index / (len(points) - 1)

    def y(value: float) -> float:
        return TOP + plot_h * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="chart-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="chart-title">{escape(text.title)}</title>',
        '<g class="grid">',
    ]
    for tick in ticks:
        ty = y(tick)
        parts.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{ty + 5:.1f}" text-anchor="end">{tick}</text>')
    parts.append("</g>")
    bottom = TOP + plot_h
    parts.append(
        f'<g class="axes"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>'
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}"/></g>'
    )
    parts.append(
        f'<text class="axis-label" x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" '
        f'text-anchor="middle">{escape(text.x_axis)}</text>'
    )
    parts.append(
        f'<text class="axis-label" x="12" y="{TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {TOP + plot_h / 2:.1f})">{escape(text.y_axis)}</text>'
    )
    parts.append(
        f'<text x="{x(0):.1f}" y="{bottom + 18}" text-anchor="start">'
        f"{escape(text.first_label)}</text>"
    )
    if len(points) > 1:
        parts.append(
            f'<text x="{x(len(points) - 1):.1f}" y="{bottom + 18}" text-anchor="end">'
            f"{escape(text.last_label)}</text>"
        )
    coordinates = " ".join(f"{x(i):.1f},{y(p.value):.1f}" for i, p in enumerate(points))
    parts.append(f'<polyline class="line" points="{coordinates}"/>')
    parts.append('<g class="points">')
    for index, point in enumerate(points):
        parts.append(
            f'<circle cx="{x(index):.1f}" cy="{y(point.value):.1f}" r="3">'
            f"<title>{escape(point.label)}</title></circle>"
        )
    parts.append("</g></svg>")
    return "".join(parts)
