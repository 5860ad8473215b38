"""The names table of a real 284-entrant open, and a 1,000-entrant event's save.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_namestable DEBUG=true \\
        .venv/bin/python bench/names_page.py [--runs 3] [--no-browser]

With DATABASE_URL the named database is migrated and a club `bench-names` is made in it and
deleted at the end (the script refuses to run if that club exists); without it a temporary
SQLite file is used.

The club: ROSTER (3,000) synthetic names (bench/kit/names.py's generator) plus 60 % of the
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
import datetime as dt
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit.clubs import add_roster, directed_club  # noqa: E402
from bench.kit.director import Steps, names_form, page, post_form, signed_in  # noqa: E402
from bench.kit.django_env import in_process  # noqa: E402
from bench.kit.machine import print_software  # noqa: E402
from bench.kit.measure import row  # noqa: E402
from bench.kit.names import file_field, respelt, synthetic_roster, trf_file  # noqa: E402
from bench.kit.servers import free_port  # noqa: E402

KARL_MALA = ROOT.parent / "shared" / "trf-corpus" / "karl_mala_gedenkturnier_2005.trf"
ROSTER = 3_000
KNOWN_SHARE = 0.6
SLUG = "bench-names"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with in_process("bench-names-") as connection:
        print_software(connection)
        run(args.runs, browser=not args.no_browser)
    return 0


def run(runs: int, *, browser: bool) -> None:
    from django.db import connection
    from django.urls import reverse

    from clubs.models import Entry, Event, Player
    from directors.events import drafts as event_drafts
    from directors.events import results
    from directors.importers import parse_file
    from matching import name_key

    with directed_club(SLUG, "Bench names club", "bench-names@example.org") as (club, user):
        rng = random.Random(2026)
        imported = parse_file(KARL_MALA.read_bytes(), "trf")
        file_names = [p.name for p in imported.players]
        known = rng.sample(file_names, int(len(file_names) * KNOWN_SHARE))
        # The roster spells a known player as a director might: "Vasquez, Rodrigo" is
        # "Rodrigo Vasquez" (same name, preselected), or has a typo or an initial (a decision).
        roster_names = {name_key(n): n for n in synthetic_roster(ROSTER, rng)}
        for name in known:
            last, _, first = name.partition(",")
            spelt = f"{first.strip()} {last.strip()}" if first else name
            if rng.random() < 0.3:
                spelt = respelt(spelt, rng)
            roster_names.setdefault(name_key(spelt), spelt)

        client = signed_in(user)
        steps = Steps()
        measure = steps.measure
        players = add_roster(
            club,
            roster_names.values(),
            lambda name: {
                "rating": rng.randint(1100, 2500),
                "rated_games": rng.randint(1, 200),
                "provisional": False,
            },
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

        shown = measure("names GET (284 rows)", lambda: client.get(names_url), page, runs=runs)
        form = names_form(shown.content.decode(), names_url)

        def save():
            form["version"] = str(Event.objects.get(pk=event.pk).edit_version)
            return post_form(client, names_url, form)

        measure(
            "names POST (shown choices, undecided ones new)", save, page, runs=runs, undo=unlink
        )

        def bulk():
            version = Event.objects.get(pk=event.pk).edit_version
            data = {"version": str(version), "action": "same_name", "show": "open"}
            return post_form(client, reverse("event_names_bulk", args=args), data)

        measure("bulk POST (every same-name link)", bulk, page, runs=runs, undo=unlink)
        paint = first_paint(client, names_url, runs) if browser else None

        # A 1,000-entrant event: generated names, 70 % of them roster players respelt.
        newcomers = [f"Newcomer{n:04d}, Bench" for n in range(300)]
        field = file_field(rng.sample(list(roster_names.values()), 700), newcomers, rng)
        big = results.create_draft_from_import(
            club,
            parse_file(trf_file(field, rng, 11), "trf"),
            event_drafts.EventDetails("Bench 1,000", dt.date(2030, 6, 1)),
            user,
        )
        big_url = reverse("event_names", args=[club.slug, big.pk])
        big_page = measure(f"names GET ({len(field)} rows)", lambda: client.get(big_url), page)
        big_form = names_form(big_page.content.decode(), big_url)
        big_form["version"] = str(Event.objects.get(pk=big.pk).edit_version)
        measure(
            f"names POST ({len(field)} rows)", lambda: post_form(client, big_url, big_form), page
        )
        left = big.entries.filter(player__isnull=True).count()

        print(f"event:    {KARL_MALA.name}, {len(file_names)} entrants; roster {len(players)}")
        print()
        steps.print_table(f"ms (median of {runs})")
        if paint is not None:
            fcp, load = paint
            print(row("first contentful paint in Chromium (284 rows)", f"{fcp:,.0f}", "–", "–"))
            print(row("load event in Chromium (284 rows)", f"{load:,.0f}", "–", "–"))
        print(f"\n1,000-entrant event: {left} names left unconfirmed after the save")


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

    port = free_port()
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
