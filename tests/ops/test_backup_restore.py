"""The documented backup procedure, run for real: pg_dump -Fc, pg_restore into a fresh database."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request

import pytest
from django.db import connection

from clubs.models import Club
from ladder.replay import replay_ladder
from tests.factories import make_club, make_history
from tests.live import ROOT, database_url, start_gunicorn

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(180),
]
RESTORED = "clubpages_restore_check"


def pg_args() -> list[str]:
    db = connection.settings_dict
    return ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]


def table_fingerprints(dbname: str) -> dict[str, tuple[int, str]]:
    """Row count and an order-independent checksum of every table."""
    checksum = "coalesce(md5(string_agg(t::text, '','' ORDER BY t::text)), '''')"
    query = f"""
        SELECT format('SELECT %L, count(*), {checksum} FROM %I t', tablename, tablename)
        FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename
    """
    psql = ["psql", *pg_args(), "-d", dbname, "-tA", "-F", "|"]
    statements = subprocess.run(
        [*psql, "-c", query], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    result = {}
    for statement in filter(None, statements):
        table, count, digest = (
            subprocess.run([*psql, "-c", statement], capture_output=True, text=True, check=True)
            .stdout.strip()
            .split("|")
        )
        result[table] = (int(count), digest)
    return result


def test_a_backup_restores_into_a_fresh_database_that_serves_and_verifies(tmp_path):
    club = make_club(slug="backup", visibility=Club.Visibility.PUBLIC)
    make_history(club, events=20, players=30, per_event=10, rounds=4)
    replay_ladder(club.pk, full=True)
    source = connection.settings_dict["NAME"]
    dump = tmp_path / "clubpages.dump"

    subprocess.run(["pg_dump", *pg_args(), "-Fc", "-f", str(dump), source], check=True)
    subprocess.run(["dropdb", *pg_args(), "--if-exists", RESTORED], check=True)
    subprocess.run(["createdb", *pg_args(), RESTORED], check=True)
    try:
        subprocess.run(
            ["pg_restore", *pg_args(), "--no-owner", "-d", RESTORED, str(dump)], check=True
        )
        original = table_fingerprints(source)
        assert "clubs_game" in original and original["clubs_game"][0] == 20 * 4 * 5
        assert table_fingerprints(RESTORED) == original

        env = {**os.environ, "DATABASE_URL": database_url(RESTORED), "DEBUG": "true"}
        env.pop("REDIS_URL", None)
        verify = subprocess.run(
            [sys.executable, "manage.py", "verify_ladder", "--all"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
        assert "backup: ok" in verify.stdout

        server, base = start_gunicorn(env, workers=1)
        try:
            with urllib.request.urlopen(f"{base}/c/backup/", timeout=10) as response:
                assert "Player 00" in response.read().decode()
        finally:
            server.terminate()
            server.wait(timeout=10)
    finally:
        subprocess.run(["dropdb", *pg_args(), "--if-exists", RESTORED], check=False)
