"""Two hosts behind a load balancer on one PostgreSQL and one Redis: write on one, read the other.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_hosts \\
    REDIS_URL=redis://127.0.0.1:6379/12 DEBUG=true .venv/bin/python bench/hosts.py

The database DATABASE_URL names is DROPPED and created again (its name must contain "hosts"),
migrated and filled with bench/sample_clubs.py's large club (500 players, 300 events, 30,000
games); Redis's database is flushed. Then, as a two-host deployment runs them (DEBUG off):
`collectstatic` once into a shared STATIC_ROOT, gunicorn on host A and on host B (2 sync
workers each), two `rqworker default uploads` and one `rqcron config.cron`. Host A reaches
Redis through a TCP relay this script can cut. The sweep re-queues ladders out of date for more
than LADDER_SWEEP_AFTER_SECONDS=10 (the cron runs it every 60 s).

Three corrections, each a director's paste of the club's first event with one result
changed, confirmed on host A (so the whole history replays), while both hosts' ladder pages
are polled every 50 ms by visitors:

1. plain: the worker replays;
2. a worker killed (SIGKILL, its PID only) while its work horse replays: the horse dies
   with it, the replay rolls back, the sweep re-queues it and the other worker replays;
3. Redis cut for host A (the relay accepts and never answers): the correction commits, the
   sweep (whose Redis answers) re-queues it.

Printed per correction: how long its confirm took on host A, when each host first showed
the "being recalculated" notice and then the new numbers (seconds after the confirm
returned), how many of a visitor's samples showed the old numbers without the notice (must
be 0), and when `verify_ladder` (a process of its own, about 5 s) first said ok. Also host
A's probes, and what they cost, while its Redis hangs.
Exits 1 if any page answered other than 200, stale numbers showed without the notice, or a
ladder did not heal. The database is dropped at the end; logs are kept only on failure.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit import clubs as bench_clubs  # noqa: E402
from bench.kit.django_env import throwaway_database  # noqa: E402
from bench.kit.machine import print_command_and_machine  # noqa: E402
from bench.kit.servers import (  # noqa: E402
    MANAGE,
    LoopbackSession,
    Servers,
    confirm,
    deployment_env,
    free_port,
    gunicorn,
    http_get,
    http_status,
    paste,
    rq_worker_pids,
    sign_in,
)

SECRET_KEY = "hosts-bench-only-not-secret-" + "x" * 30
DIRECTOR = "director@hosts.example"
NOTICE = "The ladder is being recalculated"
POLL_S = 0.05
HEAL_TIMEOUT_S = 180.0
SWEEP_AFTER_S = 10
STATUS_RE = re.compile(r"<!--ladder-status-->.*?<!--/ladder-status-->", re.S)


class Relay:
    """A TCP relay to Redis that can be cut: it then accepts and never answers (a hung Redis)."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.cut = False
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        with contextlib.suppress(OSError):
            while True:
                client, _ = self.listener.accept()
                self.open.append(client)
                if self.cut:
                    continue  # held, never answered
                upstream = socket.create_connection(self.target)
                self.open.append(upstream)
                for a, b in ((client, upstream), (upstream, client)):
                    threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while (data := source.recv(65536)) and not self.cut:
                sink.sendall(data)
        # A cut leaves both ends open and silent: the client's reads wait for its timeout.

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for sock in self.open:
            sock.close()


@dataclass
class Watch:
    """What one host's ladder page showed after a correction."""

    before: str
    notice_at: float | None = None
    new_at: float | None = None
    stale_without_notice: int = 0
    samples: int = 0
    bad_status: list[int] = field(default_factory=list)


class Deployment:
    def __init__(self, database_url: str, redis_url: str) -> None:
        self.database_url, self.redis_url = database_url, redis_url
        self.servers = Servers("hosts")
        self.static_root = self.servers.logs / "static"
        redis = urlsplit(redis_url)
        self.relay = Relay((redis.hostname or "127.0.0.1", redis.port or 6379))
        self.bases: dict[str, str] = {}

    def env(self, redis_url: str | None = None) -> dict[str, str]:
        return deployment_env(
            self.database_url,
            redis_url or self.redis_url,
            SECRET_KEY,
            STATIC_ROOT=str(self.static_root),
            LADDER_SWEEP_AFTER_SECONDS=str(SWEEP_AFTER_S),
        )

    def start(self) -> None:
        self.servers.collectstatic(self.env())
        relayed = f"redis://127.0.0.1:{self.relay.port}{urlsplit(self.redis_url).path}"
        for host, redis_url in (("A", relayed), ("B", self.redis_url)):
            port = free_port()
            self.bases[host] = f"http://127.0.0.1:{port}"
            self.servers.spawn(f"host-{host}", gunicorn(port, 2), self.env(redis_url))
        for n in (1, 2):
            self.servers.spawn(
                f"worker-{n}", [*MANAGE, "rqworker", "default", "uploads"], self.env()
            )
        self.servers.spawn("cron", [*MANAGE, "rqcron", "config.cron"], self.env())
        workers = rq_worker_pids(self.redis_url)
        self.servers.wait_until(
            lambda: (
                all(self.status(host, "/readyz") == 200 for host in self.bases)
                and {self.pid("worker-1"), self.pid("worker-2")} <= workers()
            ),
            90,
            "a process",
        )

    def pid(self, name: str) -> int:
        return self.servers.pid(name)

    def status(self, host: str, path: str) -> int:
        return http_status(self.bases[host] + path)

    def get(self, host: str, path: str) -> tuple[int, str]:
        return http_get(self.bases[host] + path)

    def stop(self) -> None:
        self.relay.close()
        self.servers.stop(whole_groups=True)


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


# --- the director ------------------------------------------------------------------------


def correct(session: LoopbackSession, base: str, slug: str, event_id: int, csv: str) -> float:
    """Paste the event's results, then confirm on the page that shows what moves: the
    seconds the confirm took (the request that queues the replay)."""
    results = f"{base}/manage/{slug}/events/{event_id}/results/"
    token, csrf = paste(session, results, csv)
    started = time.monotonic()
    applied = confirm(session, results, token, csrf)
    took = time.monotonic() - started
    assert applied.status_code == 302, f"the confirm answered {applied.status_code}"
    return took


def numbers(page: str) -> str:
    """The ladder page without its status region: what changes when the replay lands."""
    return STATUS_RE.sub("", page)


def watch(deployment: Deployment, host: str, path: str, watched: Watch, since: float,
          stop: threading.Event) -> None:  # fmt: skip
    while not stop.is_set():
        status, page = deployment.get(host, path)
        watched.samples += 1
        if status != 200:
            watched.bad_status.append(status)
        else:
            now = time.monotonic() - since
            noticed = NOTICE in page
            changed = numbers(page) != watched.before
            if noticed and watched.notice_at is None:
                watched.notice_at = now
            if not noticed and not changed:
                watched.stale_without_notice += 1  # old numbers, no notice, after the commit
            if not noticed and changed and watched.new_at is None:
                watched.new_at = now
                return
        time.sleep(POLL_S)


def verify_ok(deployment: Deployment, slug: str) -> bool:
    result = subprocess.run(
        [*MANAGE, "verify_ladder", slug],
        cwd=ROOT, env={**deployment.env(), "DEBUG": "true"}, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    return result.returncode == 0 and result.stdout.strip() == f"{slug}: ok"


@dataclass
class Outcome:
    name: str
    confirm_s: float
    watches: dict[str, Watch]
    verified_at: float | None
    note: str = ""


def one_correction(deployment: Deployment, session: LoopbackSession, slug: str, event_id: int,
                   csv: str, name: str, during: object = None) -> Outcome:  # fmt: skip
    path = f"/c/{slug}/"
    watches = {host: Watch(numbers(deployment.get(host, path)[1])) for host in ("A", "B")}
    stop = threading.Event()
    confirm_s = correct(session, deployment.bases["A"], slug, event_id, csv)
    since = time.monotonic()
    threads = [
        threading.Thread(target=watch, args=(deployment, host, path, w, since, stop), daemon=True)
        for host, w in watches.items()
    ]
    for thread in threads:
        thread.start()
    note = during() if callable(during) else ""
    deadline = since + HEAL_TIMEOUT_S
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        time.sleep(0.1)
    stop.set()
    verified_at = None
    while time.monotonic() < deadline:
        if verify_ok(deployment, slug):
            verified_at = time.monotonic() - since
            break
        time.sleep(1)
    return Outcome(name, confirm_s, watches, verified_at, note)


def kill_a_worker_mid_replay(deployment: Deployment) -> str:
    """SIGKILL the worker whose horse is replaying, its PID only, as the OOM killer would."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for name in ("worker-1", "worker-2"):
            horses = children(deployment.pid(name))
            if horses:
                os.kill(deployment.pid(name), signal.SIGKILL)
                deployment.servers.processes[name].wait(timeout=10)
                gone_by = time.monotonic() + 5
                while alive(horses[0]) and time.monotonic() < gone_by:
                    time.sleep(0.01)
                horse = "died with it" if not alive(horses[0]) else "STILL RUNNING"
                return f"killed {name} (pid {deployment.pid(name)}) mid-replay; its horse {horse}"
        time.sleep(0.005)
    return "no work horse seen within 30 s: nothing killed"


def first_event_csv(slug: str, flip: int) -> tuple[int, str]:
    """The club's first event as CSV with its first game's result changed (a different one
    each time), so every later event replays."""
    from clubs.models import Club, Game

    club = Club.objects.get(slug=slug)
    event = club.events.published().in_ladder_order().first()
    games = Game.objects.filter(event=event).order_by("round", "id")
    pairings = games.values_list("round", "white__typed_name", "black__typed_name", "result")
    codes = {"1/2": "1/2-1/2"}
    lines = ["round,white,black,result"]
    cycle = ("0-1", "1/2-1/2", "1-0")
    for n, (round_no, white, black, result) in enumerate(pairings):
        code = cycle[flip % 3] if n == 0 else codes.get(str(result), str(result))
        lines.append(f"{round_no},{white},{black},{code}")
    return event.pk, "\n".join(lines) + "\n"


def seconds(value: float | None) -> str:
    return "never" if value is None else f"{value:.2f} s"


def main() -> int:
    from redis import Redis

    databases = throwaway_database(
        "hosts.py",
        "hosts",
        "clubpages_hosts",
        "redis://127.0.0.1:6379/12",
        tcp_redis=True,
        quiet_queries=False,
    )
    with databases as (database_url, redis_url):
        Redis.from_url(redis_url).flushdb()
        deployment = Deployment(database_url, redis_url)
        code = 1
        try:
            code = run(deployment)
        finally:
            deployment.stop()
            Redis.from_url(redis_url).flushdb()
            deployment.servers.finish(code)
    return code


def run(deployment: Deployment) -> int:
    from django.db import connection

    from clubs.models import ClubRole
    from tests.factories import make_user

    print_command_and_machine()
    started = time.monotonic()
    club = bench_clubs.large_club()
    ClubRole.objects.create(club=club, user=make_user(DIRECTOR), role=ClubRole.Role.OWNER)
    print(f"data:       {club.slug}: 500 players, 300 events, 30,000 games "
          f"(built in {time.monotonic() - started:.0f} s)")  # fmt: skip
    slug = club.slug
    connection.close()
    deployment.start()
    print("deployment: host A and host B (gunicorn, 2 sync workers each, DEBUG off), "
          "2 rq workers, 1 rqcron; one PostgreSQL, one Redis (host A's through a relay); "
          f"LADDER_SWEEP_AFTER_SECONDS={SWEEP_AFTER_S}, the sweep runs every 60 s")  # fmt: skip
    session = sign_in(deployment.bases["A"], DIRECTOR)
    if session is None:
        raise RuntimeError("the director could not sign in on host A")

    outcomes = []
    event_id, csv = first_event_csv(slug, 0)
    outcomes.append(one_correction(deployment, session, slug, event_id, csv, "plain"))
    event_id, csv = first_event_csv(slug, 1)
    outcomes.append(one_correction(deployment, session, slug, event_id, csv,
                                   "worker killed mid-replay",
                                   lambda: kill_a_worker_mid_replay(deployment)))  # fmt: skip

    deployment.relay.cut = True  # host A's Redis now accepts and never answers
    probes: list[str] = []

    def probe_host_a() -> str:
        for path in ("/readyz", "/healthz", "/readyz", "/healthz"):
            begun = time.monotonic()
            answer = deployment.status("A", path)
            probes.append(f"{path} {answer} in {time.monotonic() - begun:.2f} s")
        return "host A's probes with its Redis hung: " + "; ".join(probes)

    event_id, csv = first_event_csv(slug, 2)
    outcomes.append(one_correction(deployment, session, slug, event_id, csv,
                                   "Redis cut for host A (hangs)", probe_host_a))  # fmt: skip

    failed = False
    print(f"\n{'correction':<30}{'confirm':>9}  {'host':<5}{'notice':>9}{'new numbers':>13}"
          f"{'stale, no notice':>18}{'samples':>9}  verify_ladder ok")  # fmt: skip
    for outcome in outcomes:
        for host, w in outcome.watches.items():
            print(f"{outcome.name if host == 'A' else '':<30}"
                  f"{seconds(outcome.confirm_s) if host == 'A' else '':>9}  {host:<5}"
                  f"{seconds(w.notice_at):>9}{seconds(w.new_at):>13}"
                  f"{w.stale_without_notice:>18}{w.samples:>9}  "
                  f"{seconds(outcome.verified_at) if host == 'A' else ''}")  # fmt: skip
            failed |= bool(w.bad_status) or w.stale_without_notice > 0 or w.new_at is None
        failed |= outcome.verified_at is None
        if outcome.note:
            print(f"  {outcome.note}")
    print("times are seconds after the confirm returned; the notice and new numbers as first "
          "seen by a visitor polling every 50 ms")  # fmt: skip
    bad = [s for o in outcomes for w in o.watches.values() for s in w.bad_status]
    if bad:
        print(f"FAILED: pages answered {sorted(set(bad))}")
    print("result:     " + ("FAILED" if failed else "ok"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
