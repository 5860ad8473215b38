"""Name matching: the evaluation table and the 60 and 1,000 x 10,000 timings, as Markdown.

    .venv/bin/python bench/matching.py
    .venv/bin/python bench/matching.py --duplicates   # possible_duplicates' growth only

The roster is synthetic (fixed seed): 10,000 names from mixed first names and
surnames (Dutch particles, accents, some Cyrillic, middle names, Jr./Sr., some
written "Last, First"). The event is 60 typed names: 45 roster names spelt as a
director's file might (case, order, initials, a typo, accents dropped, a
nickname, a title) and 15 newcomers. The names step of a large open is 1,000 typed
names (750 respelt roster names, 250 newcomers) against the same roster, and the
bound on the work per name is shown against 10,000 near-identical names.

With --duplicates: possible_duplicates on generated rosters of 1,000, 3,000 and 10,000 names
(a tenth of them another name respelt), its best CPU time and the ratio 10,000 / 1,000
(10 for linear growth), then on rosters built to defeat its keys.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kit.machine import cpu_model, load_average
from bench.kit.measure import repeat, row, table_head
from bench.kit.names import FIRST, SURNAMES, respelt, synthetic_roster
from matching import (
    PreparedRoster,
    name_key,
    possible_duplicates,
    prepare_roster,
    suggest,
    suggest_prepared,
)
from matching.suggest import _entry_of as remembered_profiles
from tests.matching.evaluation_set import (
    CASES,
    ROSTER,
    run,
    score_by_category,
    table,
)

FIGURES = ("median ms", "best ms", "best CPU ms")


def timed(action, times: int = 7) -> str:
    """Median and best wall time, and best CPU time of this process, in milliseconds (the
    CPU time is what the code costs when other jobs share the machine's cores)."""
    runs = repeat(action, times)
    walls, cpus = [t * 1000 for t in runs.walls], [t * 1000 for t in runs.cpus]
    return f"{statistics.median(walls):.0f} | {min(walls):.0f} | {min(cpus):.0f}"


def main() -> None:
    rng = random.Random(20240601)
    roster = synthetic_roster(10_000, rng)
    typed = [respelt(name, rng) for name in rng.sample(roster, 45)]
    typed += [f"{rng.choice(FIRST)} {rng.choice(SURNAMES)}son" for _ in range(15)]
    keys = [name_key(name) for name in roster]

    prepared = prepare_roster(roster, keys=keys)
    match_ms = timed(lambda: [suggest_prepared(name, prepared) for name in typed])

    def from_names() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster)

    def from_keys() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster, keys=keys)

    from_names_ms = timed(from_names)
    from_keys_ms = timed(from_keys)

    def cold() -> None:
        remembered_profiles.cache_clear()  # the first event after the process started
        fresh = prepare_roster(roster, keys=keys)
        for name in typed:
            suggest_prepared(name, fresh)

    cold_ms = timed(cold)
    grown, grown_keys = [*roster, "Newcomer Zebedee"], [*keys, name_key("Newcomer Zebedee")]

    def after_one_new_player() -> None:
        # The usual case: the roster changed by a name since it was last prepared.
        fresh = prepare_roster(grown, keys=grown_keys)
        for name in typed:
            suggest_prepared(name, fresh)

    prepare_roster(roster, keys=keys)
    changed_ms = timed(after_one_new_player)
    duplicates_ms = timed(lambda: possible_duplicates(roster), 3)
    duplicates = possible_duplicates(roster)

    large = large_event(roster, rng, keys)

    evaluated = prepare_roster(ROSTER)
    outcomes = run(lambda name: suggest_prepared(name, evaluated))

    load = load_average(", ", 1)
    print(f"Machine: {os.cpu_count()} CPUs ({cpu_model()}), Python {platform.python_version()}")
    print(f"Load average at the end (1, 5, 15 min): {load}")
    print()
    print(f"Evaluation set: {len(CASES)} cases against a roster of {len(ROSTER)} names")
    print()
    print(table(score_by_category(outcomes)))
    print()
    print(table_head("10,000-name roster", *FIGURES, align="lrrr"))
    print(row("prepare_roster from names", from_names_ms))
    print(row("prepare_roster from stored keys", from_keys_ms))
    print(row("60 x suggest_prepared (roster prepared)", match_ms))
    print(row("prepare from stored keys + 60 x suggest_prepared, first time", cold_ms))
    print(row("the same after the roster gained a player", changed_ms))
    print(row(f"possible_duplicates ({len(duplicates)} pairs returned)", duplicates_ms))
    print()
    print(table_head("names step: 1,000 typed names, 10,000 players", *FIGURES, align="lrrr"))
    for label, figures in large:
        print(row(label, figures))


def large_event(roster: list[str], rng: random.Random, keys: list[str]) -> list[tuple[str, str]]:
    """The names step of a 1,000-entrant open against a 10,000-player roster, and the same
    against rosters built to defeat the indexes."""
    typed = [respelt(name, rng) for name in rng.sample(roster, 750)]
    typed += [f"{rng.choice(FIRST)} {rng.choice(SURNAMES)}son" for _ in range(250)]
    prepared = prepare_roster(roster, keys=keys)

    def cold() -> None:
        remembered_profiles.cache_clear()
        fresh = prepare_roster(roster, keys=keys)
        for name in typed:
            suggest_prepared(name, fresh)

    grown, grown_keys = [*roster, "Newcomer Zebedee"], [*keys, name_key("Newcomer Zebedee")]

    def after_one_new_player() -> None:
        fresh = prepare_roster(grown, keys=grown_keys)
        for name in typed:
            suggest_prepared(name, fresh)

    def from_keys() -> None:
        remembered_profiles.cache_clear()
        prepare_roster(roster, keys=keys)

    rows = [
        ("prepare_roster from stored keys (nothing remembered)", timed(from_keys, 5)),
        (
            "1,000 x suggest_prepared (roster prepared)",
            timed(lambda: [suggest_prepared(name, prepared) for name in typed], 5),
        ),
        ("prepare from stored keys + 1,000 x suggest_prepared, first time", timed(cold, 3)),
        ("**the same after the roster gained a player**", timed(after_one_new_player, 5)),
        (
            "one `suggest` (prepares the roster from names)",
            timed(lambda: suggest(typed[0], roster), 3),
        ),
    ]
    same = ["Jan Jansen"] * 10_000
    near = [f"Jan Jansen {chr(97 + at % 26)}{chr(97 + at // 26 % 26)}" for at in range(10_000)]
    typos = [f"Jan Jans{chr(97 + at % 26)}n {chr(97 + at // 26 % 26)}" for at in range(10_000)]
    for label, names in [
        ("one name 10,000 times", same),
        ("10,000 near-identical names", near),
        ("10,000 names a typo apart", typos),
    ]:
        hostile = prepare_roster(names)
        hits = rng.sample(names, 1_000)  # every typed name falls in the crowd

        def match(hostile: PreparedRoster = hostile, hits: list[str] = hits) -> None:
            for name in hits:
                suggest_prepared(name, hostile)

        rows.append((f"1,000 x suggest_prepared, 1,000 of {label}", timed(match, 3)))
    return rows


def duplicates_growth() -> None:
    """possible_duplicates' CPU time by roster size (profiles remembered, as in a process
    that has read the roster before), and its work on crowds."""
    cpu_ms: dict[int, float] = {}
    print(table_head("possible_duplicates", "names", "pairs", "best CPU ms", align="lrrr"))
    for size in (1_000, 3_000, 10_000):
        rng = random.Random(size)
        base = synthetic_roster(size * 10 // 11, rng)
        names = base + [respelt(name, rng) for name in rng.sample(base, size - len(base))]
        rng.shuffle(names)
        runs = repeat(lambda names=names: possible_duplicates(names, limit=10**9), 3, keep=True)
        cpu_ms[size] = min(runs.cpus) * 1000
        print(row("generated roster", f"{size:,} | {len(runs.value):,} | {cpu_ms[size]:.0f}"))
    crowds = {
        "one name 10,000 times": ["Jan Jansen"] * 10_000,
        "10,000 names a typo apart": [
            f"Jan Jans{chr(97 + at % 26)}n {chr(97 + at // 26 % 26)}" for at in range(10_000)
        ],
    }
    for label, names in crowds.items():
        runs = repeat(lambda names=names: possible_duplicates(names), 1, keep=True)
        print(row(label, f"10,000 | {len(runs.value)} | {min(runs.cpus) * 1000:.0f}"))
    print()
    print(f"CPU time 10,000 / 1,000 names: {cpu_ms[10_000] / cpu_ms[1_000]:.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--duplicates", action="store_true", help="possible_duplicates' growth only"
    )
    if parser.parse_args().duplicates:
        duplicates_growth()
    else:
        main()
