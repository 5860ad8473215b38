"""The names table of a real 284-entrant open, and a 1,000-entrant event's save.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_namestable DEBUG=true \\
        .venv/bin/python bench/names_page.py [--runs 3] [--no-browser]

With DATABASE_URL the named database is migrated and a club `bench-names` is made in it and
deleted at the end (the script refuses to run if that club exists); without it a temporary
SQLite file is used.

The club: ROSTER (3,000) synthetic names (bench/matching.py's generator) plus 60 % of the
Karl-Mala-Gedenkturnier 2005 field (Swiss-Manager, 284 players, 9 rounds, read from
../shared/trf-corpus) as a director's roster might spell them, every player with a rating
and games, and an earlier published event most of them played (so each candidate has a last
event). The event: that real file, imported as a draft.

Measured, `--runs` times each, the median shown:
  names GET    the table of every unconfirmed name, server side (test client, signed in)
  first paint  the same page in Chromium (Playwright, one gunicorn worker of this database):
               navigation start to first-contentful-paint, and to the load event
  names POST   the table saved with the choices it shows, undecided names as new players,
               server side, then undone for the next run
  bulk POST    "accept every same-name link", server side, then undone
Then a generated 1,000-entrant, 11-round TRF is imported and its whole table saved once.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _large_event():
    """bench/large_event.py, for its helpers (bench/ is not a package, and its matching.py
    would shadow the project's matching package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_large_event", ROOT / "bench" / "large_event.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


KARL_MALA = ROOT.parent / "shared" / "trf-corpus" / "karl_mala_gedenkturnier_2005.trf"
ROSTER = 3_000
KNOWN_SHARE = 0.6
SLUG = "bench-names"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    temp_dir = None
    if not os.environ.get("DATABASE_URL"):
        temp_dir = tempfile.TemporaryDirectory(prefix="bench-names-")
        os.environ["DATABASE_URL"] = f"sqlite:///{temp_dir.name}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)  # the on-commit replay runs in-process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    bench_module = _large_event().bench_module

    settings.DEBUG = False
    try:
        call_command("migrate", verbosity=0, interactive=False)
        bench_module("import_event").print_machine(connection)
        run(args.runs, browser=not args.no_browser)
    finally:
        connection.close()
        if temp_dir is not None:
            temp_dir.cleanup()
    return 0


def run(runs: int, *, browser: bool) -> None:
    import datetime as dt

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse
    from django.utils.http import urlencode

    from clubs.events import drafts as event_drafts
    from clubs.events import results
    from clubs.importers import parse_file
    from clubs.models import Club, ClubRole, Entry, Event, Player, User

    large_event = _large_event()
    bench_module, names_form = large_event.bench_module, large_event.names_form
    from matching import name_key

    generators = bench_module("matching")
    trf_file = bench_module("import_event").trf_file

    if Club.objects.filter(slug=SLUG).exists():
        raise SystemExit(f"a club {SLUG!r} exists already in this database; not touching it")
    rng = random.Random(2026)
    imported = parse_file(KARL_MALA.read_bytes(), "trf")
    file_names = [p.name for p in imported.players]
    known = rng.sample(file_names, int(len(file_names) * KNOWN_SHARE))
    # The roster spells a known player as a director might: "Vasquez, Rodrigo" is
    # "Rodrigo Vasquez" (same name, preselected), or has a typo or an initial (a decision).
    roster_names = {name_key(n): n for n in generators.synthetic_roster(ROSTER, rng)}
    for name in known:
        last, _, first = name.partition(",")
        spelt = f"{first.strip()} {last.strip()}" if first else name
        if rng.random() < 0.3:
            spelt = generators.respelt(spelt, rng)
        roster_names.setdefault(name_key(spelt), spelt)

    user = User.objects.create_user("bench-names@example.org", "a-long-bench-password")
    club = Club.objects.create(slug=SLUG, name="Bench names club")
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    client = Client()
    client.force_login(user)
    rows: list[tuple[str, list[float], int, str]] = []

    def measure(step: str, work: Callable, note: Callable = lambda value: "", undo=None):
        times, queries, value = [], 0, None
        for _ in range(runs):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                value = work()
                times.append(time.perf_counter() - start)
            queries = len(captured.captured_queries)
            if undo is not None:
                undo()
        rows.append((step, times, queries, note(value)))
        return value

    def post(url: str, data: dict[str, str]):
        return client.post(url, urlencode(data), content_type="application/x-www-form-urlencoded")

    def page(response) -> str:
        assert response.status_code in {200, 302}, (response.status_code, response.content[:300])
        return f"{response.status_code}, {len(response.content) // 1024} KiB"

    try:
        players = Player.objects.bulk_create(
            (
                Player(
                    club=club,
                    name=name,
                    name_key=name_key(name),
                    rating=rng.randint(1100, 2500),
                    rated_games=rng.randint(1, 200),
                    provisional=False,
                )
                for name in roster_names.values()
            ),
            batch_size=2000,
        )
        earlier = Event.objects.create(
            club=club, name="Winter open", date=dt.date(2004, 12, 1), status="published"
        )
        Entry.objects.bulk_create(
            (
                Entry(event=earlier, typed_name=p.name, player=p)
                for p in players
                if rng.random() < 0.8
            ),
            batch_size=2000,
        )
        if connection.vendor == "postgresql":
            # A live database's tables are analysed by autovacuum; fresh bulk-loaded ones
            # are not yet, and the planner would guess.
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE clubs_player, clubs_entry, clubs_event")
        client.get(reverse("event_list", args=[club.slug]))  # loads the URLs, not measured
        details = event_drafts.EventDetails("Karl-Mala-Gedenkturnier", dt.date(2005, 6, 1))
        event = results.create_draft_from_import(club, imported, details, user)
        args = [club.slug, event.pk]
        names_url = reverse("event_names", args=args)
        client.get(names_url)  # prepares the roster once, as any earlier page of the club would

        def unlink() -> None:
            made = list(
                event.entries.filter(player__created_at__gte=event.created_at).values_list(
                    "player_id", flat=True
                )
            )
            event.entries.update(player=None)
            Player.objects.filter(pk__in=made).delete()

        shown = measure("names GET (284 rows)", lambda: client.get(names_url), page)
        form = names_form(shown.content.decode(), names_url)

        def save():
            form["version"] = str(Event.objects.get(pk=event.pk).edit_version)
            return post(names_url, form)

        measure("names POST (shown choices, undecided ones new)", save, page, undo=unlink)

        def bulk():
            version = Event.objects.get(pk=event.pk).edit_version
            data = {"version": str(version), "action": "same_name", "show": "open"}
            return post(reverse("event_names_bulk", args=args), data)

        measure("bulk POST (every same-name link)", bulk, page, undo=unlink)
        paint = first_paint(client, names_url, runs) if browser else None

        # A 1,000-entrant event: generated names, 70 % of them roster players respelt.
        field = [
            generators.respelt(n, rng)[:33] for n in rng.sample(list(roster_names.values()), 700)
        ]
        field += [f"Newcomer{n:04d}, Bench" for n in range(300)]
        field = list({name_key(n): n for n in field}.values())
        field = field[: len(field) // 2 * 2]
        big = results.create_draft_from_import(
            club,
            parse_file(trf_file(field, rng, 11), "trf"),
            event_drafts.EventDetails("Bench 1,000", dt.date(2030, 6, 1)),
            user,
        )
        big_url = reverse("event_names", args=[club.slug, big.pk])
        runs_before, runs = runs, 1
        big_page = measure(f"names GET ({len(field)} rows)", lambda: client.get(big_url), page)
        big_form = names_form(big_page.content.decode(), big_url)
        big_form["version"] = str(Event.objects.get(pk=big.pk).edit_version)
        measure(f"names POST ({len(field)} rows)", lambda: post(big_url, big_form), page)
        runs = runs_before
        left = big.entries.filter(player__isnull=True).count()

        print(f"event:    {KARL_MALA.name}, {len(file_names)} entrants; roster {len(players)}")
        print()
        print(f"| step | ms (median of {runs}) | queries | response |")
        print("|---|---:|---:|---|")
        for step, times, queries, note in rows:
            median = statistics.median(times) * 1000
            print(f"| {step} | {median:,.0f} | {queries} | {note} |")
        if paint is not None:
            fcp, load = paint
            print(f"| first contentful paint in Chromium (284 rows) | {fcp:,.0f} | – | – |")
            print(f"| load event in Chromium (284 rows) | {load:,.0f} | – | – |")
        print(f"\n1,000-entrant event: {left} names left unconfirmed after the save")
    finally:
        Entry.objects.filter(event__club=club).delete()
        Player.objects.filter(club=club).delete()
        club.delete()
        user.delete()


def first_paint(client, path: str, runs: int) -> tuple[float, float] | None:
    """Median first-contentful-paint and load-event times of `path` in Chromium, served by
    one gunicorn worker of this database (as production serves it, static files by
    WhiteNoise), signed in with the test client's session."""
    import shutil
    import socket
    import subprocess

    from django.conf import settings

    chromium = shutil.which("chromium")
    if chromium is None:
        print("no chromium: first paint not measured")
        return None
    from playwright.sync_api import sync_playwright

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "-b", f"127.0.0.1:{port}",
         "-w", "1", "--log-level", "warning"],
        cwd=ROOT,
        env={**os.environ, "ALLOWED_HOSTS": "127.0.0.1"},
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    paints, loads, bytes_at = [], [], []
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            context = browser.new_context()
            cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}
            context.add_cookies([cookie])
            tab = context.new_page()
            tab.goto(base + path)  # the worker's first request prepares the roster
            for _ in range(runs):
                tab.goto(base + path, wait_until="load")
                timing = tab.evaluate(
                    """() => {
                        const nav = performance.getEntriesByType('navigation')[0];
                        return {
                            fcp: performance.getEntriesByName('first-contentful-paint')[0]
                                .startTime,
                            load: nav.loadEventEnd, first: nav.responseStart,
                            last: nav.responseEnd,
                        };
                    }"""
                )
                paints.append(timing["fcp"])
                loads.append(timing["load"])
                bytes_at.append(f"{timing['first']:.0f}-{timing['last']:.0f}")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    print("first to last byte of each run (ms):", ", ".join(bytes_at))
    return statistics.median(paints), statistics.median(loads)


if __name__ == "__main__":
    sys.exit(main())
