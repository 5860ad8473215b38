"""Timing: repeated runs, their medians and percentiles, and the tables the benches print."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Runs:
    """Wall and CPU seconds of each run and, if kept, what each run returned."""

    walls: list[float] = field(default_factory=list)
    cpus: list[float] = field(default_factory=list)
    values: list[Any] = field(default_factory=list)

    @property
    def value(self) -> Any:
        """What the last run returned (kept values only)."""
        return self.values[-1] if self.values else None

    @property
    def median(self) -> float:
        return statistics.median(self.walls)


def repeat(
    action: Callable[[], Any],
    times: int,
    *,
    between: Callable[[], object] | None = None,
    keep: bool = False,
) -> Runs:
    """Run `action` `times` times, `between` (untimed) after each run. CPU time is this
    process's: it tells a busy machine from slow code. Unless `keep`, what a run returns is
    dropped inside its timing, as after a bare call."""
    runs = Runs()
    for _ in range(times):
        start, cpu = time.perf_counter(), time.process_time()
        value = action()
        if keep:
            runs.values.append(value)
        del value
        runs.walls.append(time.perf_counter() - start)
        runs.cpus.append(time.process_time() - cpu)
        if between is not None:
            between()
    return runs


def paced(action: Callable[[], object], every: float, deadline: float) -> None:
    """Run `action` once every `every` seconds (at once again if it ran late) until the deadline."""
    tick = time.monotonic()
    while tick < deadline:
        action()
        tick += every
        time.sleep(max(0.0, min(tick, deadline) - time.monotonic()))


def percentile(values: list[float], q: float) -> float:
    """Nearest rank: the smallest value with at least q % of the values at or below it."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(1, -(-len(ordered) * q // 100)) - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def row(*cells: object) -> str:
    """One line of a Markdown table."""
    return "| " + " | ".join(str(cell) for cell in cells) + " |"


def table_head(*columns: str, align: str) -> str:
    """A Markdown table's heading and rule; `align` has an l or an r a column."""
    rule = "|" + "|".join("---:" if side == "r" else "---" for side in align) + "|"
    return row(*columns) + "\n" + rule
