"""Mixed load on a real deployment: gunicorn, one rq worker, PostgreSQL and Redis, on loopback.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_load \\
    REDIS_URL=redis://127.0.0.1:6379/11 DEBUG=true \\
        .venv/bin/python bench/load.py [--duration 60] [--connections 32] [--keep]

PostgreSQL and Redis only. The database DATABASE_URL names is DROPPED and created
again (its name must contain "load", so a development database is never the one
dropped), migrated and filled by bench/load_data.py: the 500-player, 300-event
club of bench/pages_data.py, two small clubs (one unlisted, one on the HSB
policy), every ladder replayed, a director who owns all three, draft events.

Then gunicorn (3 sync workers, as in production, on 127.0.0.1, DEBUG off, billing on with a test
webhook secret; collectstatic first, for the static manifest) and one real
`manage.py rqworker default` serve it, while --connections client threads, each
with its own requests.Session, loop for --duration seconds:

- on every connection, anonymous page views: the ladder, a player, an event, the
  roster, the events list, ladder.json, of the large club (half) or a small one;
- in a thread of its own, --corrections-per-second corrections (1 by default): a
  signed-in director opens a published event's results page for its current
  edit_version and pastes the event's games back as CSV with redrawn results (the
  ladder replays in the worker); a stale version is refused;
- in another, --uploads-per-second uploads (0.5 by default): the director opens a
  draft event's results page and uploads a small CSV or TRF;
- and in a third, one Stripe webhook a second: an invoice.paid for a subscription
  no club has, signed with the test secret (logged, ignored, 200).

Writes come at a set pace rather than as a share of the requests, as they do on a
real site: directors do not publish more results because more members are reading.
At the defaults that is 3,600 corrections and 1,800 uploads an hour, far beyond any
club, so the worker replays throughout.

LOAD_SAMPLES=path.json writes every request's sample there. GUNICORN_EXTRA adds
options to gunicorn's command line, to compare configurations (GUNICORN_EXTRA=
"--workers 3"; the last --workers given wins).

Secure cookies: with DEBUG off Django marks the session and CSRF cookies Secure
and there is no setting to turn that off, so over plain http a browser (and
requests) would not send them back. The client stands in for the TLS proxy of a
real deployment and sends them over loopback anyway (LoopbackSession); the
server keeps its production settings. `--debug` runs the server with DEBUG on instead.

Reported: requests per kind, status codes (no 5xx allowed), page-view latency
(p50/p95/p99 overall and per page), whether every ladder is current once the
queue has drained (up to 60 s; Club.ladder_is_current and `verify_ladder --all`),
the worker's RSS every 5 s (the worker and its work horses, /proc/<pid>/status),
an unloaded per-page probe, the machine and the command. Exits 1 on any 5xx or
transport error, a page-view p99 of 250 ms or more, or a ladder left out of date.
gunicorn and the worker are stopped at the end and the database dropped unless --keep.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import platform
import random
import re
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GUNICORN_WORKERS = 3  # as the Dockerfile and compose.yaml serve
P99_TARGET_MS = 250.0
DRAIN_TIMEOUT_S = 60.0
RSS_EVERY_S = 5.0
REQUEST_TIMEOUT_S = 30.0
SECRET_KEY = "load-bench-only-not-secret-" + "x" * 30
STRIPE_SECRET_KEY = "sk_test_load_bench_never_sent_to_stripe"  # only the webhook is exercised
# (page kind, path after the club's base, weight); {player} and {event} are drawn per request.
PAGES = (
    ("ladder", "", 25),
    ("player", "players/{player}/", 25),
    ("event", "events/{event}/", 20),
    ("roster", "players/", 10),
    ("events", "events/", 10),
    ("ladder.json", "ladder.json", 10),
)
LARGE_CLUB_SHARE = 0.5  # of page views; the two small clubs share the rest
UPLOAD_TRF = ROOT / "tests" / "clubs" / "importers" / "files" / "vega_style.trf"
VERSION_RE = re.compile(r'name="version" value="(\d+)"')
STALE_TEXT = "changed by someone else"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (60)")
    parser.add_argument("--connections", type=int, default=32, help="client threads (32)")
    parser.add_argument(
        "--corrections-per-second", type=float, default=1.0, help="corrections a second (1)"
    )
    parser.add_argument("--uploads-per-second", type=float, default=0.5, help="uploads (0.5)")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--debug", action="store_true", help="serve with DEBUG=true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.duration <= 0 or args.connections < 1:
        parser.error("--duration and --connections must be positive")
    if args.corrections_per_second < 0 or args.uploads_per_second < 0:
        parser.error("--corrections-per-second and --uploads-per-second cannot be negative")

    database_url, redis_url, problem = check_services()
    if problem:
        print(f"bench/load.py: {problem}", file=sys.stderr)
        return 1
    command = shown_command()
    recreate_database(database_url)

    os.environ.setdefault("DEBUG", "true")  # settings load without SECRET_KEY here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False  # no query log while building
    run = Run(args, database_url, redis_url, command)
    try:
        call_command("migrate", verbosity=0, interactive=False)
        return run.execute()
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        run.stop_processes()
        connection.close()
        if args.keep:
            print(
                f"kept:       database {urlsplit(database_url).path.lstrip('/')}, logs {run.logs}"
            )
        else:
            drop_database(database_url)
            run.remove_logs()


# --- services and processes --------------------------------------------------------------------


def check_services() -> tuple[str, str, str | None]:
    """DATABASE_URL and REDIS_URL, or why the bench refuses to run."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    parts = urlsplit(database_url)
    if parts.scheme not in ("postgres", "postgresql"):
        return (
            database_url,
            redis_url,
            "needs PostgreSQL: set DATABASE_URL=postgres://…/clubpages_load",
        )
    name = parts.path.lstrip("/")
    if "load" not in name:
        return (
            database_url,
            redis_url,
            f"the database {name!r} would be dropped: name one whose name contains 'load' "
            "(e.g. clubpages_load)",
        )
    if urlsplit(redis_url).scheme not in ("redis", "rediss", "unix"):
        return database_url, redis_url, "needs Redis: set REDIS_URL=redis://127.0.0.1:6379/11"
    import psycopg
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        with psycopg.connect(server_dsn(database_url), connect_timeout=5):
            pass
    except psycopg.Error as error:
        return database_url, redis_url, f"PostgreSQL is not reachable: {error}"
    try:
        Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except RedisError as error:
        return database_url, redis_url, f"Redis is not reachable: {error}"
    return database_url, redis_url, None


def server_dsn(url: str) -> str:
    """The same server, its maintenance database `postgres`."""
    return urlunsplit(urlsplit(url)._replace(path="/postgres", query=""))


def recreate_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(server_dsn(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    name = urlsplit(url).path.lstrip("/")
    with psycopg.connect(server_dsn(url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def shown_command() -> str:
    env = []
    for key in ("DATABASE_URL", "REDIS_URL", "DEBUG"):
        if key in os.environ:
            value = os.environ[key]
            parts = urlsplit(value)
            if parts.password:
                value = urlunsplit(
                    parts._replace(netloc=parts.netloc.replace(parts.password, "***"))
                )
            env.append(f"{key}={value}")
    python = os.path.relpath(sys.executable, Path.cwd())
    return " ".join([*env, python, *map(shlex.quote, sys.argv)])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_kb(pid: int) -> int:
    """VmRSS of one process in kB; 0 once it has gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def children(pid: int) -> list[int]:
    return [child for child, parent, _comm in processes() if parent == pid]


def processes() -> list[tuple[int, int, str]]:
    """(pid, parent pid, command name) of every process."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            found.append((int(entry.name), parent, stat[stat.index("(") + 1 : stat.rindex(")")]))
    return found


def process_ticks(pid: int, *, reaped: bool = False) -> int:
    """utime + stime of a process (+ its reaped children's); 0 once it has gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    fields = stat.rsplit(")", 1)[1].split()  # fields[11:15]: utime, stime, cutime, cstime
    return sum(int(value) for value in fields[11 : 15 if reaped else 13])


def cpu_used(before: dict, after: dict) -> dict[str, float]:
    """Seconds of CPU between two snapshots, per group. A process that exits in between is
    lost, except work horses and PostgreSQL backends: their parents' reaped-children time
    counts (a backend's whole life, so PostgreSQL is slightly over-counted)."""
    hz = os.sysconf("SC_CLK_TCK")
    used = {"machine": (after["machine"] - before["machine"]) / hz}
    for group in ("gunicorn", "rq worker", "PostgreSQL", "this client"):
        old = before[group]
        used[group] = sum(t - old.get(pid, 0) for pid, t in after[group].items()) / hz
    used["other"] = used["machine"] - sum(used[g] for g in used if g != "machine")
    return used


def load_average() -> str:
    return ", ".join(f"{load:.2f}" for load in os.getloadavg())


# --- the client ------------------------------------------------------------------------------


class LoopbackSession(requests.Session):
    """Sends Secure cookies over loopback http, as the TLS proxy in front of a real site
    would (requests, like a browser, otherwise keeps them for https)."""

    def send(self, request, **kwargs):
        response = super().send(request, **kwargs)
        for cookie in self.cookies:
            cookie.secure = False
        return response


def new_session() -> LoopbackSession:
    return LoopbackSession()


@dataclass
class PageResponse:
    status_code: int
    headers: dict[str, str]


class PageViewer:
    """Anonymous page views over http.client: they keep no cookies, and on this machine the
    client shares the two cores with the server, so it should take as little as it can
    (requests cost about three times as much CPU a request)."""

    def __init__(self, base: str) -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(
            parts.hostname, parts.port, timeout=REQUEST_TIMEOUT_S
        )

    def get(self, url: str) -> PageResponse:
        try:
            parts = urlsplit(url)
            self.connection.request(
                "GET", f"{parts.path}?{parts.query}" if parts.query else parts.path
            )
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        if response.will_close:  # gunicorn's sync workers close after each response
            self.connection.close()
        return PageResponse(response.status, {"X-Page-Cache": response.getheader("X-Page-Cache")})


@dataclass
class Sample:
    kind: str  # page, correction, upload, webhook, and their -form steps
    label: str  # for pages: "<page> (<large|small>)"; otherwise the outcome
    status: int  # 0: a transport error
    seconds: float
    started: float
    cached: bool = False  # a page served from the page cache (its X-Page-Cache header)


@dataclass
class RssSample:
    at: float
    worker_kb: int
    horses_kb: int
    horses: int
    gunicorn_kb: int


class Run:
    def __init__(self, args: argparse.Namespace, database_url: str, redis_url: str, command: str):
        self.args = args
        self.database_url = database_url
        self.redis_url = redis_url
        self.command = command
        self.logs = Path(tempfile.mkdtemp(prefix="clubpages-load-"))
        self.gunicorn: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None
        self.base = ""
        self.samples: list[Sample] = []
        self.rss: list[RssSample] = []
        self.failed_logins = 0

    # Processes ---------------------------------------------------------------------------------

    def server_env(self) -> dict[str, str]:
        from tests.billing.stripe_events import PRICE_MONTHLY, PRICE_YEARLY, WEBHOOK_SECRET

        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "DEBUG": "true" if self.args.debug else "false",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "LOG_LEVEL": "WARNING",
            "STRIPE_SECRET_KEY": STRIPE_SECRET_KEY,
            "STRIPE_PUBLISHABLE_KEY": "pk_test_load_bench",
            "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
            "STRIPE_PRICE_MONTHLY": PRICE_MONTHLY,
            "STRIPE_PRICE_YEARLY": PRICE_YEARLY,
        }
        env.pop("BEHIND_TLS_PROXY", None)
        return env

    def start_processes(self) -> None:
        env = self.server_env()
        if not self.args.debug:  # CompressedManifestStaticFilesStorage needs the manifest
            subprocess.run(
                [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
        # Each in a session of its own, so stopping one takes everything it started.
        self.worker = subprocess.Popen(
            [sys.executable, "manage.py", "rqworker", "default"],
            cwd=ROOT,
            env=env,
            stdout=(self.logs / "worker.log").open("wb"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        port = free_port()
        self.gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi:application",
             "--bind", f"127.0.0.1:{port}", "--workers", str(GUNICORN_WORKERS),
             "--timeout", "60", "--log-level", "warning",
             *shlex.split(os.environ.get("GUNICORN_EXTRA", ""))],
            cwd=ROOT, env=env, stdout=(self.logs / "gunicorn.log").open("wb"),
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
        self.base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.gunicorn.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.logs / 'gunicorn.log'}")
            try:
                with urllib.request.urlopen(f"{self.base}/healthz", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("gunicorn did not answer /healthz within 60 s")
        # The worker registers itself in Redis once it is ready.
        from rq import Worker

        deadline = time.monotonic() + 30
        pid = self.worker.pid
        while time.monotonic() < deadline:
            if any(w.pid == pid for w in Worker.all(connection=self.redis())):
                break
            if self.worker.poll() is not None:
                raise RuntimeError(f"the rq worker exited; see {self.logs / 'worker.log'}")
            time.sleep(0.2)

    def stop_processes(self) -> None:
        for process in (self.gunicorn, self.worker):
            if process is None or process.poll() is not None:
                continue
            process.send_signal(signal.SIGTERM)  # graceful: gunicorn and rq finish what they do
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def remove_logs(self) -> None:
        for path in self.logs.iterdir():
            path.unlink()
        self.logs.rmdir()

    def redis(self):
        from redis import Redis

        return Redis.from_url(self.redis_url, socket_connect_timeout=3, socket_timeout=5)

    # The run -----------------------------------------------------------------------------------

    def execute(self) -> int:
        import django
        import gunicorn
        from django.db import connection

        import bench.load_data as load_data

        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            pg_version = cursor.fetchone()[0]
        nproc = len(os.sched_getaffinity(0))
        print(f"command:    {self.command}")
        print(
            f"machine:    nproc={nproc}, CPU {cpu_model()}, load average {load_average()} at start"
        )
        print(
            f"software:   PostgreSQL {pg_version} (same host), Redis {self.redis_version()}, "
            f"Python {platform.python_version()}, Django {django.get_version()}, "
            f"gunicorn {gunicorn.__version__}"
        )
        queued = self.queue().count
        if queued:
            print(f"note:       {queued} jobs were already queued in {self.redis_url}")

        started = time.perf_counter()
        plan = load_data.build()
        built = time.perf_counter() - started
        counts = ", ".join(f"{n:,} {what}" for what, n in plan.counts.items())
        print(f"data:       {counts} (built and replayed in {built:.0f} s)")
        connection.close()  # the server's and worker's connections only, during the load

        self.start_processes()
        debug = "on" if self.args.debug else "off, Secure cookies sent over loopback"
        print(
            f"server:     gunicorn {GUNICORN_WORKERS} sync workers on {self.base} (DEBUG {debug}), "
            "1 rq worker (manage.py rqworker default), billing on (test webhook secret)"
        )
        smoke_problem = self.smoke(plan)
        if smoke_problem:
            print(f"FAILED before the load: {smoke_problem}", file=sys.stderr)
            return 1
        directors = [self.sign_in(plan) for _ in range(2)]
        if self.failed_logins:
            print(f"FAILED: {self.failed_logins} director sign-ins failed", file=sys.stderr)
            return 1
        print(
            f"load:       {self.args.connections} page-view connections for "
            f"{self.args.duration:g} s + {self.args.corrections_per_second:g} corrections/s "
            f"+ {self.args.uploads_per_second:g} uploads/s + 1 webhook/s"
        )
        print(f"load avg:   {load_average()} just before the load")

        cpu_before = self.cpu_snapshot()
        load_started = time.monotonic()
        deadline = load_started + self.args.duration
        threads = [
            threading.Thread(target=self.client, args=(n, plan, deadline), daemon=True)
            for n in range(self.args.connections)
        ]
        # Each writer thread draws from a generator of its own, so a seed repeats a run.
        correcting, uploading = (random.Random(self.args.seed + n) for n in (1, 2))
        drafts = [(club.slug, draft) for club in plan.clubs for draft in club.draft_ids]
        webhook_session, webhook_numbers = new_session(), itertools.count(1)
        writers = [
            (self.args.corrections_per_second,
             lambda: self.correct(directors[0], correcting.choice(plan.targets), correcting)),
            (self.args.uploads_per_second,
             lambda: self.upload(directors[1], *uploading.choice(drafts), uploading)),
            (1.0, lambda: self.webhook(webhook_session, next(webhook_numbers))),
        ]  # fmt: skip
        for rate, write in writers:
            if rate > 0:
                args = (write, 1 / rate, deadline)
                threads.append(threading.Thread(target=paced, args=args, daemon=True))
        for thread in threads:
            thread.start()
        self.sample_rss()
        while any(thread.is_alive() for thread in threads):
            time.sleep(0.2)
            if time.monotonic() - self.rss[-1].at >= RSS_EVERY_S:
                self.sample_rss()
        elapsed = time.monotonic() - load_started
        cpu = cpu_used(cpu_before, self.cpu_snapshot())
        load_after = load_average()

        drained_in, clubs = self.drain()
        verify_code, verify_out = self.verify()
        self.sample_rss()
        probe = self.probe(plan)
        return self.report(elapsed, cpu, load_after, drained_in, clubs, verify_code,
                           verify_out, probe)  # fmt: skip

    def redis_version(self) -> str:
        try:
            return str(self.redis().info("server").get("redis_version", "?"))
        except Exception:  # only a label
            return "?"

    def queue(self):
        from rq import Queue

        return Queue("default", connection=self.redis())

    # Client actions ------------------------------------------------------------------------------

    def smoke(self, plan) -> str | None:
        """Each club's ladder.json answers with players (not the inactive notice), current."""
        session = new_session()
        for club in plan.clubs:
            response = session.get(f"{self.base}{club.base}ladder.json", timeout=REQUEST_TIMEOUT_S)
            try:
                data = response.json()
            except ValueError:
                return f"{club.base}ladder.json is not JSON (status {response.status_code})"
            if response.status_code != 200 or not data.get("players"):
                return f"{club.base}ladder.json has no players (status {response.status_code})"
            if not data.get("ladder_is_current"):
                return f"{club.slug}'s ladder is not current before the load"
        return None

    def sign_in(self, plan):
        session = new_session()
        login = f"{self.base}/accounts/login/"
        page = session.get(login, timeout=REQUEST_TIMEOUT_S)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        response = session.post(
            login,
            data={
                "username": plan.director_email,
                "password": plan.director_password,
                "csrfmiddlewaretoken": token.group(1) if token else "",
            },
            headers={"Referer": login},
            timeout=REQUEST_TIMEOUT_S,
            allow_redirects=False,
        )
        if response.status_code != 302 or "sessionid" not in session.cookies:
            self.failed_logins += 1
        return session

    def timed(self, kind: str, label: str, call: Callable[[], object]):
        """Run one request and record it: (the response or None after a transport error,
        its sample, whose label the caller may still refine)."""
        started = time.monotonic()
        try:
            response = call()
        except (requests.RequestException, OSError, http.client.HTTPException) as error:
            sample = Sample(
                kind, f"{label}: {type(error).__name__}", 0, time.monotonic() - started, started
            )
            self.samples.append(sample)  # list.append is atomic: threads share the list
            return None, sample
        sample = Sample(kind, label, response.status_code, time.monotonic() - started, started)
        sample.cached = response.headers.get("X-Page-Cache") == "hit"
        self.samples.append(sample)
        return response, sample

    def client(self, number: int, plan, deadline: float) -> None:
        """Anonymous page views, one after another, until the deadline."""
        rng = random.Random(self.args.seed * 1000 + number)
        anonymous = PageViewer(self.base)
        large = [club for club in plan.clubs if club.large]
        small = [club for club in plan.clubs if not club.large]
        weights = [weight for _kind, _path, weight in PAGES]
        while time.monotonic() < deadline:
            club = rng.choice(large if rng.random() < LARGE_CLUB_SHARE else small)
            kind, path, _weight = rng.choices(PAGES, weights)[0]
            path = path.format(player=rng.choice(club.player_ids), event=rng.choice(club.event_ids))
            url = f"{self.base}{club.base}{path}"
            size = "large" if club.large else "small"
            self.timed(
                "page",
                f"{kind} ({size})",
                lambda url=url: anonymous.get(url),
            )

    def _version(self, session, kind: str, url: str) -> int | None:
        page, _sample = self.timed(
            f"{kind}-form", "results page", lambda: session.get(url, timeout=REQUEST_TIMEOUT_S)
        )
        if page is None or page.status_code != 200:
            return None
        found = VERSION_RE.search(page.text)
        return int(found.group(1)) if found else None

    def _outcome(self, session, response, results_url: str) -> str:
        """What a post ended in: saved, a stale-version refusal, another refusal."""
        if response.status_code == 200:
            return "refused on the page"
        location = response.headers.get("Location", "")
        if response.status_code == 302 and location.endswith("/names/"):
            return "saved"
        if response.status_code == 302 and location.endswith("/results/"):
            page, _sample = self.timed(
                "refusal-read",
                "results page",
                lambda: session.get(results_url, timeout=REQUEST_TIMEOUT_S),
            )
            if page is not None and STALE_TEXT in page.text:
                return "refused: stale version"
            return "refused: other"
        return f"status {response.status_code}"

    def correct(self, session, target, rng: random.Random) -> None:
        events = f"{self.base}/manage/{target.slug}/events/{target.event_id}/results/"
        version = self._version(session, "correction", events)
        if version is None:
            return
        lines = ["round,white,black,result"]
        lines += [
            f"{round_no},{white},{black},{rng.choice(('1-0', '0-1', '1/2-1/2'))}"
            for round_no, white, black in target.pairings
        ]
        paste = f"{events}paste/"
        response, sample = self.timed(
            "correction",
            "posted",
            lambda: session.post(
                paste,
                data={
                    "text": "\n".join(lines) + "\n",
                    "version": version,
                    "csrfmiddlewaretoken": session.cookies.get("csrftoken", ""),
                },
                headers={"Referer": events},
                timeout=REQUEST_TIMEOUT_S,
                allow_redirects=False,
            ),
        )
        if response is not None:
            sample.label = self._outcome(session, response, events)

    def upload(self, session, slug: str, draft_id: int, rng: random.Random) -> None:
        events = f"{self.base}/manage/{slug}/events/{draft_id}/results/"
        version = self._version(session, "upload", events)
        if version is None:
            return
        if rng.random() < 0.5:
            name, data = "vega_style.trf", UPLOAD_TRF.read_bytes()
        else:
            guests = [f"Guest {rng.randrange(1000):03d} Visitor" for _ in range(6)]
            guests = list(dict.fromkeys(guests))
            rows = ["round,white,black,result"]
            for round_no in (1, 2, 3):
                rng.shuffle(guests)
                pairs = zip(guests[::2], guests[1::2], strict=False)
                rows += [f"{round_no},{w},{b},{rng.choice(('1-0', '0-1', '='))}" for w, b in pairs]
            name, data = "club_night.csv", ("\n".join(rows) + "\n").encode()
        upload = f"{events}upload/"
        response, sample = self.timed(
            "upload",
            "posted",
            lambda: session.post(
                upload,
                data={
                    "version": version,
                    "format": "auto",
                    "csrfmiddlewaretoken": session.cookies.get("csrftoken", ""),
                },
                files={"file": (name, data)},
                headers={"Referer": events},
                timeout=REQUEST_TIMEOUT_S,
                allow_redirects=False,
            ),
        )
        if response is not None:
            sample.label = self._outcome(session, response, events)

    def webhook(self, session, number: int) -> None:
        """One signed invoice.paid for a subscription no club has."""
        from tests.billing.stripe_events import load_event, sign

        event = load_event("invoice_paid", club_id=0)
        event["id"] = f"evt_load_{os.getpid()}_{number}"
        event["created"] = int(time.time())
        invoice = event["data"]["object"]
        invoice["customer"] = f"cus_load_unknown_{number}"
        unknown = f"sub_load_unknown_{number}"
        invoice["parent"]["subscription_details"]["subscription"] = unknown
        for line in invoice["lines"]["data"]:
            line["parent"]["subscription_item_details"]["subscription"] = unknown
        payload = json.dumps(event)
        self.timed(
            "webhook",
            "invoice.paid, unknown subscription",
            lambda: session.post(
                f"{self.base}/stripe/webhook/",
                data=payload.encode(),
                headers={"Stripe-Signature": sign(payload), "Content-Type": "application/json"},
                timeout=REQUEST_TIMEOUT_S,
            ),
        )

    # Measurements after the load ---------------------------------------------------------------

    def sample_rss(self) -> None:
        horses = [pid for pid in children(self.worker.pid) if rss_kb(pid)] if self.worker else []
        workers = children(self.gunicorn.pid) if self.gunicorn else []
        self.rss.append(
            RssSample(
                at=time.monotonic(),
                worker_kb=rss_kb(self.worker.pid) if self.worker else 0,
                horses_kb=sum(rss_kb(pid) for pid in horses),
                horses=len(horses),
                gunicorn_kb=sum(rss_kb(pid) for pid in [self.gunicorn.pid, *workers]),
            )
        )

    def cpu_snapshot(self) -> dict[str, object]:
        """CPU ticks so far: the machine's busy time, and per process of each group."""
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        ticks = [int(value) for value in fields]
        busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6]  # user nice system irq softirq
        gunicorn = [self.gunicorn.pid, *children(self.gunicorn.pid)] if self.gunicorn else []
        running = processes()
        postgres = {pid for pid, _parent, comm in running if comm == "postgres"}
        # The postmaster's reaped children hold the time of backends that exited meanwhile.
        postmasters = {pid for pid, parent, _comm in running if pid in postgres} - {
            pid for pid, parent, _comm in running if pid in postgres and parent in postgres
        }
        return {
            "machine": busy,
            "gunicorn": {pid: process_ticks(pid) for pid in gunicorn},
            # the worker's own time plus that of the work horses it has reaped
            "rq worker": {self.worker.pid: process_ticks(self.worker.pid, reaped=True)}
            if self.worker
            else {},
            "PostgreSQL": {pid: process_ticks(pid, reaped=pid in postmasters) for pid in postgres},
            "this client": {os.getpid(): process_ticks(os.getpid())},
        }

    def drain(self) -> tuple[float | None, list[tuple[str, int, int]]]:
        """Seconds until the queue is empty and every ladder current (None: not in time)."""
        from django.db import connection
        from rq.registry import StartedJobRegistry

        from clubs.models import Club

        started = time.monotonic()
        queue = self.queue()
        running = StartedJobRegistry(queue=queue)
        drained_in = None
        while time.monotonic() - started < DRAIN_TIMEOUT_S:
            clubs = list(Club.objects.order_by("id"))
            if (
                all(club.ladder_is_current for club in clubs)
                and queue.count == 0
                and running.count == 0
            ):
                drained_in = time.monotonic() - started
                break
            if time.monotonic() - self.rss[-1].at >= RSS_EVERY_S:
                self.sample_rss()
            time.sleep(0.25)
        clubs = list(Club.objects.order_by("id"))
        connection.close()
        return drained_in, [(c.slug, c.data_version, c.built_version) for c in clubs]

    def verify(self) -> tuple[int, str]:
        result = subprocess.run(
            [sys.executable, "manage.py", "verify_ladder", "--all"],
            cwd=ROOT,
            env={**self.server_env(), "DEBUG": "true"},
            capture_output=True,
            text=True,
            timeout=600,
        )
        return result.returncode, (result.stdout + result.stderr).strip()

    def probe(self, plan, repeat: int = 10) -> dict[str, list[float]]:
        """Each page alone, one request at a time, once the load is over: service time."""
        session = new_session()
        rng = random.Random(self.args.seed)
        times: dict[str, list[float]] = defaultdict(list)
        for club in (plan.clubs[0], plan.clubs[1]):
            size = "large" if club.large else "small"
            for kind, path, _weight in PAGES:
                for _ in range(repeat):
                    url = (
                        self.base
                        + club.base
                        + path.format(
                            player=rng.choice(club.player_ids), event=rng.choice(club.event_ids)
                        )
                    )
                    started = time.monotonic()
                    try:
                        ok = session.get(url, timeout=REQUEST_TIMEOUT_S).status_code == 200
                    except requests.RequestException:
                        ok = False
                    if ok:  # failures are the load's business, not the probe's
                        times[f"{kind} ({size})"].append(time.monotonic() - started)
        return times

    # The report --------------------------------------------------------------------------------

    def report(
        self,
        elapsed: float,
        cpu: dict[str, float],
        load_after: str,
        drained_in: float | None,
        clubs: list[tuple[str, int, int]],
        verify_code: int,
        verify_out: str,
        probe: dict[str, list[float]],
    ) -> int:
        samples = self.samples
        if dump := os.environ.get("LOAD_SAMPLES"):  # every request, for a closer look
            Path(dump).write_text(json.dumps([s.__dict__ for s in samples]))
        total = len(samples)
        print(f"\nrequests:   {total:,} in {elapsed:.1f} s = {total / elapsed:,.1f}/s")
        cores = len(os.sched_getaffinity(0))
        print(
            f"cpu:        the machine was busy {cpu['machine'] / elapsed:.2f} of {cores} cores: "
            + ", ".join(
                f"{group} {cpu[group] / elapsed:.2f}"
                for group in ("gunicorn", "PostgreSQL", "rq worker", "this client")
            )
            + f", other work {max(0.0, cpu['other']) / elapsed:.2f} (cores, averaged over the load)"
        )
        by_kind: dict[str, list[Sample]] = defaultdict(list)
        for sample in samples:
            by_kind[sample.kind].append(sample)
        order = ["page", "correction-form", "correction", "upload-form", "upload", "refusal-read",
                 "webhook"]  # fmt: skip
        print(f"\n{'kind':<17}{'requests':>9}{'share':>8}{'/s':>8}  statuses")
        for kind in sorted(by_kind, key=lambda k: order.index(k) if k in order else 99):
            rows = by_kind[kind]
            statuses = Counter(s.status for s in rows)
            shown = ", ".join(f"{code or 'error'}: {n}" for code, n in sorted(statuses.items()))
            print(
                f"{kind:<17}{len(rows):>9,}{100 * len(rows) / total:>7.1f}%"
                f"{len(rows) / elapsed:>8.1f}  {shown}"
            )
        actions = {
            "page views": len(by_kind.get("page", [])),
            "corrections": len(by_kind.get("correction-form", [])),
            "uploads": len(by_kind.get("upload-form", [])),
            "webhooks": len(by_kind.get("webhook", [])),
        }
        all_actions = sum(actions.values()) or 1
        print(
            "  actions (a correction or upload is a results-page GET, then its POST): "
            + ", ".join(
                f"{what} {n:,} ({100 * n / all_actions:.1f} %)" for what, n in actions.items()
            )
        )
        for kind in ("correction", "upload"):
            outcomes = Counter(s.label for s in by_kind.get(kind, []))
            if outcomes:
                shown = ", ".join(f"{label}: {n}" for label, n in outcomes.most_common())
                print(f"  {kind} outcomes: {shown}")
        statuses = Counter(s.status for s in samples)
        print(
            "\nstatus codes: "
            + ", ".join(
                f"{code or 'transport error'}: {n:,}" for code, n in sorted(statuses.items())
            )
        )
        server_errors = sum(n for code, n in statuses.items() if code >= 500)
        transport_errors = statuses.get(0, 0)
        if transport_errors:
            errors = Counter(s.label for s in samples if s.status == 0)
            print("  transport errors: " + ", ".join(f"{e}: {n}" for e, n in errors.items()))

        pages = by_kind.get("page", [])
        page_times = [s.seconds for s in pages]
        p50, p95, p99 = (percentile(page_times, q) for q in (50, 95, 99))
        print(
            f"\npage views: {len(pages):,}, p50 {ms(p50)}, p95 {ms(p95)}, p99 {ms(p99)}, "
            f"max {ms(max(page_times, default=0))} (target p99 < {P99_TARGET_MS:.0f} ms)"
        )
        per_page: dict[str, list[float]] = defaultdict(list)
        hits: Counter[str] = Counter()
        for sample in pages:
            per_page[sample.label].append(sample.seconds)
            hits[sample.label] += sample.cached
        print(f"  served from the page cache: {100 * hits.total() / max(len(pages), 1):.0f} %")
        print(
            f"{'page':<22}{'count':>7}{'p50':>9}{'p95':>9}{'p99':>9}{'max':>9}"
            f"{'share of time':>15}{'alone p50':>11}{'cached':>8}"
        )
        page_total = sum(page_times) or 1.0
        for label in sorted(per_page, key=lambda k: -sum(per_page[k])):
            times = per_page[label]
            alone = probe.get(label, [])
            print(
                f"{label:<22}{len(times):>7,}{ms(percentile(times, 50)):>9}"
                f"{ms(percentile(times, 95)):>9}{ms(percentile(times, 99)):>9}"
                f"{ms(max(times)):>9}{100 * sum(times) / page_total:>14.0f}%"
                f"{ms(percentile(alone, 50)) if alone else '–':>11}"
                f"{100 * hits[label] / len(times):>7.0f}%"
            )
        print(
            "  'alone p50': the same page requested one at a time after the load (service time; "
            "the rest of a loaded latency is waiting for one of the "
            f"{GUNICORN_WORKERS} workers)"
        )
        for kind in ("correction", "upload", "webhook"):
            times = [s.seconds for s in by_kind.get(kind, [])]
            if times:
                print(
                    f"  {kind} posts: p50 {ms(percentile(times, 50))}, "
                    f"p95 {ms(percentile(times, 95))}, max {ms(max(times))}"
                )

        print(
            "\nladders:    "
            + (
                f"queue drained and every ladder current {drained_in:.1f} s after the load"
                if drained_in is not None
                else f"NOT current {DRAIN_TIMEOUT_S:.0f} s after the load"
            )
        )
        for slug, data_version, built_version in clubs:
            state = "current" if built_version >= data_version else "OUT OF DATE"
            print(f"  {slug}: data_version {data_version}, built_version {built_version}, {state}")
        print(f"  verify_ladder --all: exit {verify_code}")
        for line in verify_out.splitlines()[:20]:
            print(f"    {line}")
        ladders_ok = (
            drained_in is not None
            and all(built >= data for _slug, data, built in clubs)
            and verify_code == 0
        )

        self.report_rss()
        print(f"\nload avg:   {load_after} at the end of the load, {load_average()} now")
        problems = []
        if server_errors:
            problems.append(f"{server_errors} responses with a 5xx status")
        if transport_errors:
            problems.append(f"{transport_errors} transport errors")
        if not page_times or p99 * 1000 >= P99_TARGET_MS:
            problems.append(f"page-view p99 {ms(p99)} is not under {P99_TARGET_MS:.0f} ms")
        if not ladders_ok:
            problems.append("a ladder stayed out of date or failed verify_ladder")
        if problems:
            print("\nRESULT:     FAILED: " + "; ".join(problems))
            return 1
        print("\nRESULT:     passed: no 5xx, page-view p99 under target, every ladder current")
        return 0

    def report_rss(self) -> None:
        if not self.rss:
            return
        t0 = self.rss[0].at
        worker = [s.worker_kb for s in self.rss]
        total = [s.worker_kb + s.horses_kb for s in self.rss]
        horses = [s.horses_kb for s in self.rss if s.horses]
        print(f"\nworker RSS: sampled every {RSS_EVERY_S:.0f} s, {len(self.rss)} samples (MB)")
        print(
            f"  worker process: start {mb(worker[0])}, max {mb(max(worker))}, end {mb(worker[-1])}"
        )
        print(
            f"  worker + work horses: start {mb(total[0])}, max {mb(max(total))}, "
            f"end {mb(total[-1])}; a work horse when one was running: "
            + (f"max {mb(max(horses))} ({len(horses)} samples)" if horses else "none sampled")
        )
        series = " ".join(
            f"{s.at - t0:.0f}s:{mb(s.worker_kb)}" + (f"+{mb(s.horses_kb)}" if s.horses else "")
            for s in self.rss
        )
        print(f"  series (worker[+horses]): {series}")
        third = max(1, len(worker) // 3)
        growth_kb = sum(worker[-third:]) / third - sum(worker[:third]) / third
        if growth_kb <= max(2048, 0.05 * worker[0]):
            verdict = "flat: no sign of unbounded growth over the run"
        else:
            verdict = f"GROWS: +{mb(growth_kb)} MB from the first to the last third of the run"
        print(f"  worker process: {verdict} (work horses are forked per job and exit)")
        gunicorn = [s.gunicorn_kb for s in self.rss]
        print(
            f"  gunicorn master + {GUNICORN_WORKERS} workers, for reference: start "
            f"{mb(gunicorn[0])}, max {mb(max(gunicorn))}, end {mb(gunicorn[-1])}"
        )


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
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def mb(kb: float) -> str:
    return f"{kb / 1024:.0f}"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    sys.exit(main())
