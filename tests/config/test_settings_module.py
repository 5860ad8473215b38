"""The settings module as a deployment sees it: run in a fresh interpreter per case."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "a-production-secret-key-that-is-long-and-random-0123456789abcdef",
    "ALLOWED_HOSTS": "clubs.example.org",
}


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    # DJANGO_ALLOW_ASYNC_UNSAFE is set for the browser tests; a deployment never has it.
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_secret_key_is_required_when_debug_is_off():
    result = run_manage("check", env={"DEBUG": "false"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_a_malformed_variable_stops_start_up_with_its_name():
    result = run_manage("check", env={**PRODUCTION, "LADDER_SWEEP_AFTER_SECONDS": "soon"})
    assert result.returncode != 0
    assert "LADDER_SWEEP_AFTER_SECONDS" in result.stderr


def test_stripe_key_without_prices_is_refused():
    result = run_manage("check", env={**PRODUCTION, "STRIPE_SECRET_KEY": "sk_test_x"})
    assert result.returncode != 0
    assert "STRIPE_PRICE_MONTHLY" in result.stderr


@pytest.mark.timeout(120)
def test_deploy_check_is_clean_with_production_like_variables():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("switch", "expected"),
    [({}, "{'server_side_binding': True, 'prepare_threshold': 5}"),
     ({"DATABASE_PREPARED_STATEMENTS": "false"}, "{}")],
)  # fmt: skip
def test_postgresql_prepares_repeated_statements_unless_turned_off(switch, expected):
    database = {"DATABASE_URL": "postgres://user@db.example:5432/clubs", **switch}
    code = "from django.conf import settings; print(settings.DATABASES['default'].get('OPTIONS'))"
    result = run_manage("shell", "-c", code, env={**PRODUCTION, **database})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == expected
