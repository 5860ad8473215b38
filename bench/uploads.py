"""One account's uploads against everyone else: gunicorn (3 sync workers), one rq worker,
PostgreSQL and Redis, on loopback.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cp_uploads REDIS_URL=redis://127.0.0.1:6379/2 \\
        .venv/bin/python bench/uploads.py [--duration 60] [--serve PATH]

The database DATABASE_URL names is DROPPED and created again (its name must contain
"uploads", so a development database is never the one dropped), migrated and filled: a
public club of 600 players (the other club), and the attacker's free club with one draft.

For --duration seconds, while three threads of the attacker's one signed-in account post a
4 MiB PGN of about 45,000 header-only games (more than an event may hold) to that draft in a
loop, without pause and without following redirects, two probes measure what everyone
else sees:

- GET /livez, five a second;
- GET a player page of the other club, five a second, each a player not asked for before
  (so never from the page cache; the X-Page-Cache header is checked).

--serve PATH serves another checkout's code (the "before" figure: `--serve /work/main`);
the data is built by this checkout's code, whose migrations are a superset.

Reported: the probes' p50/p95/max and count, the uploads' outcomes and latencies, and the
CPU each process group used. Exits 1 when a probe's p95 is 300 ms or more.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import requests
from urllib3 import encode_multipart_formdata

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import LoopbackSession, PageViewer, cpu_model, maintenance, percentile  # noqa: E402

GUNICORN_WORKERS = 3
UPLOAD_THREADS = 3
PROBES_PER_S = 5.0
P95_TARGET_MS = 300.0
PLAYERS = 600
TIMEOUT_S = 60.0
SECRET_KEY = "uploads-bench-only-not-secret-" + "x" * 30
ATTACKER = "attacker@uploads.example"
OTHER_SLUG, ATTACKER_SLUG = "bench-neighbours", "bench-free"
FILE_BYTES = 4 * 1024 * 1024 - 16 * 1024  # under the 4 MiB a results file may be


def attack_pgn(size: int = FILE_BYTES) -> tuple[bytes, int]:
    """Header-only games of 2,000 players, 1,000 boards a round, until `size` bytes: every
    round is valid, and round 31 passes the rounds limit (games 30,001 on)."""
    games: list[str] = []
    total = 0
    while True:
        n = len(games)
        white = (n % 1000) * 2 + 1
        game = (
            f'[Event "Open"]\n[Round "{n // 1000 + 1}"]\n[White "P{white:04d}"]\n'
            f'[Black "P{white + 1:04d}"]\n[Result "1-0"]\n\n1-0\n\n'
        )
        if total + len(game) > size:
            return "".join(games).encode(), n
        games.append(game)
        total += len(game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60, help="seconds of load (60)")
    parser.add_argument("--serve", type=Path, default=ROOT, help="checkout to serve (this one)")
    parser.add_argument(
        "--worker-nice",
        type=int,
        default=0,
        help="run the rq worker at this nice value (0), as a deployment may",
    )
    parser.add_argument(
        "--upload-threads",
        type=int,
        default=UPLOAD_THREADS,
        help="parallel uploads of the account (3); 0 measures the probes alone, for comparison",
    )
    args = parser.parse_args()
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    name = urlsplit(database_url).path.lstrip("/")
    if urlsplit(database_url).scheme not in ("postgres", "postgresql") or "uploads" not in name:
        sys.exit("bench/uploads.py drops its database: set DATABASE_URL=postgres://…/cp_uploads")
    if urlsplit(redis_url).scheme not in ("redis", "rediss", "unix"):
        sys.exit("bench/uploads.py needs Redis: set REDIS_URL=redis://127.0.0.1:6379/2")
    maintenance(
        database_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'
    )
    os.environ.setdefault("DEBUG", "true")  # settings load without SECRET_KEY here
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    settings.DEBUG = False
    run = Run(database_url, redis_url, args.serve.resolve(), args.worker_nice)
    code = 1
    try:
        call_command("migrate", verbosity=0, interactive=False)
        code = run.execute(args.duration, args.upload_threads)
    except KeyboardInterrupt:
        code = 130
    finally:
        run.stop()
        connection.close()
        maintenance(database_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        if code == 0:
            shutil.rmtree(run.logs)
        else:
            print(f"logs:       {run.logs}")
    return code


def build() -> tuple[str, list[int], int]:
    """The other club (its base path and player ids) and the attacker's draft."""
    import datetime as dt

    import bench.sample_clubs as sample_clubs
    from clubs.models import ClubRole, Event
    from tests.factories import make_club, make_user

    other = sample_clubs.small_club(
        OTHER_SLUG, "Bench Neighbours Chess Club", "public", "ladder", PLAYERS, 40, 30, 5
    )
    attacker = make_user(ATTACKER)
    club = make_club(slug=ATTACKER_SLUG, owner=attacker)
    assert ClubRole.objects.filter(club=club, user=attacker).exists()
    draft = Event.objects.create(club=club, name="Uploads", date=dt.date.today())
    players = list(other.players.order_by("id").values_list("id", flat=True))
    return f"/c/{other.slug}/", players, draft.pk


class Run:
    def __init__(self, database_url: str, redis_url: str, serve: Path, worker_nice: int) -> None:
        self.database_url, self.redis_url, self.serve = database_url, redis_url, serve
        self.worker_nice = worker_nice
        self.logs = Path(tempfile.mkdtemp(prefix="clubpages-uploads-"))
        self.processes: list[subprocess.Popen] = []
        self.base = ""
        self.probes: dict[str, list[tuple[float, int, bool]]] = {"livez": [], "player": []}
        self.uploads: list[tuple[float, str]] = []

    def env(self) -> dict[str, str]:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "DEBUG": "false",
            "SECRET_KEY": SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "LOG_LEVEL": "WARNING",
        }
        env.pop("BEHIND_TLS_PROXY", None)
        return env

    def start(self) -> None:
        from redis import Redis
        from rq import Worker

        env = self.env()
        manage = [sys.executable, "manage.py"]
        subprocess.run(
            [*manage, "collectstatic", "--noinput", "-v0"], cwd=self.serve, env=env, check=True
        )
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        options = f"--bind 127.0.0.1:{port} --workers {GUNICORN_WORKERS} --timeout 60"
        gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi:application", *options.split()]
        worker = ["nice", "-n", str(self.worker_nice), *manage, "rqworker", "default"]
        for command, log in ((worker, "worker"), (gunicorn, "gunicorn")):
            self.processes.append(
                subprocess.Popen(
                    command,
                    cwd=self.serve,
                    env=env,
                    start_new_session=True,
                    stdout=(self.logs / f"{log}.log").open("wb"),
                    stderr=subprocess.STDOUT,
                )
            )
        deadline = time.monotonic() + 60
        redis = Redis.from_url(self.redis_url)
        while not (
            self.answers("/livez")
            and any(w.pid == self.processes[0].pid for w in Worker.all(connection=redis))
        ):
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.processes):
                raise RuntimeError(f"gunicorn or the worker did not start; see {self.logs}")
            time.sleep(0.2)

    def answers(self, path: str) -> bool:
        try:
            with urllib.request.urlopen(self.base + path, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait(timeout=10)

    def execute(self, duration: float, upload_threads: int) -> int:
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"command:    {' '.join(['python', *sys.argv])}")
        print(f"machine:    nproc={len(os.sched_getaffinity(0))}, {cpu_model()}, load {load}")
        base, players, draft_id = build()
        data, games = attack_pgn()
        print(f"serving:    {self.serve} (git {git_head(self.serve)})")
        print(f"file:       {len(data):,} bytes, {games:,} games (PGN, headers only)")
        self.start()
        session = self.sign_in()
        results = f"{self.base}/manage/{ATTACKER_SLUG}/events/{draft_id}/results/"
        page = session.get(results, timeout=TIMEOUT_S)
        found = re.search(r'name="version" value="(\d+)"', page.text)
        version = found.group(1) if found else "0"
        cpu_before = {p.pid: process_cpu(p.pid) for p in self.processes}
        started = time.monotonic()
        deadline = started + duration
        upload_args = (session, results, version, data, deadline)
        threads = [
            threading.Thread(target=self.upload_loop, args=upload_args)
            for _ in range(upload_threads)
        ]
        threads.append(threading.Thread(target=self.probe, args=("livez", deadline, None, None)))
        threads.append(
            threading.Thread(target=self.probe, args=("player", deadline, base, players))
        )
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        cpu = {p.pid: process_cpu(p.pid) - cpu_before[p.pid] for p in self.processes}
        return self.report(elapsed, cpu, upload_threads)

    def sign_in(self) -> LoopbackSession:
        from tests.factories import PASSWORD

        session = LoopbackSession()
        login = f"{self.base}/accounts/login/"
        page = session.get(login, timeout=TIMEOUT_S)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        response = session.post(
            login,
            data={
                "username": ATTACKER,
                "password": PASSWORD,
                "csrfmiddlewaretoken": token.group(1) if token else "",
            },
            headers={"Referer": login},
            timeout=TIMEOUT_S,
            allow_redirects=False,
        )
        if response.status_code != 302:
            raise RuntimeError(f"could not sign in: {response.status_code}")
        return session

    def upload_loop(
        self, session: LoopbackSession, results: str, version: str, data: bytes, deadline: float
    ) -> None:
        # Encoded once, as an attacker would: the client's own work stays out of the figures.
        body, content_type = encode_multipart_formdata(
            {
                "format": "auto",
                "version": version,
                "csrfmiddlewaretoken": session.cookies.get("csrftoken", ""),
                "file": ("attack.pgn", data, "application/octet-stream"),
            }
        )
        while time.monotonic() < deadline:
            started = time.monotonic()
            try:
                response = session.post(
                    results + "upload/",
                    data=body,
                    headers={"Referer": results, "Content-Type": content_type},
                    timeout=TIMEOUT_S,
                    allow_redirects=False,
                )
                outcome = upload_outcome(response)
            except (requests.RequestException, OSError) as error:
                outcome = f"error: {type(error).__name__}"
            self.uploads.append((time.monotonic() - started, outcome))

    def probe(
        self, kind: str, deadline: float, base: str | None, players: list[int] | None
    ) -> None:
        viewer = PageViewer(self.base)
        order = list(players or [])
        random.Random(2026).shuffle(order)
        every = 1 / PROBES_PER_S
        next_at = time.monotonic()
        while time.monotonic() < deadline:
            path = "/livez" if kind == "livez" else f"{base}players/{order.pop()}/"
            started = time.monotonic()
            try:
                status, cached = viewer.get(path)
            except OSError:
                status, cached = 0, False
            self.probes[kind].append((time.monotonic() - started, status, cached))
            if kind == "player" and not order:
                break  # every player asked once: no uncached page left
            next_at += every
            time.sleep(max(0.0, next_at - time.monotonic()))

    def report(self, elapsed: float, cpu: dict[int, float], upload_threads: int) -> int:
        worst = 0.0
        print(f"load:       {elapsed:.0f} s, {upload_threads} upload threads, 2 probes")
        for kind, samples in self.probes.items():
            times = [t for t, _s, _c in samples]
            statuses = Counter(s for _t, s, _c in samples)
            cached = sum(1 for _t, _s, c in samples if c)
            p95 = percentile(times, 95)
            worst = max(worst, p95)
            print(
                f"probe {kind:<6} n={len(times)} p50 {ms(percentile(times, 50))} "
                f"p95 {ms(p95)} max {ms(max(times, default=0))} statuses {dict(statuses)}"
                + (f" cached {cached}" if kind == "player" else "")
            )
        outcomes = Counter(outcome for _t, outcome in self.uploads)
        for outcome, count in outcomes.most_common():
            times = [t for t, o in self.uploads if o == outcome]
            print(
                f"upload     {outcome}: {count}, p50 {ms(percentile(times, 50))} "
                f"max {ms(max(times))}"
            )
        worker, gunicorn = self.processes
        print(
            f"cpu:        gunicorn {cpu[gunicorn.pid]:.1f} s, worker {cpu[worker.pid]:.1f} s "
            f"(nice {self.worker_nice}) "
            f"over {elapsed:.0f} s"
        )
        print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return 0 if worst * 1000 < P95_TARGET_MS else 1


def upload_outcome(response: requests.Response) -> str:
    """What the server did with one upload, from its answer."""
    if response.status_code == 409:
        return "refused: another upload in progress (409)"
    location = response.headers.get("Location", "")
    if response.status_code == 302 and "/upload/" in location:
        return "queued for the worker (302 to the progress page)"
    if response.status_code == 302 and location.endswith("/results/"):
        return "refused (302 to the results page)"
    return f"other ({response.status_code} {location})"


def process_cpu(pid: int) -> float:
    """User and system CPU seconds of a process, its children and those it has reaped."""
    total = 0.0
    for child in [pid, *children_of(pid)]:
        try:
            fields = Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, and cutime, cstime: rq's work horses and exited workers count too.
        total += sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def children_of(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    direct = [int(child) for child in text.split()]
    return direct + [grand for child in direct for grand in children_of(child)]


def git_head(path: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(path), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "?"


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


if __name__ == "__main__":
    sys.exit(main())
