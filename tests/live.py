"""Real processes for tests that need them: rq workers and gunicorn on the test database."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url(name: str | None = None) -> str:
    """The test database (or another on the same server) as a DATABASE_URL."""
    db = connection.settings_dict
    host, port = db["HOST"] or "127.0.0.1", db["PORT"] or 5432
    return f"postgres://{db['USER']}@{host}:{port}/{name or db['NAME']}"


def process_env(redis_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {**os.environ, "DEBUG": "true", "DATABASE_URL": database_url(), **extra}
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


def start_worker(
    redis_url: str, *, burst: bool, forking: bool = True, queues: tuple[str, ...] = ("default",)
) -> subprocess.Popen:
    # A SimpleWorker runs jobs in its own process, so killing it kills the replay;
    # the default Worker runs each job in a forked work horse of its own session.
    worker_class = "rq.Worker" if forking else "rq.worker.SimpleWorker"
    args = [sys.executable, "manage.py", "rqworker", *queues, "--worker-class", worker_class]
    if burst:
        args.append("--burst")
    # A session of its own, so a kill takes the worker and everything it started.
    return subprocess.Popen(
        args,
        cwd=ROOT,
        env=process_env(redis_url),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def run_burst_worker(redis_url: str) -> None:
    """A worker like `make worker`'s (replays first, then files) until both queues are empty."""
    worker = start_worker(redis_url, burst=True, queues=("default", "uploads"))
    assert worker.wait(timeout=120) == 0


def kill(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=10)


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError("condition not reached in time")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(env: dict[str, str], workers: int = 2) -> tuple[subprocess.Popen, str]:
    """gunicorn on a free loopback port; returns the process and its base URL once it answers."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "60"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"

    def answers() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    wait_until(answers, timeout=60)
    return server, base
