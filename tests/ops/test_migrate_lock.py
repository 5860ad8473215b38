"""`manage.py migrate` twice at once on one empty PostgreSQL database: one applied set.

Without the advisory lock both runs read the same unapplied set; one fails half-way and
django_migrations can record a migration twice. With it the second waits and finds nothing
left to do.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.live import ROOT, database_url, process_env
from tests.ops.test_backup_restore import pg_args

pytestmark = [pytest.mark.postgres, pytest.mark.django_db, pytest.mark.timeout(300)]


def psql(dbname: str, query: str) -> list[str]:
    result = subprocess.run(
        ["psql", *pg_args(), "-d", dbname, "-tA", "-c", query],
        capture_output=True,
        text=True,
        check=True,
    )
    return [line for line in result.stdout.splitlines() if line]


@pytest.fixture
def empty_database():
    name = f"{connection.settings_dict['NAME']}_migrate_twice"
    subprocess.run(["dropdb", *pg_args(), "--if-exists", name], check=True)
    subprocess.run(["createdb", *pg_args(), name], check=True)
    yield name
    subprocess.run(["dropdb", *pg_args(), "--if-exists", name], check=True)


def test_two_concurrent_migrates_on_an_empty_database_leave_one_applied_set(empty_database):
    env = process_env(DATABASE_URL=database_url(empty_database))
    runs = [
        subprocess.Popen(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=240) for run in runs]
    for run, (stdout, stderr) in zip(runs, outputs, strict=True):
        assert run.returncode == 0, stdout + stderr

    applied = psql(empty_database, "SELECT app || '.' || name FROM django_migrations")
    assert len(applied) == len(set(applied)), "a migration was recorded twice"
    on_disk = {f"{app}.{name}" for app, name in MigrationLoader(None).disk_migrations}
    assert set(applied) == on_disk
    # Exactly one of the two applied them; the other found nothing to do.
    did_work = [stdout.count("Applying ") for stdout, _ in outputs]
    assert sorted(did_work) == [0, len(on_disk)]
