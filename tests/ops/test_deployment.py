"""The shipped deployment (Dockerfile, compose.yaml, Caddyfile) is secure and supervised as shipped.

compose.yaml is read as text: PyYAML is not a dependency, and the file keeps to
a plain shape (two-space indents, one `x-app` anchor merged into the services).
"""

from __future__ import annotations

import contextlib
import http.server
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from config import probe

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = (ROOT / "compose.yaml").read_text()


def top_level_block(name: str) -> list[str]:
    """The lines of a top-level key's block, e.g. `x-app` or `services`."""
    lines = COMPOSE.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"{re.escape(name)}:", line))
    block = []
    for line in lines[start + 1 :]:
        if line and not line.startswith((" ", "#")):
            break
        block.append(line)
    return block


def service(name: str) -> list[str]:
    """The lines of one service under `services:` (without its own `name:` line)."""
    lines = top_level_block("services")
    start = lines.index(f"  {name}:")
    block = []
    for line in lines[start + 1 :]:
        if line.strip() and not line.startswith("    "):
            break
        block.append(line)
    return block


def mapping(block: list[str], key: str, indent: int) -> dict[str, str]:
    """The `KEY: value` lines under `key:` in a block, one level deeper than `indent`."""
    prefix = " " * indent
    start = block.index(f"{prefix}{key}:")
    values = {}
    for line in block[start + 1 :]:
        if line.strip().startswith("#"):
            continue
        if not line.startswith(prefix + "  ") or line.startswith(prefix + "   "):
            break
        name, _, value = line.strip().partition(":")
        values[name] = value.strip().strip('"')
    return values


def app_environment() -> dict[str, str]:
    return mapping(top_level_block("x-app"), "environment", 2)


def command(name: str) -> list[str]:
    line = next(line for line in service(name) if line.startswith("    command:"))
    return shlex.split(line.partition("command:")[2])


def with_defaults(value: str, given: dict[str, str]) -> str:
    """Compose's interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?message}`."""

    def substitute(match: re.Match[str]) -> str:
        name, operator, rest = match.group(1), match.group(2), match.group(3)
        if name in given:
            return given[name]
        if operator == ":-":
            return rest
        raise AssertionError(f"compose.yaml needs {name} to be set")

    return re.sub(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}", substitute, value)


# --- behind the TLS proxy -------------------------------------------------------------------


def test_every_app_service_takes_the_shared_environment_unchanged():
    for name in ("web", "worker", "cron"):
        lines = service(name)
        assert "    <<: *app" in lines, name
        assert not any(line.startswith("    environment:") for line in lines), name


def test_compose_sets_behind_tls_proxy_for_the_web_service():
    environment = app_environment()
    assert environment["BEHIND_TLS_PROXY"] == "true"
    # Redirecting plain HTTP stays on (the default without DEBUG), and so does HSTS.
    assert "SECURE_SSL_REDIRECT" not in environment
    assert "SECURE_HSTS_SECONDS" not in environment
    assert "DEBUG" not in environment
    assert environment["SITE_URL"].startswith("https://")


def test_only_the_tls_proxy_publishes_a_port_and_it_forwards_to_web():
    assert not any(line.startswith("    ports:") for line in service("web"))
    proxy = service("proxy")
    assert any(line.startswith("    image: caddy:2") for line in proxy)
    assert any("443:443" in line for line in proxy if line.startswith("    ports:"))
    assert any("./Caddyfile:/etc/caddy/Caddyfile" in line for line in proxy)
    caddyfile = (ROOT / "Caddyfile").read_text()
    assert "reverse_proxy web:8000" in caddyfile
    # Caddy must not be told to trust a client's X-Forwarded-Proto.
    assert "trusted_proxies" not in caddyfile


@pytest.mark.heavy
def test_the_shipped_environment_sends_hsts_and_redirects_plain_http():
    """Settings loaded in a fresh interpreter from compose.yaml's own environment."""
    given = {"SECRET_KEY": "compose-test-secret-key-long-enough-0123456789abcdef-xyz"}
    environment = {name: with_defaults(value, given) for name, value in app_environment().items()}
    host = environment["ALLOWED_HOSTS"].split(",")[0]
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "client = Client()\n"
        f"proxied = client.get('/livez', HTTP_HOST={host!r}, HTTP_X_FORWARDED_PROTO='https')\n"
        "print(proxied.status_code, proxied.headers.get('Strict-Transport-Security'))\n"
        f"plain = client.get('/', HTTP_HOST={host!r})\n"
        "print(plain.status_code, plain.headers.get('Location'))\n"
        f"probe = client.get('/livez', HTTP_HOST={host!r})\n"
        "print(probe.status_code)\n"
    )
    unset = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "REDIS_URL", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(environment, DJANGO_SETTINGS_MODULE="config.settings")
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    proxied, plain, probe_status = result.stdout.splitlines()
    assert proxied.startswith("200 max-age=31536000")
    assert plain == f"301 https://{host}/"
    assert probe_status == "200"  # the container's probe asks over plain HTTP


# --- the health check asks liveness only ----------------------------------------------------


def test_the_docker_healthcheck_asks_liveness():
    dockerfile = (ROOT / "Dockerfile").read_text()
    check = dockerfile[dockerfile.index("HEALTHCHECK") :].split("\nCMD ")[0]
    assert '"config.probe"' in check
    assert "healthz" not in check
    assert probe.LIVEZ_URL.endswith("/livez")


def test_the_compose_healthcheck_of_web_asks_liveness_and_the_others_have_none():
    web = mapping(service("web"), "healthcheck", 4)
    assert "config.probe" in web["test"] and "healthz" not in web["test"]
    assert mapping(top_level_block("x-app"), "healthcheck", 2) == {"disable": "true"}
    for name in ("worker", "cron"):
        assert not any(line.startswith("    healthcheck:") for line in service(name)), name


@pytest.mark.parametrize(
    ("allowed", "host"),
    [("clubs.example.org,www.example.org", "clubs.example.org"), (".example.org", "example.org"),
     ("*", "localhost"), ("", "localhost")],
)  # fmt: skip
def test_the_probe_asks_as_the_first_allowed_host(allowed, host):
    assert probe.first_allowed_host(allowed) == host


@pytest.fixture
def stub_server() -> Iterator[str]:
    """A server answering /livez 200 and anything else 503, like a web process without Redis."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200 if self.path == "/livez" else 503)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_probe_passes_on_200_and_fails_on_an_error_status_or_no_answer(stub_server):
    assert probe.alive(f"{stub_server}/livez", "localhost")
    assert not probe.alive(f"{stub_server}/healthz", "localhost")
    assert not probe.alive("http://127.0.0.1:1/livez", "localhost", timeout=1)


# --- the worker leaves nothing behind -------------------------------------------------------


def test_no_shipped_worker_command_starts_rqs_scheduler():
    assert command("worker") == ["python", "manage.py", "rqworker", "default"]
    # The documents too: a deployment copies its worker commands from docs/operations.md.
    docs = sorted((ROOT / "docs").glob("*.md"))
    paths = [ROOT / p for p in ("compose.yaml", "Dockerfile", "Makefile", "README.md")] + docs
    documented = 0
    for path in paths:
        for line in path.read_text().splitlines():
            if "rqworker" in line:
                assert "--with-scheduler" not in line, f"{path.relative_to(ROOT)}: {line}"
                documented += path in docs
    assert documented, "no rqworker line in docs/*.md: the worker commands moved elsewhere?"


def test_nothing_schedules_a_job_for_later_so_no_scheduler_is_needed():
    """A job for later (enqueue_at/enqueue_in, Retry with intervals) needs rq's scheduler:
    whoever adds one must also run it (as a service of its own, not --with-scheduler)."""
    sources = [
        p
        for folder in ("billing", "clubs", "config", "ladder", "matching")
        for p in (ROOT / folder).rglob("*.py")
    ]
    for path in sources:
        text = path.read_text()
        for call in ("enqueue_at(", "enqueue_in(", "Retry("):
            assert call not in text, f"{path.relative_to(ROOT)} uses {call}"


def test_compose_stops_the_worker_with_a_warm_shutdown_under_an_init():
    assert mapping(top_level_block("services"), "worker", 2)["stop_signal"] == "SIGTERM"
    assert any(line.strip() == "init: true" for line in top_level_block("x-app"))


def _session_members(session: int) -> list[int]:
    """Every live process whose process group is `session` (the worker's own)."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        state, group = fields[0], int(fields[2])
        if group == session and state != "Z":
            members.append(int(entry.name))
    return members


@pytest.mark.redis
@pytest.mark.timeout(120)
def test_a_sigkilled_worker_as_shipped_leaves_no_process_behind(settings):
    from redis import Redis
    from rq import Worker

    redis = Redis.from_url(settings.REDIS_URL)
    redis.flushdb()
    env = {**os.environ, "DEBUG": "true", "REDIS_URL": settings.REDIS_URL}
    env.pop("DATABASE_URL", None)  # an idle worker reads no database
    worker = subprocess.Popen(
        [sys.executable, *command("worker")[1:]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        # Idle: past its start-up, where --with-scheduler forks the scheduler.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            states = [w.get_state() for w in Worker.all(connection=redis) if w.pid == worker.pid]
            if states == ["idle"]:
                break
            assert worker.poll() is None, "the worker exited on its own"
            time.sleep(0.1)
        else:
            raise AssertionError("the worker did not become idle")
        os.kill(worker.pid, signal.SIGKILL)  # the worker alone, as the OOM killer would
        worker.wait(timeout=10)
        assert _session_members(worker.pid) == []
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
        worker.wait(timeout=10)
        redis.flushdb()


def _children(pid: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                children.append(int(entry.name))
    return children


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_worker_class_in_settings_is_the_one_whose_horse_dies_with_it(settings):
    from django_rq.workers import get_worker_class

    from config.rq_worker import HorseDiesWithWorker

    assert get_worker_class() is HorseDiesWithWorker


@pytest.mark.redis
@pytest.mark.timeout(120)
def test_a_sigkilled_busy_worker_takes_its_work_horse_with_it(settings):
    """rq puts the horse in a process group of its own, so a kill of the worker's PID alone
    (the OOM killer, `kill -9 PID`) would leave it running; it must die with the worker."""
    from redis import Redis
    from rq import Queue, Worker

    redis = Redis.from_url(settings.REDIS_URL)
    redis.flushdb()
    Queue("default", connection=redis).enqueue("time.sleep", 60, job_timeout=120)
    env = {**os.environ, "DEBUG": "true", "REDIS_URL": settings.REDIS_URL}
    env.pop("DATABASE_URL", None)  # the job reads no database
    worker = subprocess.Popen(
        [sys.executable, *command("worker")[1:]],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    horses: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not horses:
            busy = [w for w in Worker.all(connection=redis) if w.pid == worker.pid]
            if busy and busy[0].get_state() == "busy":
                horses = _children(worker.pid)
            assert worker.poll() is None, "the worker exited on its own"
            time.sleep(0.1)
        assert len(horses) == 1, "the worker did not start its work horse"
        horse = horses[0]
        assert os.getpgid(horse) == horse  # rq's own process group for the horse

        os.kill(worker.pid, signal.SIGKILL)  # the worker's PID alone
        worker.wait(timeout=10)
        deadline = time.monotonic() + 10
        while _alive(horse) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(horse), "the work horse outlived its worker"
    finally:
        for pid in [worker.pid, *horses]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
        worker.wait(timeout=10)
        redis.flushdb()


# --- deploys that do not collide -------------------------------------------------------------


def test_migrations_run_once_in_a_one_shot_service_that_web_worker_and_cron_wait_for():
    migrate = command("migrate")
    assert migrate[:2] == ["sh", "-c"]
    steps = migrate[2].split(" && ")
    assert steps == [
        "python manage.py migrate --noinput",
        "python manage.py collectstatic --noinput",  # never --clear: the last version's stay
    ]
    assert '    restart: "no"' in service("migrate")
    waits = top_level_block("x-app")
    start = waits.index("  depends_on:")
    assert waits[start + 5 : start + 7] == [
        "    migrate:", "      condition: service_completed_successfully"
    ]  # fmt: skip
    for name in ("web", "worker", "cron"):
        lines = service(name)
        assert not any(line.startswith("    depends_on:") for line in lines), name
        assert not any("migrate" in line for line in lines if line.startswith("    command:"))


def test_every_app_service_shares_one_static_root_volume():
    assert "  volumes: [static:/app/var/static]" in top_level_block("x-app")
    assert "  static:" in top_level_block("volumes")
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "collectstatic --noinput" in dockerfile and "--clear" not in dockerfile
