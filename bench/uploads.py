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

--file largest posts, instead, the largest event an upload may hold (2,000 entrants, 30
rounds, 30,000 games: bench/upload_read.py's PGN), which the worker reads whole (seconds of
CPU); the threads fetch the draft's version before each post, so each read file is stored.
--corrections N corrects one result of the other club every N seconds (in this process,
through ladder.changes, as a director's confirm does) and times until its ladder is
current again: the replay's wait in the queue plus its run. --workers picks the workers:
"shipped" (compose's: `rqworker default` for replays alone and `nice -n 10 rqworker uploads
default`), "one" (`make worker`'s: one `rqworker default uploads`) or "main" (one `rqworker
default`, every job on one queue: what main ships; use it with --serve).

Reported: the probes' p50/p95/max and count, the uploads' outcomes and latencies, the
corrections' replay times, and the CPU each process group used. Exits 1 when a probe's p95
is 300 ms or more.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import requests
from urllib3 import encode_multipart_formdata

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit import clubs as bench_clubs  # noqa: E402
from bench.kit.django_env import throwaway_database  # noqa: E402
from bench.kit.machine import load_average, print_command_and_machine  # noqa: E402
from bench.kit.measure import ms, percentile  # noqa: E402
from bench.kit.servers import (  # noqa: E402
    MANAGE,
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
)

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
    parser.add_argument("--file", choices=("attack", "largest"), default="attack")
    parser.add_argument(
        "--corrections",
        type=float,
        default=0,
        help="correct the other club every N seconds and time its replay (0: never)",
    )
    parser.add_argument("--workers", choices=("shipped", "one", "main"), default="shipped")
    parser.add_argument(
        "--upload-threads",
        type=int,
        default=UPLOAD_THREADS,
        help="parallel uploads of the account (3); 0 measures the probes alone, for comparison",
    )
    args = parser.parse_args()
    databases = throwaway_database(
        "uploads.py", "uploads", "cp_uploads", "redis://127.0.0.1:6379/2"
    )
    with databases as (database_url, redis_url):
        run = Run(database_url, redis_url, args.serve.resolve(), args.worker_nice)
        run.file, run.workers, run.every = args.file, args.workers, args.corrections
        code = 1
        try:
            code = run.execute(args.duration, args.upload_threads)
        except KeyboardInterrupt:
            code = 130
        finally:
            run.servers.stop()
            run.servers.finish(code)
    return code


def build() -> tuple[str, list[int], int]:
    """The other club (its base path and player ids) and the attacker's draft."""
    import datetime as dt

    from clubs.models import ClubRole, Event
    from tests.factories import make_club, make_user

    other = bench_clubs.small_club(
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
        self.servers = Servers("uploads", cwd=serve)
        self.base = ""
        self.probes: dict[str, list[tuple[float, int, bool]]] = {"livez": [], "player": []}
        self.uploads: list[tuple[float, str]] = []
        self.file, self.workers, self.every = "attack", "shipped", 0.0
        self.replays: list[float] = []
        self.other_slug = OTHER_SLUG

    def start(self) -> None:
        env = deployment_env(self.database_url, self.redis_url, SECRET_KEY)
        self.servers.collectstatic(env)
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        nice = ["nice", "-n", str(self.worker_nice)]
        queues = {"shipped": ["default"], "one": ["default", "uploads"], "main": ["default"]}
        worker = self.servers.spawn(
            "worker", [*nice, *MANAGE, "rqworker", *queues[self.workers]], env
        )
        started = [worker]
        if self.workers == "shipped":
            niced = ["nice", "-n", str(self.worker_nice + 10)]
            command = [*niced, *MANAGE, "rqworker", "uploads", "default"]
            started.append(self.servers.spawn("upload-worker", command, env))
        self.servers.spawn("gunicorn", gunicorn(port, GUNICORN_WORKERS), env)
        workers = rq_worker_pids(self.redis_url)
        self.servers.wait_until(
            lambda: (
                http_status(self.base + "/livez", timeout=2) == 200
                and {w.pid for w in started} <= workers()
            ),
            60,
            "gunicorn or the workers",
        )

    def execute(self, duration: float, upload_threads: int) -> int:
        print_command_and_machine()
        base, players, draft_id = build()
        if self.file == "largest":
            from bench.upload_read import files

            data, games = files(seed=0)["pgn"][0], 30_000
        else:
            data, games = attack_pgn()
        print(f"serving:    {self.serve} (git {git_head(self.serve)}), workers {self.workers}")
        print(f"file:       {len(data):,} bytes, {games:,} games (PGN, headers only)")
        self.start()
        session = sign_in(self.base, ATTACKER, TIMEOUT_S)
        if session is None:
            raise RuntimeError("could not sign in")
        results = f"{self.base}/manage/{ATTACKER_SLUG}/events/{draft_id}/results/"
        page = session.get(results, timeout=TIMEOUT_S)
        found = VERSION_RE.search(page.text)
        version = found.group(1) if found else "0"
        processes = self.servers.processes.values()
        cpu_before = {p.pid: process_cpu(p.pid) for p in processes}
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
        if self.every:
            threads.append(threading.Thread(target=self.correct_loop, args=(deadline,)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
        cpu = {p.pid: process_cpu(p.pid) - cpu_before[p.pid] for p in processes}
        return self.report(elapsed, cpu, upload_threads)

    def upload_loop(
        self, session: LoopbackSession, results: str, version: str, data: bytes, deadline: float
    ) -> None:
        def encoded(version: str) -> tuple[bytes, str]:
            return encode_multipart_formdata(
                {
                    "format": "auto",
                    "version": version,
                    "csrfmiddlewaretoken": session.cookies.get("csrftoken", ""),
                    "file": ("attack.pgn", data, "application/octet-stream"),
                }
            )

        # Encoded once, as an attacker would: the client's own work stays out of the figures.
        body, content_type = encoded(version)
        while time.monotonic() < deadline:
            if self.file == "largest":
                # The draft's version now, so that the file read is stored, not refused.
                found = VERSION_RE.search(session.get(results, timeout=TIMEOUT_S).text)
                body, content_type = encoded(found.group(1) if found else version)
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

    def correct_loop(self, deadline: float) -> None:
        """Every `self.every` seconds, one result of the other club corrected and committed
        (its replay queued on commit), then the time until its ladder is current."""
        from django.db import connection, transaction

        from clubs.models import Club, Game
        from clubs.results import Result
        from ladder.changes import LadderInput, club_changed

        club = Club.objects.get(slug=self.other_slug)
        game = Game.objects.filter(event__club=club).order_by("event__date", "pk").first()
        assert game is not None
        flip = [Result.WHITE_WIN, Result.BLACK_WIN]
        next_at = time.monotonic() + 2
        try:
            while next_at < deadline:
                time.sleep(max(0.0, next_at - time.monotonic()))
                started = time.monotonic()
                with transaction.atomic():
                    Game.objects.filter(pk=game.pk).update(result=flip[len(self.replays) % 2])
                    club_changed(club.pk, LadderInput())
                while time.monotonic() - started < TIMEOUT_S * 2:
                    club.refresh_from_db()
                    if club.ladder_is_current:
                        break
                    time.sleep(0.05)
                self.replays.append(time.monotonic() - started)
                next_at = max(next_at + self.every, time.monotonic() + 1)
        finally:
            connection.close()

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
        if self.replays:
            print(
                f"replays    n={len(self.replays)} p50 {ms(percentile(self.replays, 50))} "
                f"max {ms(max(self.replays))} (a correction of the other club until current)"
            )
        worker, server = self.servers.processes["worker"], self.servers.processes["gunicorn"]
        uploader = self.servers.processes.get("upload-worker")
        print(
            f"cpu:        gunicorn {cpu[server.pid]:.1f} s, worker {cpu[worker.pid]:.1f} s "
            f"(nice {self.worker_nice})"
            + (f", upload-worker {cpu[uploader.pid]:.1f} s" if uploader else "")
            + f" over {elapsed:.0f} s"
        )
        print(f"load after: {load_average()}")
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


if __name__ == "__main__":
    sys.exit(main())
