"""The ladder on a date (issue 26): ladder.store.dated.ladder_on and the `?on=` page, on a club of
1,000 events.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_dev DEBUG=true \\
        .venv/bin/python bench/ladder_on_date.py [--runs 5] [--keep]

PostgreSQL only, as production. The script never touches the database DATABASE_URL names:
on the same server it drops and creates one of its own, `clubpages_bench_on_date` (BENCH_DB
overrides the name), migrates it, fills it and drops it at the end (`--keep` leaves it).

The club (bench/replay.py's shape, built with tests.factories.make_history): 400 players,
1,000 published events on consecutive days, 40 players each, 5 rounds of 20 boards: 100,000
games, 40,000 stored results after one full replay. Then VACUUM ANALYZE, as autovacuum
keeps a live database.

Timed, `--runs` times each, median and worst shown (the goal: under 50 ms):
  ladder_on   dated.ladder_on(club, day) for a day near the start, the middle, near the end
              and after the last event: the read of the stored results, provisional flags
              and ladder order, from a new connection's second query on
  page        GET /c/<slug>/?on=<day> by a visitor (test client), the page cache emptied
              before each: ladder_on, the roster (kept per process, as on a live host)
              and the 400-row table rendered; today's page beside it, built the same way
The load average is printed before and after: the timings mean little on a busy machine.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.django_env import database_beside  # noqa: E402
from bench.kit.machine import cpu_model, load_average, nproc  # noqa: E402
from bench.kit.measure import repeat  # noqa: E402

BENCH_DB = os.environ.get("BENCH_DB", "clubpages_bench_on_date")
EVENTS, PLAYERS, PER_EVENT, ROUNDS = 1_000, 400, 40, 5
START = dt.date(2020, 1, 1)
TARGET_MS = 50.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", action="store_true", help=f"do not drop {BENCH_DB} at the end")
    args = parser.parse_args()
    with database_beside("ladder_on_date.py", BENCH_DB, keep=args.keep) as connection:
        from django.conf import settings

        settings.ALLOWED_HOSTS = ["*"]
        server = connection.cursor().connection.info.server_version
        print(f"machine:    {cpu_model()}, {nproc()} cores")
        print(f"python:     {platform.python_version()}, PostgreSQL {server // 10000}")
        print(f"load:       {load_average(', ')} (1, 5, 15 min) at the start")
        _run(args.runs)
        print(f"load:       {load_average(', ')} (1, 5, 15 min) at the end")
    return 0


def _run(runs: int) -> None:
    from django.core.cache import caches
    from django.db import connection
    from django.test import Client

    from clubs.models import Club
    from ladder.replay import replay_ladder
    from ladder.store import dated
    from members.web import page_cache
    from tests.factories import make_club, make_history

    started = time.perf_counter()
    club = make_club(slug="bench-on-date", visibility=Club.Visibility.PUBLIC)
    make_history(
        club, events=EVENTS, players=PLAYERS, per_event=PER_EVENT, rounds=ROUNDS, start=START
    )
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    took = time.perf_counter() - started
    print(f"club:       {EVENTS} events, built and replayed in {took:.0f} s")

    days = {
        "day 10": START + dt.timedelta(days=10),
        "day 500": START + dt.timedelta(days=500),
        "day 990": START + dt.timedelta(days=990),
        "after last": START + dt.timedelta(days=EVENTS + 30),
    }
    print(f"\n{'ladder_on':<22} {'median':>9} {'worst':>9}  rows on the ladder")
    for label, day in days.items():
        rows = [s for _pid, s in dated.ladder_on(club, day) if s.rated_games > 0]
        timings = _times(runs, lambda day=day: dated.ladder_on(club, day))
        _line(label, timings, f"{len(rows)}")

    client = Client()
    page = f"/c/{club.slug}/?on="
    print(f"\n{'page ?on= (not kept)':<22} {'median':>9} {'worst':>9}")
    for label, day in days.items():

        def get(day: dt.date = day) -> None:
            caches[page_cache.CACHE_ALIAS].clear()  # built each time, never a kept page
            response = client.get(f"{page}{day.isoformat()}")
            assert response.status_code == 200, response.status_code
            assert response[page_cache.STATUS_HEADER] == "miss"

        _line(label, _times(runs, get), "")

    def today() -> None:
        caches[page_cache.CACHE_ALIAS].clear()
        assert client.get(f"/c/{club.slug}/").status_code == 200

    _line("today's page, for scale", _times(runs, today), "(no goal: the same table)")


def _times(runs: int, call: Callable[[], object]) -> list[float]:
    call()  # warm: the first call pays for imports and the connection
    return [seconds * 1000 for seconds in repeat(call, runs).walls]


def _line(label: str, timings: list[float], extra: str) -> None:
    median, worst = statistics.median(timings), max(timings)
    verdict = "" if median < TARGET_MS else f"  over the {TARGET_MS:.0f} ms goal"
    print(f"{label:<22} {median:>7.1f}ms {worst:>7.1f}ms  {extra}{verdict}")


if __name__ == "__main__":
    sys.exit(main())
