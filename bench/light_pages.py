"""Pages that stay light as a history grows (issue 27): a 3,000-event player, a 284-entrant
open and a 2,000-entrant event, built on every request, beside a bare Django page.

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
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clubs.models import Club

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
KARL_MALA = ROOT.parent.parent / "shared" / "trf-corpus" / "karl_mala_gedenkturnier_2005.trf"
HISTORY, OPEN = "bench-history", "bench-open"
EVENTS, PLAYERS, PER_EVENT, ROUNDS = 3_000, 60, 8, 3
BIG_EVENT, BIG_ROUNDS = 2_000, 9
PORT = 18_327


def history_club() -> Club:
    from clubs.models import Club, Player
    from ladder.replay import replay_ladder
    from tests.factories import make_club, make_history

    club = Club.objects.filter(slug=HISTORY).first()
    if club is not None:
        return club
    club = make_club(slug=HISTORY, name="Bench History Chess Club", visibility="public")
    roster = Player.objects.bulk_create(
        Player(club=club, name=f"History Member {n:03d}", junior=n % 7 == 0) for n in range(PLAYERS)
    )
    make_history(
        club,
        events=EVENTS,
        players=0,
        per_event=PER_EVENT,
        rounds=ROUNDS,
        seed=27,
        roster=roster,
        start=dt.date.today() - dt.timedelta(days=EVENTS),
        always=roster[:1],
    )
    replay_ladder(club.pk, full=True)
    return club


def open_club() -> Club:
    from clubs.events import drafts as event_drafts
    from clubs.events import publishing, results
    from clubs.importers import parse_file
    from clubs.models import Club, Player
    from ladder.replay import replay_ladder
    from tests.factories import make_club, make_history

    club = Club.objects.filter(slug=OPEN).first()
    if club is not None:
        return club
    club = make_club(slug=OPEN, name="Bench Open Chess Club", visibility="public")
    imported = parse_file(KARL_MALA.read_bytes(), "trf")
    details = event_drafts.EventDetails("Karl-Mala-Gedenkturnier", dt.date(2005, 6, 1))
    event = results.create_draft_from_import(club, imported, details, None)
    for entry in event.entries.all():
        entry.player = Player.objects.create(club=club, name=entry.typed_name)
        entry.save(update_fields=["player"])
    event.refresh_from_db()
    publishing.publish_event(event.pk, event.edit_version, None)
    make_history(
        club,
        events=1,
        players=BIG_EVENT,
        per_event=BIG_EVENT,
        rounds=BIG_ROUNDS,
        seed=2000,
        start=dt.date(2006, 1, 1),
    )
    replay_ladder(club.pk, full=True)
    return club


def paths() -> dict[str, str]:
    from django.db import connection

    history, open_ = history_club(), open_club()
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
    }


def in_process(urls: dict[str, str]) -> None:
    from django.test import Client

    client = Client()
    print("| page | plain | gzip | built in this process (median of 3) |")
    print("|---|---:|---:|---:|")
    for name, url in urls.items():
        times = []
        for _ in range(3):
            started = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - started)
            assert response.status_code == 200, (url, response.status_code)
        body = response.content
        print(
            f"| {name} | {len(body) / 1000:,.0f} KB | {len(gzip.compress(body)) / 1000:,.0f} KB "
            f"| {statistics.median(times) * 1000:,.0f} ms |"
        )


def rate(path: str, seconds: float, connections: int) -> tuple[float, float]:
    """Requests a second and the median latency, from `connections` keep-alive clients."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        mine = []
        while time.monotonic() < stop:
            started = time.perf_counter()
            conn.request("GET", path, headers={"Host": "127.0.0.1"})
            response = conn.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"{path}: {response.status}")
            mine.append(time.perf_counter() - started)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(connections)]
    began = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return len(latencies) / (time.monotonic() - began), statistics.median(latencies)


def served(app: str, urls: dict[str, str], seconds: float, connections: int) -> dict[str, tuple]:
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        "PAGE_CACHE_SECONDS": "0",
    }
    env.pop("REDIS_URL", None)
    manage = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
    subprocess.run(manage, cwd=ROOT, env=env, check=True)  # the manifest production needs
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), app, "--bind", f"127.0.0.1:{PORT}", "--workers", str(os.cpu_count())]
    server = subprocess.Popen([*command, "--log-level", "warning"], cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                probe = http.client.HTTPConnection("127.0.0.1", PORT, timeout=5)
                probe.request("GET", "/", headers={"Host": "127.0.0.1"})
                probe.getresponse().read()
                break
            except OSError:
                time.sleep(0.2)
        figures = {}
        for name, url in urls.items():
            rate(url, 1, connections)  # warm-up: imports, the roster, prepared statements
            figures[name] = rate(url, seconds, connections)
            per_second, median = figures[name]
            print(f"  {name}: {per_second:,.1f}/s, median {median * 1000:,.1f} ms", flush=True)
        return figures
    finally:
        server.terminate()
        server.wait()


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
    os.environ.pop("REDIS_URL", None)  # the replays run in-process
    os.environ["PAGE_CACHE_SECONDS"] = "0"  # every page built, here as in the servers
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    urls = paths()
    load = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores, load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    urls = {name: url for name, url in urls.items() if args.pages in name}
    in_process(urls)
    print("served, built on every request:")
    bare_page = {"bare page": "/"}
    bare = served("bench.minimal_wsgi:application", bare_page, args.seconds, args.connections)
    pages = served("config.wsgi:application", urls, args.seconds, args.connections)
    print("| page | requests/s | median | vs. the bare page |")
    print("|---|---:|---:|---:|")
    base = bare["bare page"][0]
    for name, (per_second, median) in {**bare, **pages}.items():
        print(f"| {name} | {per_second:,.1f} | {median * 1000:,.1f} ms | {per_second / base:.3f} |")
    load = os.getloadavg()
    print(f"load at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
