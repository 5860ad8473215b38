"""Mixed load on a real deployment: gunicorn, one rq worker, PostgreSQL and Redis, on loopback.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_load \\
    REDIS_URL=redis://127.0.0.1:6379/11 DEBUG=true \\
        .venv/bin/python bench/load.py [--duration 60] [--connections 32]

The database DATABASE_URL names is DROPPED and created again (its name must contain "load",
so a development database is never the one dropped), migrated and filled: the 500-player,
300-event club of bench/sample_clubs.py, two small clubs (one unlisted, one on the HSB
policy), every ladder replayed, a director who owns all three, draft events for uploads.

gunicorn (3 sync workers as in production, DEBUG off, billing on with a test webhook secret)
and one `manage.py rqworker default uploads` serve it while, for --duration seconds:

- --connections threads view anonymous pages without pause: the ladder, a player, an event,
  the roster, the events list, ladder.json, of the large club (half) or a small one;
- a signed-in director pastes one correction a second (an event's games as CSV with redrawn
  results, for its current edit version) and confirms it on the page that shows what it would
  move, as a published event's change asks: it lands, and the worker replays;
- another uploads a small CSV or TRF into a draft every two seconds;
- one signed Stripe webhook a second (an invoice.paid for a subscription no club has).

Writes come at a set pace, as on a real site: directors publish no more because more members
read. With DEBUG off the session and CSRF cookies are Secure; the client sends them over
loopback anyway, standing in for a deployment's TLS proxy.

Reported: requests and their rate, status codes, page-view p50/p95/p99 overall and per page,
page-cache hits, write outcomes, CPU per process group, the worker's RSS, and whether every
ladder is current once the queue has drained (Club.ladder_is_current and
`verify_ladder --all`). Exits 1 on any 5xx or transport error, a page-view p99 of 250 ms or
more, or a ladder left out of date. The database is dropped at the end; the server and worker
logs are kept (and their folder printed) only when the run fails.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit import clubs as bench_clubs  # noqa: E402
from bench.kit.django_env import throwaway_database  # noqa: E402
from bench.kit.machine import load_average, print_command_and_machine, rss_kb  # noqa: E402
from bench.kit.measure import ms, paced, percentile  # noqa: E402
from bench.kit.names import club_night_csv  # noqa: E402
from bench.kit.servers import (  # noqa: E402
    MANAGE,
    TIMEOUT_S,
    TOKEN_RE,
    VERSION_RE,
    LoopbackSession,
    PageViewer,
    Servers,
    deployment_env,
    free_port,
    gunicorn,
    http_status,
    rq_worker_pids,
    sign_in,
    stripe_test_settings,
    unknown_invoice_paid,
    verify_ladder,
    wait_for_ladders,
)

GUNICORN_WORKERS = 3  # as the Dockerfile and compose.yaml serve
CORRECTIONS_PER_S, UPLOADS_PER_S, WEBHOOKS_PER_S = 1.0, 0.5, 1.0
P99_TARGET_MS = 250.0
DRAIN_TIMEOUT_S = 60.0
SECRET_KEY = "load-bench-only-not-secret-" + "x" * 30
DIRECTOR = "director@load.example"
DRAFTS = 12  # per club, for the uploads
SMALL_CLUBS = (  # slug, name, visibility, policy, players, events, per event, rounds
    ("load-rooks", "Load Rooks Chess Club", "public", "ladder", 30, 20, 12, 4),
    ("load-knights", "Load Knights Junior Club", "unlisted", "hsb", 40, 25, 16, 5),
)
# Corrections re-paste one of the large club's 20 latest events (last week's results, the
# common case) or one of 5 older ones, whose replay re-rates everything after it.
RECENT_TARGETS, OLDER_TARGETS = 20, 5
# (page kind, path after the club's base, weight); {player} and {event} are drawn per request.
PAGES = (
    ("ladder", "", 25),
    ("player", "players/{player}/", 25),
    ("event", "events/{event}/", 20),
    ("roster", "players/", 10),
    ("events", "events/", 10),
    ("ladder.json", "ladder.json", 10),
)
UPLOAD_TRF = ROOT / "tests" / "directors" / "importers" / "files" / "vega_style.trf"


@dataclass
class ClubPlan:
    slug: str
    base: str  # the club page's path, with the secret for an unlisted club
    large: bool
    player_ids: list[int]
    event_ids: list[int]
    draft_ids: list[int]


@dataclass
class Target:
    """A published event a correction re-pastes: its pairings (round, white, black)."""

    slug: str
    event_id: int
    pairings: list[tuple[int, str, str]]


@dataclass
class Sample:
    kind: str  # page, correction (-confirm), upload, webhook, the results-page GETs before them
    label: str  # for pages: "<page> (<large|small>)"; otherwise the outcome
    status: int  # 0: a transport error
    seconds: float
    cached: bool = False  # served from the page cache (its X-Page-Cache header)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (60)")
    parser.add_argument("--connections", type=int, default=32, help="page-view threads (32)")
    args = parser.parse_args()
    databases = throwaway_database("load.py", "load", "clubpages_load", "redis://127.0.0.1:6379/11")
    with databases as (database_url, redis_url):
        run = Run(database_url, redis_url)
        code = 1
        try:
            code = run.execute(args)
        except KeyboardInterrupt:
            code = 130
        finally:
            run.servers.stop()
            run.servers.finish(code)
    return code


# --- the data ----------------------------------------------------------------------------------


def build() -> tuple[list[ClubPlan], list[Target]]:
    """The three clubs (tests.factories builders), their director, subscriptions and drafts."""
    from django.db import connection

    from clubs.models import ClubRole, Game
    from tests.factories import make_user

    clubs = [bench_clubs.large_club()] + [bench_clubs.small_club(*spec) for spec in SMALL_CLUBS]
    director = make_user(DIRECTOR)  # the settings' first hasher, which gunicorn knows too
    rng = random.Random(2026)
    plans, targets = [], []
    for club in clubs:
        ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.OWNER)
        bench_clubs.subscribe(club, "load")  # the load runs with billing on
        drafts = bench_clubs.drafts(club, DRAFTS, "Draft for uploads")
        published = list(club.events.published().in_ladder_order().values_list("id", flat=True))
        large = club.slug == bench_clubs.LARGE_SLUG
        chosen = published
        if large:
            older = rng.sample(published[:-RECENT_TARGETS], OLDER_TARGETS)
            chosen = published[-RECENT_TARGETS:] + older
        for event_id in chosen:
            games = Game.objects.filter(event_id=event_id).order_by("round", "id")
            pairings = games.values_list("round", "white__typed_name", "black__typed_name")
            targets.append(Target(club.slug, event_id, list(pairings)))
        base = f"/c/{club.slug}/" + (f"s/{club.secret}/" if club.visibility == "unlisted" else "")
        player_ids = list(club.players.order_by("id").values_list("id", flat=True))
        plans.append(ClubPlan(club.slug, base, large, player_ids, published, drafts))
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return plans, targets


# --- the client --------------------------------------------------------------------------------


class Run:
    def __init__(self, database_url: str, redis_url: str) -> None:
        self.database_url, self.redis_url = database_url, redis_url
        self.servers = Servers("load")
        self.base = ""
        self.samples: list[Sample] = []  # list.append is atomic: the threads share it
        self.worker_rss: list[int] = []

    def env(self) -> dict[str, str]:
        billing = stripe_test_settings("load")
        return deployment_env(self.database_url, self.redis_url, SECRET_KEY, **billing)

    def start(self) -> None:
        env = self.env()
        self.servers.collectstatic(env)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        worker = self.servers.spawn("worker", [*MANAGE, "rqworker", "default", "uploads"], env)
        self.servers.spawn("gunicorn", gunicorn(port, GUNICORN_WORKERS), env)
        workers = rq_worker_pids(self.redis_url)
        self.servers.wait_until(
            lambda: (
                http_status(self.base + "/healthz", timeout=2) == 200 and worker.pid in workers()
            ),
            60,
            "gunicorn or the worker",
        )

    def execute(self, args: argparse.Namespace) -> int:
        from django.db import connection

        print_command_and_machine()
        started = time.perf_counter()
        plans, targets = build()
        print(
            f"data:       3 clubs, {sum(len(p.player_ids) for p in plans)} players, "
            f"{sum(len(p.event_ids) for p in plans)} published events (built and replayed in "
            f"{time.perf_counter() - started:.0f} s)"
        )
        connection.close()  # only the server's and the worker's connections during the load
        self.start()
        print(
            f"server:     gunicorn {GUNICORN_WORKERS} sync workers, 1 rq worker, DEBUG off, "
            "billing on"
        )
        for plan in plans:
            status, _cached = PageViewer(self.base).get(f"{plan.base}ladder.json")
            if status != 200:
                print(f"FAILED before the load: {plan.base}ladder.json answered {status}")
                return 1
        directors = [sign_in(self.base, DIRECTOR) for _ in range(2)]
        if not all(directors):
            print("FAILED before the load: the director could not sign in")
            return 1
        print(
            f"load:       {args.connections} page-view connections for {args.duration:g} s + "
            f"{CORRECTIONS_PER_S:g} corrections/s + {UPLOADS_PER_S:g} uploads/s + "
            f"{WEBHOOKS_PER_S:g} webhooks/s; load average {os.getloadavg()[0]:.2f} before"
        )

        deadline = time.monotonic() + args.duration
        threads = [
            threading.Thread(target=self.view_pages, args=(n, plans, deadline), daemon=True)
            for n in range(args.connections)
        ]
        correcting, uploading = random.Random(1), random.Random(2)
        drafts = [(plan.slug, draft) for plan in plans for draft in plan.draft_ids]
        webhooks = LoopbackSession(), itertools.count(1)
        writers = (
            (
                CORRECTIONS_PER_S,
                lambda: self.correct(directors[0], correcting.choice(targets), correcting),
            ),
            (
                UPLOADS_PER_S,
                lambda: self.upload(directors[1], *uploading.choice(drafts), uploading),
            ),
            (WEBHOOKS_PER_S, lambda: self.webhook(webhooks[0], next(webhooks[1]))),
        )
        threads += [
            threading.Thread(target=paced, args=(write, 1 / rate, deadline), daemon=True)
            for rate, write in writers
        ]
        load_started = time.monotonic()
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            self.worker_rss.append(rss_kb(self.servers.pid("worker")))
            time.sleep(1)
        elapsed = time.monotonic() - load_started

        # Then every ladder must become current, and verify_ladder agree.
        drained, ladders = wait_for_ladders(self.redis_url, DRAIN_TIMEOUT_S)
        connection.close()
        verify = verify_ladder({**self.env(), "DEBUG": "true"}, "--all")
        self.worker_rss.append(rss_kb(self.servers.pid("worker")))
        return self.report(elapsed, drained, ladders, verify)

    # Client actions -----------------------------------------------------------------------------

    def timed(
        self, kind: str, label: str, call: Callable[[], requests.Response]
    ) -> tuple[requests.Response | None, Sample]:
        started = time.monotonic()
        try:
            response = call()
        except (requests.RequestException, OSError, http.client.HTTPException) as error:
            sample = Sample(kind, f"{label}: {type(error).__name__}", 0, time.monotonic() - started)
            self.samples.append(sample)
            return None, sample
        sample = Sample(kind, label, response.status_code, time.monotonic() - started)
        self.samples.append(sample)
        return response, sample

    def view_pages(self, number: int, plans: list[ClubPlan], deadline: float) -> None:
        """Anonymous page views, one after another, until the deadline."""
        rng = random.Random(number)
        viewer = PageViewer(self.base)
        large = [plan for plan in plans if plan.large]
        small = [plan for plan in plans if not plan.large]
        weights = [weight for _kind, _path, weight in PAGES]
        while time.monotonic() < deadline:
            club = rng.choice(large if rng.random() < 0.5 else small)
            kind, path, _weight = rng.choices(PAGES, weights)[0]
            path = path.format(player=rng.choice(club.player_ids), event=rng.choice(club.event_ids))
            label = f"{kind} ({'large' if club.large else 'small'})"
            started = time.monotonic()
            try:
                status, cached = viewer.get(club.base + path)
            except (OSError, http.client.HTTPException) as error:
                status, cached, label = 0, False, f"{label}: {type(error).__name__}"
            self.samples.append(Sample("page", label, status, time.monotonic() - started, cached))

    def post_results(
        self, session: LoopbackSession, kind: str, results: str, step: str, **post
    ) -> None:
        """The results page's GET for its edit version, then the POST, its outcome labelled."""
        page, _sample = self.timed(
            f"{kind}-form", "results page", lambda: session.get(results, timeout=TIMEOUT_S)
        )
        found = (
            VERSION_RE.search(page.text) if page is not None and page.status_code == 200 else None
        )
        if found is None:
            return
        csrf = session.cookies.get("csrftoken", "")
        post["data"] |= {"version": found.group(1), "csrfmiddlewaretoken": csrf}
        response, sample = self.timed(
            kind,
            "posted",
            lambda: session.post(
                results + step,
                headers={"Referer": results},
                timeout=TIMEOUT_S,
                allow_redirects=False,
                **post,
            ),
        )
        if response is None:
            return
        token = TOKEN_RE.search(response.text) if response.status_code == 200 else None
        if token is not None:
            # A published event's change waits on a confirm page (what it would move), and
            # lands only once the director presses its button, as a browser posts it.
            sample.label = "confirm page"
            response, sample = self.timed(
                f"{kind}-confirm",
                "posted",
                lambda: session.post(
                    f"{results.removesuffix('results/')}confirm/",
                    data={"token": token.group(1), "confirm": "1", "csrfmiddlewaretoken": csrf},
                    headers={"Referer": results},
                    timeout=TIMEOUT_S,
                    allow_redirects=False,
                ),
            )
            if response is None:
                return
        saved = response.status_code == 302 and response.headers["Location"].endswith("/names/")
        sample.label = "saved" if saved else f"refused ({response.status_code})"

    def correct(self, session: LoopbackSession, target: Target, rng: random.Random) -> None:
        lines = ["round,white,black,result"] + [
            f"{round_no},{white},{black},{rng.choice(('1-0', '0-1', '1/2-1/2'))}"
            for round_no, white, black in target.pairings
        ]
        results = f"{self.base}/manage/{target.slug}/events/{target.event_id}/results/"
        self.post_results(
            session, "correction", results, "paste/", data={"text": "\n".join(lines) + "\n"}
        )

    def upload(
        self, session: LoopbackSession, slug: str, draft_id: int, rng: random.Random
    ) -> None:
        if rng.random() < 0.5:
            name, data = "vega_style.trf", UPLOAD_TRF.read_bytes()
        else:
            name, data = "club_night.csv", club_night_csv(rng)
        results = f"{self.base}/manage/{slug}/events/{draft_id}/results/"
        self.post_results(
            session,
            "upload",
            results,
            "upload/",
            data={"format": "auto"},
            files={"file": (name, data)},
        )

    def webhook(self, session: LoopbackSession, number: int) -> None:
        """One signed invoice.paid for a subscription no club has (logged, ignored, 200)."""
        payload, headers = unknown_invoice_paid(number)
        self.timed(
            "webhook",
            "invoice.paid, unknown subscription",
            lambda: session.post(
                f"{self.base}/stripe/webhook/",
                data=payload,
                headers=headers,
                timeout=TIMEOUT_S,
            ),
        )

    # The report ---------------------------------------------------------------------------------

    def report(
        self,
        elapsed: float,
        drained: float,
        ladders: list[tuple[str, bool]],
        verify: subprocess.CompletedProcess,
    ) -> int:
        samples = self.samples
        statuses = Counter(s.status for s in samples)
        print(
            f"\nrequests:   {len(samples):,} in {elapsed:.1f} s = {len(samples) / elapsed:,.1f}/s; "
            + ", ".join(
                f"{code or 'transport error'}: {n:,}" for code, n in sorted(statuses.items())
            )
        )
        by_kind: dict[str, list[Sample]] = defaultdict(list)
        for sample in samples:
            by_kind[sample.kind].append(sample)
        for kind, rows in by_kind.items():
            outcomes = Counter(s.label if kind != "page" else str(s.status) for s in rows)
            shown = ", ".join(f"{label}: {n}" for label, n in outcomes.most_common())
            print(f"  {kind:<16}{len(rows):>8,}  {shown}")

        pasted = len(by_kind.get("correction", []))
        landed = sum(s.label == "saved" for s in by_kind.get("correction-confirm", []))
        print(f"corrections: {landed} of {pasted} landed (confirmed; the worker replays them)")

        pages = by_kind.get("page", [])
        times = [s.seconds for s in pages]
        p99 = percentile(times, 99)
        print(
            f"\npage views: {len(pages):,}, p50 {ms(percentile(times, 50))}, p95 "
            f"{ms(percentile(times, 95))}, p99 {ms(p99)}, max {ms(max(times, default=0))} "
            f"(target p99 < {P99_TARGET_MS:.0f} ms); from the page cache "
            f"{100 * sum(s.cached for s in pages) / max(len(pages), 1):.0f} %"
        )
        per_page: dict[str, list[Sample]] = defaultdict(list)
        for sample in pages:
            per_page[sample.label].append(sample)
        print(f"  {'page':<22}{'count':>7}{'p50':>9}{'p99':>9}{'cached':>8}")
        for label, rows in sorted(per_page.items(), key=lambda item: -len(item[1])):
            seconds = [s.seconds for s in rows]
            cached = 100 * sum(s.cached for s in rows) / len(rows)
            print(
                f"  {label:<22}{len(rows):>7,}{ms(percentile(seconds, 50)):>9}"
                f"{ms(percentile(seconds, 99)):>9}{cached:>7.0f}%"
            )
        rss = [kb // 1024 for kb in self.worker_rss if kb] or [0]
        print(f"worker RSS: start / max / end {rss[0]} / {max(rss)} / {rss[-1]} MB")

        current = all(is_current for _slug, is_current in ladders)
        print(
            f"\nladders:    {'every ladder current' if current else 'NOT current'} "
            f"{drained:.1f} s after the load: "
            + ", ".join(f"{slug} {'current' if ok else 'OUT OF DATE'}" for slug, ok in ladders)
        )
        print(f"  verify_ladder --all: exit {verify.returncode}")
        for line in (verify.stdout + verify.stderr).strip().splitlines()[:20]:
            print(f"    {line}")
        print(f"load avg:   {load_average()} at the end")
        problems = [
            f"{n:,} responses with status {code or 'transport error'}"
            for code, n in sorted(statuses.items())
            if code == 0 or code >= 500
        ]
        if not times or p99 * 1000 >= P99_TARGET_MS:
            problems.append(f"page-view p99 {ms(p99)} is not under {P99_TARGET_MS:.0f} ms")
        if not current or verify.returncode != 0:
            problems.append("a ladder stayed out of date or failed verify_ladder")
        if pasted and not landed:
            # The load's replays come from these: a bench whose corrections never land
            # measures pages beside an idle worker (as it did, unnoticed, for a while).
            problems.append(f"none of the {pasted} corrections landed")
        if problems:
            print("\nRESULT:     FAILED: " + "; ".join(problems))
            return 1
        print("\nRESULT:     passed: no 5xx, page-view p99 under target, every ladder current")
        return 0


if __name__ == "__main__":
    sys.exit(main())
