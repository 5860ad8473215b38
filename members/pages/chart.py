"""A rating history chart as an SVG string, drawn on the server.

Pure Python: no Django imports. The caller passes translated text and a function that
writes a date in the page's language; everything put into the markup is escaped here.
The chart scales with its container (viewBox, no fixed size) and needs no JavaScript.

Points stand where their dates are: a month without events is a gap, not a step. The
starting rating is the first point, at the date of the first event (it is the rating the
player took into it); events that did not move the rating have their own marker and a
line in the legend, so a flat stretch is not mistaken for draws.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 480, 270
LEFT, RIGHT, TOP, BOTTOM = 66, 22, 40, 44  # margins for the legend and the axis labels
DATE_LABELS = 4  # dated labels under the x axis, fewer only when there are fewer dates

START, RATED, UNRATED = "start", "rated", "unrated"


@dataclass(frozen=True)
class ChartPoint:
    value: float
    label: str  # e.g. the event's date and name; the point's tooltip
    day: dt.date
    kind: str = RATED  # START, RATED or UNRATED
    shown: str = ""  # the value as the page writes it (rounded as the page rounds)
    marked: bool = True  # False: a point of the line only, with no marker or tooltip


@dataclass(frozen=True)
class ChartText:
    title: str
    x_axis: str
    y_axis: str
    legend: dict[str, str]  # START, RATED, UNRATED -> the legend's words


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


def date_ticks(first: dt.date, last: dt.date, count: int = DATE_LABELS) -> list[dt.date]:
    """``count`` dates evenly spread from ``first`` to ``last``, both included, none twice."""
    span = (last - first).days
    if span <= 0:
        return [first]
    days = sorted({round(span * n / (count - 1)) for n in range(count)})
    return [first + dt.timedelta(days=d) for d in days]


class _Scale:
    """Chart coordinates: x by date, y by rating."""

    def __init__(self, points: Sequence[ChartPoint], ticks: list[int]) -> None:
        self.first = min(p.day for p in points)
        self.span = (max(p.day for p in points) - self.first).days
        self.low, self.high = ticks[0], ticks[-1]
        self.plot_w, self.plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(self, day: dt.date) -> float:
        if self.span == 0:
            return LEFT + self.plot_w / 2
        return LEFT + self.plot_w * (day - self.first).days / self.span

    def y(self, value: float) -> float:
        return TOP + self.plot_h * (self.high - value) / (self.high - self.low)


def _marker(kind: str, cx: float, cy: float, title: str = "") -> str:
    inner = f"<title>{escape(title)}</title>" if title else ""
    if kind == UNRATED:  # a hollow square
        return (
            f'<rect class="unrated" x="{cx - 3.5:.1f}" y="{cy - 3.5:.1f}" width="7" height="7">'
            f"{inner}</rect>"
        )
    if kind == START:  # a diamond
        return f'<path class="start" d="M{cx:.1f} {cy - 5:.1f}l5 5l-5 5l-5 -5z">{inner}</path>'
    return f'<circle class="rated" cx="{cx:.1f}" cy="{cy:.1f}" r="3.5">{inner}</circle>'


def _legend(points: Sequence[ChartPoint], text: ChartText) -> list[str]:
    """One entry per kind of point drawn, in a row above the plot."""
    parts = ['<g class="legend">']
    x = float(LEFT)
    for kind in (START, RATED, UNRATED):
        if not any(p.kind == kind and p.marked for p in points):
            continue
        words = text.legend[kind]
        parts.append(_marker(kind, x + 5, 16))
        parts.append(f'<text x="{x + 14:.1f}" y="21">{escape(words)}</text>')
        x += 34 + 7.5 * len(words)  # about the width of the words at the chart's font size
    parts.append("</g>")
    return parts


def rating_chart(
    points: Sequence[ChartPoint],
    text: ChartText,
    date_label: Callable[[dt.date], str],
    title_id: str = "chart-title",
) -> str:
    """An SVG line chart with one marked point per event; "" when there is nothing to draw.
    `title_id` names its title, unique on a page with a chart per ladder."""
    if not points:
        return ""
    ticks = nice_ticks(min(p.value for p in points), max(p.value for p in points))
    s = _Scale(points, ticks)
    bottom = TOP + s.plot_h
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{title_id}" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{title_id}">{escape(text.title)}</title>',
        '<g class="grid">',
    ]
    for tick in ticks:
        ty = s.y(tick)
        parts.append(f'<line x1="{LEFT}" y1="{ty:.1f}" x2="{WIDTH - RIGHT}" y2="{ty:.1f}"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{ty + 5:.1f}" text-anchor="end">{tick}</text>')
    parts.append("</g>")
    parts.append(
        f'<g class="axes"><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{bottom}"/>'
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}"/></g>'
    )
    parts.append(
        f'<text class="axis-label" x="{LEFT + s.plot_w / 2:.1f}" y="{HEIGHT - 4}" '
        f'text-anchor="middle">{escape(text.x_axis)}</text>'
    )
    parts.append(
        f'<text class="axis-label" x="12" y="{TOP + s.plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 12 {TOP + s.plot_h / 2:.1f})">{escape(text.y_axis)}</text>'
    )
    days = date_ticks(s.first, max(p.day for p in points))
    parts.append('<g class="dates">')
    for n, day in enumerate(days):
        # The ends inside the plot's width; the dates between centred on their ticks.
        anchor = "middle"
        if len(days) > 1 and n in (0, len(days) - 1):
            anchor = "start" if n == 0 else "end"
        dx = s.x(day)
        parts.append(f'<line x1="{dx:.1f}" y1="{bottom}" x2="{dx:.1f}" y2="{bottom + 5}"/>')
        parts.append(
            f'<text x="{dx:.1f}" y="{bottom + 20}" text-anchor="{anchor}">'
            f"{escape(date_label(day))}</text>"
        )
    parts.append("</g>")
    coordinates = " ".join(f"{s.x(p.day):.1f},{s.y(p.value):.1f}" for p in points)
    parts.append(f'<polyline class="line" points="{coordinates}"/>')
    parts.append('<g class="points">')
    for point in (p for p in points if p.marked):
        parts.append(_marker(point.kind, s.x(point.day), s.y(point.value), point.label))
    parts.append("</g>")
    parts.extend(_value_labels(points, s))
    parts.extend(_legend(points, text))
    parts.append("</svg>")
    return "".join(parts)


def _value_labels(points: Sequence[ChartPoint], s: _Scale) -> list[str]:
    """The first and the latest rating written beside their points, to read without hovering
    (every other value is written beside its event on the page)."""
    ends = [points[0]] if len(points) == 1 else [points[0], points[-1]]
    parts = ['<g class="values">']
    for n, point in enumerate(ends):
        px, py = s.x(point.day), s.y(point.value)
        if n == 0:  # right of the first point, clear of the line's vertical start
            anchor, px, py = "start", px + 9, py + 5
        else:  # above the latest, or below it when it touches the top
            anchor, py = "end", py - 9 if py - TOP > 16 else py + 18
        parts.append(
            f'<text x="{px:.1f}" y="{py:.1f}" text-anchor="{anchor}">'
            f"{escape(point.shown or f'{point.value:.0f}')}</text>"
        )
    parts.append("</g>")
    return parts
