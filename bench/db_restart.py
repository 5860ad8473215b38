"""PostgreSQL restarted under traffic: what visitors get while it goes down and comes back.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubpages_restart \\
    DEBUG=true .venv/bin/python bench/db_restart.py [--workers 2] [--clients 6] \\
    [--before 4] [--after 10]

**Restarts the machine's PostgreSQL cluster** (`pg_ctlcluster VERSION main restart`, as root):
run it on a development machine where nothing else is using that server. The database
DATABASE_URL names is DROPPED and created again (its name must contain "restart"), migrated and
given a public club of 60 players and 20 events. Then gunicorn serves it as production does
(DEBUG off, `PAGE_CACHE_SECONDS=0` so every request reads the database, no Redis), `--clients`
visitors ask for its pages back to back, and after `--before` seconds the cluster is
restarted; the visitors go on for `--after` seconds.

Printed: every answer by status, asked before, during (while the restart command ran) and
after the restart; the slowest answer; how long the restart itself took. The issue's
reference (issue 34): one 500 per web worker before health checks and the retry. Exits 1 if
any answer was a 500 (a 503 with Retry-After is what a page asked for while the database is
away longer than config.middleware.DATABASE_WAIT_SECONDS gets).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.kit import clubs as bench_clubs  # noqa: E402
from bench.kit.django_env import throwaway_database  # noqa: E402
from bench.kit.machine import print_command_and_machine  # noqa: E402
from bench.kit.servers import (  # noqa: E402
    Servers,
    deployment_env,
    free_port,
    gunicorn,
    http_status,
)

SLUG = "restart-club"


def cluster_version() -> str:
    versions = sorted(Path("/etc/postgresql").iterdir())
    if not versions:
        sys.exit(
            "bench/db_restart.py restarts a Debian PostgreSQL cluster: none in /etc/postgresql"
        )
    return versions[-1].name


def restart_cluster(version: str) -> float:
    started = time.monotonic()
    subprocess.run(
        ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"], check=True
    )
    return time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--clients", type=int, default=6)
    parser.add_argument("--before", type=float, default=4.0)
    parser.add_argument("--after", type=float, default=10.0)
    options = parser.parse_args()
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")  # asked for; not served
    with throwaway_database(
        "db_restart.py", "restart", "clubpages_restart", "redis://127.0.0.1:6379/15"
    ) as (database_url, _redis_url):
        bench_clubs.small_club(SLUG, "Restart Chess Club", "public", "ladder", 60, 20, 12, 4)
        from django.db import connection

        connection.close()  # the restart would leave this process a dead connection
        print_command_and_machine()
        env = deployment_env(database_url, "", "bench-restart-" + "x" * 40, PAGE_CACHE_SECONDS="0")
        env.pop("REDIS_URL", None)
        servers = Servers("restart")
        servers.collectstatic(env)
        port = free_port()
        servers.spawn("web", gunicorn(port, options.workers), env)
        base = f"http://127.0.0.1:{port}/c/{SLUG}/"
        servers.wait_until(lambda: http_status(base, timeout=5) == 200, 60, "gunicorn")
        paths = ["", "players/", "events/", "how-ratings-work/", "ladder.json", "no-such-page/"]
        answers: list[tuple[float, int, float]] = []  # (time sent, status, seconds taken)
        stop = threading.Event()
        lock = threading.Lock()

        def visitor(number: int) -> None:
            turn = number
            while not stop.is_set():
                sent = time.monotonic()
                status = http_status(base + paths[turn % len(paths)], timeout=60)
                with lock:
                    answers.append((sent, status, time.monotonic() - sent))
                turn += 1

        threads = [threading.Thread(target=visitor, args=(n,)) for n in range(options.clients)]
        for thread in threads:
            thread.start()
        time.sleep(options.before)
        restart_began = time.monotonic()
        took = restart_cluster(cluster_version())
        time.sleep(options.after)
        stop.set()
        for thread in threads:
            thread.join()
        servers.stop()
        back = restart_began + took  # the restart command returned: the server accepts again
        phases: dict[str, collections.Counter[int]] = {
            name: collections.Counter() for name in ("before", "during", "after")
        }
        for sent, status, _ in answers:
            phase = "before" if sent < restart_began else "during" if sent <= back else "after"
            phases[phase][status] += 1
        print(f"restart took {took:.2f} s ('during': asked while the restart command ran)")
        for name, counts in phases.items():
            shown = ", ".join(f"{status}: {n}" for status, n in sorted(counts.items())) or "none"
            print(f"{name:>7}: {shown}")
        print(f"slowest answer: {max(taken for _, _, taken in answers):.2f} s")
        # 404 is the answer to the missing page among the paths (its 404 page reads the
        # database too); 503 with Retry-After is what a page waited out past
        # DATABASE_WAIT_SECONDS gets. A 500 or a refused connection is an error.
        errors = sum(n for counts in phases.values() for status, n in counts.items()
                     if status not in (200, 404, 503))  # fmt: skip
        print(f"500s or failed connections: {errors} (reference: one 500 per web worker)")
        servers.finish(1 if errors else 0)
        return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
