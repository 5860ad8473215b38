"""In production a web process without collectstatic's manifest refuses to start, and a
second collectstatic keeps the previous version's hashed files (a rolling deploy's pages)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Each test runs collectstatic or gunicorn in a new process: out of `make test-fast`.
pytestmark = [pytest.mark.timeout(180), pytest.mark.heavy]
COLLECTSTATIC = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]


def production_env(static_root: Path) -> dict[str, str]:
    unset = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "REDIS_URL", "DATABASE_URL"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(
        DEBUG="false",
        SECRET_KEY="static-manifest-test-secret-key-long-enough-0123456789abcdef",
        ALLOWED_HOSTS="clubs.example.org",
        STATIC_ROOT=str(static_root),
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_gunicorn_refuses_to_start_without_the_manifest_saying_why(tmp_path):
    env = production_env(tmp_path / "static")
    result = run(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind", "127.0.0.1:0",
         "--workers", "1"],
        env,
    )  # fmt: skip
    assert result.returncode != 0
    assert "Refusing to start: static files manifest missing" in result.stderr
    assert "collectstatic --noinput" in result.stderr


def test_after_collectstatic_the_application_loads(tmp_path):
    env = production_env(tmp_path / "static")
    assert run(COLLECTSTATIC, env).returncode == 0
    result = run([sys.executable, "-c", "import config.wsgi"], env)
    assert result.returncode == 0, result.stderr


def test_collectstatic_over_a_previous_version_keeps_its_hashed_files(tmp_path):
    """The shared STATIC_ROOT across a rolling deploy: old pages' stylesheet stays served."""
    static_root = tmp_path / "static"
    previous = static_root / "css" / "site.0123456789ab.css"  # the last version's stylesheet
    previous.parent.mkdir(parents=True)
    previous.write_text("body { color: black }")
    env = production_env(static_root)
    assert run(COLLECTSTATIC, env).returncode == 0
    current = json.loads((static_root / "staticfiles.json").read_text())["paths"]["css/site.css"]
    assert current != "css/site.0123456789ab.css" and (static_root / current).exists()
    assert previous.read_text() == "body { color: black }"


def test_a_file_collected_after_start_up_is_served_and_nothing_outside_static_root(
    rf, settings, tmp_path
):
    """A newer version's stylesheet, written to the shared STATIC_ROOT after this process
    (and WhiteNoise's index of it) started: a new page on an old host still gets it."""
    from django.core.exceptions import SuspiciousFileOperation
    from django.http import Http404
    from django.urls import resolve

    from config.static_files import collected_later

    settings.STATIC_ROOT = tmp_path / "static"
    newer = settings.STATIC_ROOT / "css" / "site.fedcba987654.css"
    newer.parent.mkdir(parents=True)
    newer.write_text("body { color: navy }")
    (tmp_path / "secret.txt").write_text("not static")
    assert resolve("/static/css/site.fedcba987654.css").func is collected_later

    response = collected_later(rf.get("/"), "css/site.fedcba987654.css")
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == b"body { color: navy }"
    assert "immutable" in response["Cache-Control"]
    for path in ("css/site.000000000000.css", "css/"):
        with pytest.raises(Http404):
            collected_later(rf.get("/"), path)
    with pytest.raises(SuspiciousFileOperation):  # Django answers it 400
        collected_later(rf.get("/"), "../secret.txt")
    assert collected_later(rf.post("/"), "css/site.fedcba987654.css").status_code == 405


def test_a_file_collected_after_start_up_without_a_hash_in_its_name_is_not_immutable(
    rf, settings, tmp_path
):
    """collectstatic also writes the unhashed copy (css/site.css), whose content changes with
    every deploy: a browser must not keep it for a year."""
    from config.static_files import collected_later

    settings.STATIC_ROOT = tmp_path / "static"
    plain = settings.STATIC_ROOT / "css" / "site.css"
    plain.parent.mkdir(parents=True)
    plain.write_text("body { color: navy }")
    response = collected_later(rf.get("/"), "css/site.css")
    assert response.status_code == 200
    assert "immutable" not in response.get("Cache-Control", "")
