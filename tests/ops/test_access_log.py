"""The access log never holds a link's secret: sign-in, sign-up, reset, invitation, a shared
draft and an unlisted club's pages each carry one in their path."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.urls import reverse

from config.access_log import REDACTED, without_secrets

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Zq8s3cr3tT0ken"

SECRET_PATHS = [
    ("signup_confirm", {"token": SECRET}),
    ("signin_link", {"token": SECRET}),
    ("password_reset_confirm", {"uidb64": "MQ", "token": SECRET}),
    ("invitation_accept", {"token": SECRET}),
    ("shared_event", {"share_token": SECRET}),
    ("club_page_secret", {"slug": "riverside", "secret": SECRET}),
    ("club_player_secret", {"slug": "riverside", "secret": SECRET, "player_id": 7}),
]


@pytest.mark.parametrize(("name", "kwargs"), SECRET_PATHS, ids=[n for n, _ in SECRET_PATHS])
def test_every_secret_link_loses_its_secret_and_keeps_the_rest(name, kwargs):
    path = reverse(name, kwargs=kwargs)
    line = f"GET {path}?lang=nl HTTP/1.1"
    logged = without_secrets(line)
    assert SECRET not in logged
    assert logged == line.replace(SECRET, REDACTED)


@pytest.mark.parametrize(
    "path",
    [
        "/c/riverside/",
        "/c/riverside/players/7/",
        "/accounts/login/",
        "/manage/riverside/events/3/results/upload/",
    ],
)
def test_an_address_without_a_secret_is_logged_as_it_was(path):
    assert without_secrets(f"GET {path} HTTP/1.1") == f"GET {path} HTTP/1.1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.heavy
@pytest.mark.timeout(120)
def test_gunicorn_started_from_the_project_logs_no_secret(tmp_path):
    """The real server, as the image starts it: gunicorn.conf.py names the logger."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update(DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    log = tmp_path / "access.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", "1", "--access-logfile", str(log)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}/accounts/login/link/{SECRET}/"
        referer = f"http://127.0.0.1:{port}/c/riverside/s/{SECRET}/"
        deadline = time.monotonic() + 60
        while True:
            try:
                request = urllib.request.Request(url, headers={"Referer": referer})
                urllib.request.urlopen(request, timeout=5)
                break
            except urllib.error.HTTPError:
                break  # answered: an empty database may well make it an error page
            except OSError:
                assert time.monotonic() < deadline, "gunicorn did not start"
                time.sleep(0.3)
        for _ in range(50):  # the log line is written after the response
            if log.exists() and "login/link" in log.read_text():
                break
            time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=30)
    written = log.read_text()
    assert f"/accounts/login/link/{REDACTED}/" in written
    assert SECRET not in written
