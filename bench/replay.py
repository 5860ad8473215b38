"""Ladder replay timings on a synthetic club of 1,000 events and 100,000 games.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_dev DEBUG=true \\
        .venv/bin/python bench/replay.py [--profile] [--keep]

PostgreSQL only (the replay's advisory lock, COPY and index probes in
ladder/store.py are what production runs). The script never touches the
database DATABASE_URL names: on the same server it drops and creates a
database of its own, `clubpages_bench`,
migrates it, fills it with bulk inserts and drops it again at the end (`--keep`
leaves it for inspection). Set BENCH_DB to use another name, for instance when
another bench may run on the same server at the same time.

The club: 400 players, 1,000 published events on consecutive days, each with
40 of the players (a fixed-seed sample), 5 rounds of 20 boards: 100,000 games,
entries linked, results drawn from 1-0, ½-½, 0-1. Timed, each 3 times, median
reported:

  (a) the pure fold: ladder.history.rate_history over load_inputs(ladder).events,
      and load_inputs(ladder) on its own;
  (b) replay_ladder(club, full=True);
  (c) a correction to the first game of the last event: the result changes and
      club_changed(LadderInput()) runs in one transaction; timed from just before the
      commit until the ladder is rebuilt (without REDIS_URL the on-commit job
      replays in-process; replay_ladder is then called once more, a no-op check);
  (d) the same for the first game of the first event.

Before each section (untimed) the bench database gets VACUUM ANALYZE, the state
autovacuum keeps a live database in. Query logging is switched off
(settings.DEBUG = False after start-up), as in production: DEBUG=true is only
there so settings load without SECRET_KEY. (c) and (d) pass the event's date as
the `from_date` hint. `--profile` adds a cProfile of one full replay, one last-event
correction and one first-event correction. After (d) the bench prints (a), (b) and (d)
side by side, wall and CPU time of this process (the database's own CPU is not in it),
and (d)/(b): the goal is a first-event correction at most 1.5 times a full replay
(issue 34). (d) keeps the standings of the corrected event; each later event's, whose
rating lines moved, is kept on its page's first read: (d') times that for one event.
The load average is printed before and after: the timings mean little on a
machine that is busy with something else.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import platform
import pstats
import shlex
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.django_env import maintenance, migrate, setup_django  # noqa: E402
from bench.kit.machine import cpu_model, load_average, nproc  # noqa: E402
from bench.kit.measure import repeat  # noqa: E402

# Overridable so two benches on one server do not drop each other's database.
BENCH_DB = os.environ.get("BENCH_DB", "clubpages_bench")
EVENTS, PLAYERS, PER_EVENT, ROUNDS = 1_000, 400, 40, 5
REPEAT = 3
TARGET_FULL_S = 2.0
TARGET_LAST_CORRECTION_S = 0.100
TARGET_FIRST_RATIO = 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", action="store_true", help="cProfile (b) and (c) once each")
    parser.add_argument("--keep", action="store_true", help=f"do not drop {BENCH_DB} at the end")
    args = parser.parse_args()

    source_url = os.environ.get("DATABASE_URL", "")
    if urlsplit(source_url).scheme not in ("postgres", "postgresql"):
        print(
            "bench/replay.py needs PostgreSQL: set DATABASE_URL=postgres://user@host:5432/name "
            f"(a database {BENCH_DB!r} is created beside it on the same server).",
            file=sys.stderr,
        )
        return 1
    if urlsplit(source_url).path.lstrip("/") == BENCH_DB:
        print(f"Point DATABASE_URL at another database: {BENCH_DB} is dropped.", file=sys.stderr)
        return 1
    command = shown_command(source_url)
    bench_url = recreate_bench_database(source_url)

    # Settings read both variables at import: point Django at the bench database,
    # and run queued jobs in-process so (c) and (d) measure the replay itself.
    os.environ["DATABASE_URL"] = bench_url
    os.environ.pop("REDIS_URL", None)
    setup_django()  # no query log: the numbers production would see
    from django.db import connection

    try:
        migrate()
        print_machine(command, connection)
        run_benchmark(args.profile)
        print(f"load:       {load_average(', ')} (1, 5, 15 min) at the end")
    finally:
        connection.close()
        if not args.keep:
            drop_bench_database(source_url)
    return 0


def shown_command(url: str) -> str:
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        netloc = netloc.replace(f":{parts.password}@", ":***@")
    env = [f"DATABASE_URL={urlunsplit(parts._replace(netloc=netloc))}"]
    if "BENCH_DB" in os.environ:
        env.append(f"BENCH_DB={os.environ['BENCH_DB']}")
    if "DEBUG" in os.environ:
        env.append(f"DEBUG={os.environ['DEBUG']}")
    python = os.path.relpath(sys.executable, Path.cwd())
    return " ".join([*env, python, *map(shlex.quote, sys.argv)])


def recreate_bench_database(url: str) -> str:
    maintenance(url, f'DROP DATABASE IF EXISTS "{BENCH_DB}"', f'CREATE DATABASE "{BENCH_DB}"')
    return urlunsplit(urlsplit(url)._replace(path=f"/{BENCH_DB}"))


def drop_bench_database(url: str) -> None:
    maintenance(url, f'DROP DATABASE IF EXISTS "{BENCH_DB}"')


def print_machine(command: str, connection) -> None:
    import django

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg_version = cursor.fetchone()[0]
    print(f"command:    {command}")
    print(
        f"machine:    nproc={nproc()}, CPU {cpu_model()}, "
        f"load average {load_average(', ')} at the start"
    )
    print(
        f"software:   PostgreSQL {pg_version} (same host), Python {platform.python_version()}, "
        f"Django {django.get_version()}"
    )


def build_club():
    """The synthetic club, with bulk inserts; returns (club, first event, last event)."""
    from django.db import transaction

    from clubs.models import Club, Entry, Event, Game, Player
    from ladder.changes import LadderInput, club_changed
    from tests.factories import make_history

    with transaction.atomic():
        club = Club.objects.create(slug="bench", name="Bench club")
        start = time.perf_counter()
        # Consecutive days, so the ladder order is the creation order.
        events = make_history(
            club, events=EVENTS, players=PLAYERS, per_event=PER_EVENT, rounds=ROUNDS, seed=20260101
        )
    build_s = time.perf_counter() - start
    start = time.perf_counter()
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    first_replay_s = time.perf_counter() - start  # the on-commit job replays in-process
    print(
        f"data:       {Player.objects.filter(club=club).count():,} players, "
        f"{Event.objects.filter(club=club).count():,} events, "
        f"{Entry.objects.filter(event__club=club).count():,} entries, "
        f"{Game.objects.filter(event__club=club).count():,} games "
        f"(bulk inserts {build_s:.1f} s, first replay {first_replay_s:.2f} s)"
    )
    return club, events[0], events[-1]


def vacuum_analyze() -> None:
    """Untimed, before each section: the state autovacuum keeps a busy database in.

    Without it, freshly bulk-inserted tables have no statistics and every full
    replay leaves 40,000 dead result rows behind, which the next section would
    pay for (a last-event correction's DISTINCT ON then scans ~10x the rows).
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def report(label: str, runs: list[float], note: str = "", cpus: list[float] | None = None) -> float:
    """The median line of a section: its runs in milliseconds, the median CPU time of this
    process, and a note on the last run."""
    median = statistics.median(runs)
    each = ", ".join(f"{r * 1000:,.0f}" for r in runs)
    cpu = f", CPU {statistics.median(cpus) * 1000:,.0f}" if cpus else ""
    extra = f"  [{note}]" if note else ""
    print(f"{label:<52} median {median * 1000:8,.1f} ms{cpu}  (runs: {each} ms){extra}")
    return median


def timed(
    label: str, action: Callable[[], object], note: Callable[[], str] | None = None
) -> tuple[float, float]:
    """(median wall, median CPU) of REPEAT runs of `action`."""
    notes = []
    runs = repeat(action, REPEAT, between=None if note is None else lambda: notes.append(note()))
    wall = report(label, runs.walls, notes[-1] if notes else "", runs.cpus)
    return wall, statistics.median(runs.cpus)


def run_benchmark(profile: bool) -> None:
    from django.db import transaction

    from clubs.models import Club, Event, Game
    from clubs.results import Result
    from ladder.changes import LadderInput, club_changed
    from ladder.history import rate_history
    from ladder.models import LadderReplay
    from ladder.replay import keep_standings, load_inputs, replay_ladder, verify_ladder
    from ladder.store.standings import Which

    print("change:     club_changed(club_id, LadderInput(from_date=<event date>))")
    club, first_event, last_event = build_club()
    club.refresh_from_db()
    assert club.ladder_is_current, "the on-commit replay did not run"

    def last_replay() -> str:
        replay = LadderReplay.objects.filter(club=club).order_by("-pk").first()
        return f"from position {replay.from_position}, {replay.events_rated} events rated"

    print()
    vacuum_analyze()
    ladder = club.first_ladder()  # the club's one ladder
    inputs = load_inputs(ladder)
    timed("(a) load_inputs(ladder)", lambda: load_inputs(ladder))
    arithmetic = timed(
        "(a) rate_history, all events in memory",
        lambda: rate_history(inputs.policy, inputs.settings, inputs.events, inputs.initial),
    )
    vacuum_analyze()
    full = timed(
        "(b) replay_ladder(club, full=True)",
        lambda: replay_ladder(club.pk, full=True),
        last_replay,
    )

    def correction(event) -> Callable[[], tuple[float, float]]:
        """A function that corrects the event's first game and returns (wall, CPU) seconds
        from the commit until the ladder is rebuilt and the standings are kept (the job,
        ladder.replay.bring_up_to_date)."""
        game = Game.objects.filter(event=event).order_by("round", "id").first()
        cycle = [Result.DRAW, Result.BLACK_WIN, Result.WHITE_WIN]

        def correct() -> float:
            current = Game.objects.get(pk=game.pk).result
            new = next(r for r in cycle if r.value != current)
            with transaction.atomic():
                Game.objects.filter(pk=game.pk).update(result=new)
                club_changed(club.pk, LadderInput(from_date=event.date))
                started, cpu = time.perf_counter(), time.process_time()
            # Committed; the on-commit job has replayed in-process (no REDIS_URL).
            replay_ladder(club.pk)  # a no-op check: nothing is left to rebuild
            return time.perf_counter() - started, time.process_time() - cpu

        return correct

    def still_current() -> None:
        club.refresh_from_db()
        assert club.ladder_is_current

    def correction_timed(label: str, event) -> tuple[float, float]:
        correct = correction(event)
        vacuum_analyze()
        # Each run times itself: from the commit until the ladder is rebuilt.
        runs = repeat(correct, REPEAT, between=still_current, keep=True)
        walls, cpus = [wall for wall, _cpu in runs.values], [cpu for _wall, cpu in runs.values]
        wall = report(label, walls, last_replay(), cpus)
        return wall, statistics.median(cpus)

    last, _ = correction_timed("(c) correction to the last event, commit -> rebuilt", last_event)
    first = correction_timed("(d) correction to the first event, commit -> rebuilt", first_event)
    print_ratios(arithmetic, full, first)

    # What (d) leaves for later: a later event's kept standings, whose rating lines moved, are
    # kept again on its page's first read (jobs.enqueue_event_standings), one event a run.
    later = iter(Event.objects.filter(club=club).order_by("date").values_list("pk", flat=True)[1:])

    def keep_one_later() -> None:
        assert keep_standings(club.pk, Which(event_id=next(later))) == 1

    timed("(d') after (d): one later event kept on first read", keep_one_later)

    # What a director's preview costs: one in-memory replay of everything, nothing written.
    from ladder.impact.what_if import settings_impact, write_impact
    from ladder.policies import get_policy

    vacuum_analyze()
    club = Club.objects.get(pk=club.pk)
    policy = get_policy("ladder")
    other = policy.parse_settings({"k_high": 32, "k_low": 16})
    timed(
        "(e) settings_impact: new K values, whole history",
        lambda: settings_impact(club, policy, other),
        lambda: f"{settings_impact(club, policy, other).moved} ratings move",
    )
    first_game = Game.objects.filter(event=first_event).order_by("round", "id").first()
    timed(
        "(f) write_impact: first event's first game corrected",
        lambda: write_impact(
            club.pk,
            # As a correction does: the write and its mark (which says which ladder moved).
            lambda: (
                Game.objects.filter(pk=first_game.pk).update(
                    result=Result.DRAW if first_game.result != Result.DRAW else Result.WHITE_WIN
                ),
                club_changed(club.pk, LadderInput(kinds=frozenset({first_event.kind}))),
            ),
        ),
    )

    club = Club.objects.get(pk=club.pk)
    differences = verify_ladder(club)
    print(f"\nverify_ladder after the corrections: {len(differences)} differences")
    print(
        f"targets:    full replay < {TARGET_FULL_S:.0f} s: "
        f"{'met' if full[0] < TARGET_FULL_S else 'MISSED'} ({full[0]:.2f} s); "
        f"last-event correction < {TARGET_LAST_CORRECTION_S * 1000:.0f} ms: "
        f"{'met' if last < TARGET_LAST_CORRECTION_S else 'MISSED'} ({last * 1000:.0f} ms)"
    )

    if profile:
        print_profile(
            "cProfile: replay_ladder(club, full=True)", lambda: replay_ladder(club.pk, full=True)
        )
        correct = correction(last_event)
        print_profile("cProfile: correction to the last event", correct)
        print_profile("cProfile: correction to the first event", correction(first_event))


def print_ratios(
    arithmetic: tuple[float, float], full: tuple[float, float], first: tuple[float, float]
) -> None:
    """(d) against (b) and (a), wall and CPU, from this one run: the goal is a correction to
    the first event (the replay and the standings it keeps) at most TARGET_FIRST_RATIO times
    a full replay of the ratings (issue 34)."""
    print("\nratios (median wall / median CPU of this process):")
    for label, (wall, cpu) in (
        ("(a) rating arithmetic", arithmetic),
        ("(b) full replay", full),
        ("(d) correction to the first event", first),
    ):
        print(f"  {label:<36} {wall:7.3f} s wall  {cpu:7.3f} s CPU")
    wall_ratio, cpu_ratio = first[0] / full[0], first[1] / full[1]
    print(
        f"  (d)/(b): {wall_ratio:.2f} wall, {cpu_ratio:.2f} CPU; "
        f"(d)/(a): {first[0] / arithmetic[0]:.2f} wall, {first[1] / arithmetic[1]:.2f} CPU; "
        f"(b)/(a): {full[0] / arithmetic[0]:.2f} wall, {full[1] / arithmetic[1]:.2f} CPU"
    )
    met = "met" if cpu_ratio <= TARGET_FIRST_RATIO else "MISSED"
    print(f"target:     (d) <= {TARGET_FIRST_RATIO}x (b) in CPU: {met} ({cpu_ratio:.2f})")


def print_profile(title: str, action: Callable[[], object], limit: int = 25) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    action()
    profiler.disable()
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer).strip_dirs().sort_stats("cumulative")
    stats.print_stats(limit)
    print(f"\n=== {title}")
    print(buffer.getvalue().strip())


if __name__ == "__main__":
    sys.exit(main())
