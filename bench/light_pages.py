"""Pages that stay light as a history grows (issues 27 and 34): a 3,000-event player, a
284-entrant open and a 2,000-entrant event, the events list of 3,000 events and the ladder,
roster and ladder.json of 2,284 players, built on every request, beside a bare Django page.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_pagesize DEBUG=true \\
        .venv/bin/python bench/light_pages.py [--seconds 10] [--connections 4] [--port 18327] \\
        [--pages player]

Makes, once, in DATABASE_URL's PostgreSQL database (later runs reuse them):
  bench-history  60 players, 3,000 published events on consecutive days up to yesterday,
                 8 entrants and 3 rounds each; its first player plays every one
  bench-open     the Karl-Mala-Gedenkturnier 2005 (Swiss-Manager TRF, 284 players, 9 rounds,
                 ../shared/trf-corpus/), every entrant a new player, published and replayed;
                 and a synthetic event of 2,000 entrants and 9 rounds, published and replayed

Then prints each page's size (plain and gzip) and its build time in this process (median
of three), and serves them with gunicorn (sync workers, one per core, DEBUG off,
PAGE_CACHE_SECONDS=0 so every request builds the page), beside bench/minimal_wsgi.py's bare
page (60 rows from the database through a template), measured one after the other by the
same client: `--connections` keep-alive connections from threads of this process, for
`--seconds` each after a second's warm-up. The client is Python: on 2 cores it takes CPU from
the server, more so for the fast bare page, so the ratios lean kind; the load average is
printed before and after. `--pages` keeps the pages whose names contain its text (the bare
page is always served); `--port` is the servers' port, for a run beside another bench.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clubs.models import Club

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit import clubs as bench_clubs  # noqa: E402
from bench.kit.django_env import in_process  # noqa: E402
from bench.kit.machine import load_average  # noqa: E402
from bench.kit.measure import repeat, row, table_head  # noqa: E402
from bench.kit.servers import Servers, deployment_env, gunicorn, http_status, rate  # noqa: E402

# ../shared beside the checkout, or beside the folder of worktrees (/work/wt/NAME).
SHARED = next(
    (p / "shared" for p in ROOT.parents if (p / "shared").is_dir()), ROOT.parent / "shared"
)
KARL_MALA = SHARED / "trf-corpus" / "karl_mala_gedenkturnier_2005.trf"
HISTORY, OPEN = "bench-history", "bench-open"
EVENTS, PLAYERS, PER_EVENT, ROUNDS = 3_000, 60, 8, 3
BIG_EVENT, BIG_ROUNDS = 2_000, 9
PORT = 18_327


def history_club() -> Club:
    from clubs.models import Club

    club = Club.objects.filter(slug=HISTORY).first()
    if club is not None:
        return club
    fields = {"name": "Bench History Chess Club", "visibility": "public"}
    sizes = (PLAYERS, EVENTS, PER_EVENT, ROUNDS)
    return bench_clubs.history_club(
        HISTORY, *sizes, days_apart=1, always_first=True, seed=27, digits=3, **fields
    )


def open_club() -> Club:
    from django.db import transaction

    from clubs.models import Club

    club = Club.objects.filter(slug=OPEN).first()
    if club is not None:
        return club
    with transaction.atomic():  # a run stopped half-way leaves no club without its events
        return _new_open_club()


def _new_open_club() -> Club:
    from clubs.models import Player
    from directors.events import drafts as event_drafts
    from directors.events import flow, results
    from directors.importers import parse_file
    from ladder.replay import bring_up_to_date
    from tests.factories import make_club, make_history

    club = make_club(slug=OPEN, name="Bench Open Chess Club", visibility="public")
    imported = parse_file(KARL_MALA.read_bytes(), "trf")
    details = event_drafts.EventDetails("Karl-Mala-Gedenkturnier", dt.date(2005, 6, 1))
    event = results.create_draft_from_import(club, imported, details, None)
    for entry in event.entries.all():
        entry.player = Player.objects.create(club=club, name=entry.typed_name)
        entry.save(update_fields=["player"])
    event.refresh_from_db()
    flow.publish_event(event.pk, event.edit_version, None)
    make_history(
        club,
        events=1,
        players=BIG_EVENT,
        per_event=BIG_EVENT,
        rounds=BIG_ROUNDS,
        seed=2000,
        start=dt.date(2006, 1, 1),
    )
    bring_up_to_date(club.pk, full=True)
    return club


def paths() -> dict[str, str]:
    from django.db import connection

    from ladder.replay import keep_standings

    history, open_ = history_club(), open_club()
    for club in (history, open_):
        # A database made before the events' standings were kept gets them as a job would.
        kept = keep_standings(club.pk)
        print(f"{club.slug}: {kept} events' standings kept now")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    busiest = history.players.order_by("id").first()
    assert busiest is not None
    karl, big = open_.events.published().in_ladder_order()
    player = f"/c/{history.slug}/players/{busiest.pk}/"
    return {
        "player page, 3,000 events": player,
        f"a year page ({dt.date.today().year - 3})": f"{player}?year={dt.date.today().year - 3}",
        "event page, 284 entrants (Karl-Mala)": f"/c/{open_.slug}/events/{karl.pk}/",
        "event page, 2,000 entrants × 9 rounds": f"/c/{open_.slug}/events/{big.pk}/",
        # Their rounds and wall charts, pages of their own since issue 27.
        "wall chart, 284 entrants": f"/c/{open_.slug}/events/{karl.pk}/wallchart/",
        "wall chart, 2,000 entrants (page 1)": f"/c/{open_.slug}/events/{big.pk}/wallchart/",
        "rounds, 2,000 entrants (round 1)": f"/c/{open_.slug}/events/{big.pk}/rounds/",
        # The whole-club pages (issue 34): a club of 3,000 events, a ladder of 2,284 players.
        "events list, 3,000 events": f"/c/{history.slug}/events/",
        "ladder, 2,284 players": f"/c/{open_.slug}/",
        "roster, 2,284 players": f"/c/{open_.slug}/players/",
        "ladder.json, 2,284 players": f"/c/{open_.slug}/ladder.json",
    }


def built_here(urls: dict[str, str]) -> None:
    from django.test import Client

    client = Client()
    heading = "built in this process (median of 3)"
    print(table_head("page", "plain", "gzip", heading, align="lrrr"))
    for name, url in urls.items():
        runs = repeat(lambda url=url: client.get(url), 3, keep=True)
        for response in runs.values:
            assert response.status_code == 200, (url, response.status_code)
        body = runs.value.content
        plain, packed = f"{len(body) / 1000:,.0f} KB", f"{len(gzip.compress(body)) / 1000:,.0f} KB"
        print(row(name, plain, packed, f"{runs.median * 1000:,.0f} ms"))


def served(app: str, urls: dict[str, str], seconds: float, connections: int) -> dict[str, tuple]:
    """`urls` served by gunicorn (sync workers, one per core) on PORT, one after the other."""
    env = deployment_env(os.environ["DATABASE_URL"], "", "bench-only-not-secret",
                         PAGE_CACHE_SECONDS="0")  # fmt: skip
    env.pop("REDIS_URL")  # no queue: nothing here writes
    servers, base, code = Servers("light-pages"), f"http://127.0.0.1:{PORT}", 1
    servers.collectstatic(env)  # the manifest production needs
    servers.spawn("gunicorn", gunicorn(PORT, os.cpu_count() or 1, app), env)
    try:
        servers.wait_until(lambda: http_status(f"{base}/", timeout=5) != 0, 20, "gunicorn")
        figures = {}
        for name, url in urls.items():
            rate(base, url, 1, connections)  # warm-up: imports, the roster, prepared statements
            figures[name] = rate(base, url, seconds, connections)
            per_second, median = figures[name]
            print(f"  {name}: {per_second:,.1f}/s, median {median * 1000:,.1f} ms", flush=True)
        code = 0
        return figures
    finally:
        servers.stop()
        servers.finish(code)


def main() -> int:
    global PORT
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument(
        "--port", type=int, default=PORT, help="for the servers (another bench may hold one)"
    )
    parser.add_argument(
        "--pages",
        default="",
        help="serve only the pages whose names contain this (the bare page always)",
    )
    args = parser.parse_args()
    PORT = args.port
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database the bench may add clubs to")
    os.environ["PAGE_CACHE_SECONDS"] = "0"  # every page built, here as in the servers
    # DEBUG as the environment says (the docstring's DEBUG=true): the figures so far were so.
    with in_process("light-pages-", quiet_queries=False):
        urls = paths()
        print(f"machine: {os.cpu_count()} cores, load {load_average()}")
        urls = {name: url for name, url in urls.items() if args.pages in name}
        built_here(urls)
        print("served, built on every request:")
        bare_page = {"bare page": "/"}
        bare = served("bench.minimal_wsgi:application", bare_page, args.seconds, args.connections)
        pages = served("config.wsgi:application", urls, args.seconds, args.connections)
    print(table_head("page", "requests/s", "median", "vs. the bare page", align="lrrr"))
    base = bare["bare page"][0]
    for name, (per_second, median) in {**bare, **pages}.items():
        ratio = f"{per_second / base:.3f}"
        print(row(name, f"{per_second:,.1f}", f"{median * 1000:,.1f} ms", ratio))
    print(f"load at the end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
