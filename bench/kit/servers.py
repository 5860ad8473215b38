"""A deployment on loopback, as production runs it: gunicorn and rq workers as processes of their
own (logs kept only when a run fails), and the HTTP clients that visitors and directors are."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import requests

ROOT = Path(__file__).resolve().parents[2]
MANAGE = [sys.executable, "manage.py"]
TIMEOUT_S = 30.0
VERSION_RE = re.compile(r'name="version" value="(\d+)"')
TOKEN_RE = re.compile(r'name="token" value="([^"]+)"')  # a confirm page's held change
CSRF_RE = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def deployment_env(
    database_url: str, redis_url: str, secret_key: str, **extra: str
) -> dict[str, str]:
    """The environment of a production process (DEBUG off) on loopback, without TLS."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "false",
        "SECRET_KEY": secret_key,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "LOG_LEVEL": "WARNING",
        **extra,
    }
    env.pop("BEHIND_TLS_PROXY", None)
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def gunicorn(port: int, workers: int, app: str = "config.wsgi:application") -> list[str]:
    """gunicorn's command line: sync workers, as the Dockerfile serves."""
    return [sys.executable, "-m", "gunicorn", app, "--bind",
            f"127.0.0.1:{port}", "--workers", str(workers), "--timeout", "60"]  # fmt: skip


class Servers:
    """Processes a bench starts, each in a session of its own, logging to a folder that is
    removed at the end unless the run failed."""

    def __init__(self, name: str, cwd: Path = ROOT) -> None:
        self.cwd = cwd
        self.logs = Path(tempfile.mkdtemp(prefix=f"clubpages-{name}-"))
        self.processes: dict[str, subprocess.Popen] = {}

    def collectstatic(self, env: dict[str, str]) -> None:
        subprocess.run([*MANAGE, "collectstatic", "--noinput", "-v0"], cwd=self.cwd, env=env,
                       check=True)  # fmt: skip

    def spawn(self, name: str, command: list[str], env: dict[str, str]) -> subprocess.Popen:
        self.processes[name] = subprocess.Popen(
            command,
            cwd=self.cwd,
            env=env,
            start_new_session=True,
            stdout=(self.logs / f"{name}.log").open("wb"),
            stderr=subprocess.STDOUT,
        )
        return self.processes[name]

    def pid(self, name: str) -> int:
        return self.processes[name].pid

    def wait_until(self, ready: Callable[[], bool], timeout: float, what: str) -> None:
        """Until `ready()`; raises if that takes `timeout` seconds or a process ends first."""
        deadline = time.monotonic() + timeout
        while not ready():
            if time.monotonic() > deadline or any(
                p.poll() is not None for p in self.processes.values()
            ):
                raise RuntimeError(f"{what} did not start; see {self.logs}")
            time.sleep(0.2)

    def stop(self, *, whole_groups: bool = False) -> None:
        """SIGTERM, so that each finishes what it does (to every process of its session with
        `whole_groups`); SIGKILL to the session after 30 s."""
        for process in self.processes.values():
            if process.poll() is None:
                if whole_groups:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(process.pid, signal.SIGTERM)
                else:
                    process.send_signal(signal.SIGTERM)
                    self._wait(process)
        for process in self.processes.values():
            self._wait(process)

    @staticmethod
    def _wait(process: subprocess.Popen) -> None:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def finish(self, code: int) -> None:
        """The logs removed after a run that passed, their folder printed otherwise."""
        if code == 0:
            shutil.rmtree(self.logs)
        else:
            print(f"logs:       {self.logs}")


def rq_worker_pids(redis_url: str) -> Callable[[], set[int]]:
    """A function that returns the PIDs of the rq workers registered in that Redis."""
    from redis import Redis
    from rq import Worker

    redis = Redis.from_url(redis_url)
    return lambda: {worker.pid for worker in Worker.all(connection=redis)}


def http_get(url: str, timeout: float = TIMEOUT_S) -> tuple[int, str]:
    """Status and body of a GET (0 and "" when the connection failed)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status), response.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), ""
    except OSError:
        return 0, ""


def http_status(url: str, timeout: float = TIMEOUT_S) -> int:
    """The status of a GET, its body unread (0 when the connection failed)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError:
        return 0


class LoopbackSession(requests.Session):
    """Sends Secure cookies over loopback http, as the TLS proxy in front of a real site would."""

    def send(self, request: requests.PreparedRequest, **kwargs) -> requests.Response:
        response = super().send(request, **kwargs)
        for cookie in self.cookies:
            cookie.secure = False
        return response


def sign_in(base: str, email: str, timeout: float = TIMEOUT_S) -> LoopbackSession | None:
    """A session signed in through the login form (tests.factories' password), else None."""
    from tests.factories import PASSWORD

    session = LoopbackSession()
    login = f"{base}/accounts/login/"
    page = session.get(login, timeout=timeout)
    token = CSRF_RE.search(page.text)
    response = session.post(
        login,
        data={
            "username": email,
            "password": PASSWORD,
            "csrfmiddlewaretoken": token.group(1) if token else "",
        },
        headers={"Referer": login},
        timeout=timeout,
        allow_redirects=False,
    )
    return session if response.status_code == 302 and "sessionid" in session.cookies else None


class PageViewer:
    """Anonymous page views over http.client: no cookies, and about a third of the CPU
    requests takes a request, which matters when the client shares the cores with the server."""

    def __init__(self, base: str, timeout: float = TIMEOUT_S) -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)

    def get(self, path: str) -> tuple[int, bool]:
        """(status, served from the page cache)."""
        try:
            self.connection.request("GET", path)
            response = self.connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            self.connection.close()
            raise
        if response.will_close:  # gunicorn's sync workers close after each response
            self.connection.close()
        return response.status, response.getheader("X-Page-Cache") == "hit"


def rate(base: str, path: str, seconds: float, connections: int) -> tuple[float, float]:
    """Requests a second and the median latency of GETs of `path`, from `connections` clients
    (threads of this process, each its own connection) for `seconds`; anything but 200 stops
    the bench."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def client() -> None:
        viewer, mine = PageViewer(base), []
        while time.monotonic() < stop:
            started = time.perf_counter()
            status, _cached = viewer.get(path)
            if status != 200:
                raise SystemExit(f"{path}: {status}")
            mine.append(time.perf_counter() - started)
        viewer.connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(connections)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.monotonic() - began), statistics.median(latencies)


def paste(session: requests.Session, results: str, text: str) -> tuple[str, str]:
    """A director's paste of `text` on a published event's results page (`results`, its URL),
    for its current edit version: the held change's token on the confirm page it leads to, and
    the CSRF token."""
    page = session.get(results, timeout=TIMEOUT_S)
    version = VERSION_RE.search(page.text)
    assert version, "no results form"
    csrf = session.cookies.get("csrftoken", "")
    shown = session.post(f"{results}paste/", timeout=TIMEOUT_S, headers={"Referer": results},
                         data={"text": text, "version": version.group(1),
                               "csrfmiddlewaretoken": csrf})  # fmt: skip
    token = TOKEN_RE.search(shown.text)
    assert token, f"no confirm page ({shown.status_code})"
    return token.group(1), csrf


def confirm(session: requests.Session, results: str, token: str, csrf: str) -> requests.Response:
    """The confirm page's button pressed, as a browser posts it: the change lands."""
    return session.post(f"{results.removesuffix('results/')}confirm/", timeout=TIMEOUT_S,
                        allow_redirects=False, headers={"Referer": results},
                        data={"token": token, "confirm": "1",
                              "csrfmiddlewaretoken": csrf})  # fmt: skip


def stripe_test_settings(bench: str) -> dict[str, str]:
    """Billing on, with keys Stripe would refuse (none is ever sent) and the tests' webhook
    secret and prices, as the environment of `deployment_env`."""
    from tests.billing.stripe_events import PRICE_MONTHLY, PRICE_YEARLY, WEBHOOK_SECRET

    return {
        "STRIPE_SECRET_KEY": f"sk_test_{bench}_bench_never_sent_to_stripe",
        "STRIPE_PUBLISHABLE_KEY": f"pk_test_{bench}_bench",
        "STRIPE_WEBHOOK_SECRET": WEBHOOK_SECRET,
        "STRIPE_PRICE_MONTHLY": PRICE_MONTHLY,
        "STRIPE_PRICE_YEARLY": PRICE_YEARLY,
    }


def unknown_invoice_paid(number: int) -> tuple[bytes, dict[str, str]]:
    """A signed Stripe invoice.paid (body, headers) for a subscription no club has: the site
    logs and ignores it, answering 200."""
    import json

    from tests.billing.stripe_events import load_event, sign

    event = load_event("invoice_paid", club_id=0)
    event["id"], event["created"] = f"evt_load_{os.getpid()}_{number}", int(time.time())
    invoice = event["data"]["object"]
    invoice["customer"] = f"cus_load_unknown_{number}"
    unknown = f"sub_load_unknown_{number}"
    invoice["parent"]["subscription_details"]["subscription"] = unknown
    for line in invoice["lines"]["data"]:
        line["parent"]["subscription_item_details"]["subscription"] = unknown
    payload = json.dumps(event)
    return payload.encode(), {"Stripe-Signature": sign(payload), "Content-Type": "application/json"}


def wait_for_ladders(redis_url: str, timeout: float) -> tuple[float, list[tuple[str, bool]]]:
    """Until the default queue has drained and every club's ladder is current, or `timeout`
    seconds: the seconds waited, and each club's slug and whether its ladder is current."""
    from redis import Redis
    from rq import Queue

    from clubs.models import Club

    queue = Queue("default", connection=Redis.from_url(redis_url))
    waited = time.monotonic()
    while not (
        queue.count == 0
        and queue.started_job_registry.count == 0
        and all(club.ladder_is_current for club in Club.objects.all())
    ):
        if time.monotonic() - waited > timeout:
            break
        time.sleep(0.25)
    drained = time.monotonic() - waited
    return drained, [(c.slug, c.ladder_is_current) for c in Club.objects.order_by("id")]


def verify_ladder(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    """`manage.py verify_ladder` as a process of its own, its output captured."""
    return subprocess.run([*MANAGE, "verify_ladder", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
