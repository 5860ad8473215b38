"""The selection of `make test-fast` (tests/markers.py, applied by tests/conftest.py): browser
and database tests are marked whatever their file says, and the Makefile selects by those marks."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path, PurePath

import pytest

from tests.markers import BROWSER, DB, FAST_SELECTION, added_markers

ROOT = Path(__file__).resolve().parents[1]

# Fixtures pure tests use: none of them opens the database.
PURE_CLOSURE = ("request", "tmp_path", "monkeypatch", "settings", "rf", "_services")


def marks(path: str = "tests/ladder/test_x.py", fixtures=PURE_CLOSURE, own=()) -> set[str]:
    return added_markers(path=PurePath(path), fixturenames=fixtures, markers=own)


def test_a_pure_test_gets_no_marker():
    assert marks() == set()


def test_every_test_under_tests_browser_is_a_browser_test_even_without_fixtures():
    assert BROWSER in marks("/work/x/tests/browser/test_sign_in.py", fixtures=())
    assert BROWSER not in marks("/work/x/tests/ladder/browser_like.py")
    assert BROWSER not in marks("/work/x/tests/ladder/test_browser.py")


def test_the_django_db_marker_alone_makes_a_database_test():
    assert marks(own=("django_db",)) == {DB}


@pytest.mark.parametrize("fixture", ["db", "transactional_db", "client", "admin_client",
                                     "live_server", "django_assert_num_queries"])  # fmt: skip
def test_a_database_fixture_anywhere_in_the_closure_makes_a_database_test(fixture):
    # The closure of a test using the project's `owner` fixture holds `owner` and `db`.
    assert DB in marks(fixtures=(*PURE_CLOSURE, "owner", fixture))


def test_a_marker_the_test_already_carries_is_not_added_twice():
    assert marks("tests/browser/test_a.py", own=("browser", "django_db")) == {DB}


def test_the_makefile_selects_with_the_same_expression():
    makefile = (ROOT / "Makefile").read_text()
    rule = re.search(r"^test-fast:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert rule, "no test-fast target in the Makefile"
    assert f'-m "{FAST_SELECTION}"' in rule.group(1)
    assert re.search(r"^\.PHONY:.* test-fast ", makefile, re.M)
    for marker in re.findall(r"not (\w+)", FAST_SELECTION):
        assert re.search(rf'^\s*"{marker}: ', (ROOT / "pyproject.toml").read_text(), re.M)


DUMP_PLUGIN = """
import json, os

def pytest_collection_finish(session):
    rows = [{"id": item.nodeid, "fixtures": list(getattr(item, "fixturenames", ())),
             "markers": sorted({m.name for m in item.iter_markers()})} for item in session.items]
    with open(os.environ["MARKER_DUMP"], "w") as out:
        json.dump(rows, out)
"""

# A browser folder, a module marked django_db, tests through the `client` fixture, pure tests.
SAMPLE = ["tests/browser", "tests/test_tenancy.py", "tests/test_healthz.py", "tests/members/files"]


def collect(tmp_path: Path, *args: str) -> list[dict]:
    (tmp_path / "marker_dump.py").write_text(DUMP_PLUGIN)
    dump = tmp_path / f"dump{len(list(tmp_path.iterdir()))}.json"
    env = {**os.environ, "MARKER_DUMP": str(dump), "DEBUG": "true",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}  # fmt: skip
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "marker_dump", *args, *SAMPLE],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(dump.read_text())


# Two collections in new interpreters take seconds: `make test` checks the selection, test-fast
# does not spend its minute on it.
@pytest.mark.heavy
def test_the_fast_selection_holds_no_browser_or_database_test_on_a_real_collection(tmp_path):
    everything = collect(tmp_path, "-m", "")
    fast = {row["id"] for row in collect(tmp_path, "-m", FAST_SELECTION)}
    database = {"db", "transactional_db", "client", "live_server"}
    for row in everything:
        if row["id"].startswith("tests/browser/"):
            assert BROWSER in row["markers"], row["id"]
        if database.intersection(row["fixtures"]) or "django_db" in row["markers"]:
            assert DB in row["markers"], row["id"]
    assert any(row["id"].startswith("tests/browser/") for row in everything)
    assert not any(test.startswith("tests/browser/") for test in fast)
    assert not any(test.startswith("tests/test_tenancy.py") for test in fast)
    uses_client = {row["id"] for row in everything if "client" in row["fixtures"]}
    assert uses_client, "the sample lost its tests through `client`"
    assert not uses_client & fast
    # Every other test stays.
    left_out = {DB, BROWSER, "heavy", "postgres", "redis", "slow"}
    pure = {row["id"] for row in everything if not left_out & set(row["markers"])}
    assert pure and pure == fast
