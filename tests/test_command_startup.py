"""The data commands start without loading what they do not use (issue 22, start-up).

Each command runs in a fresh interpreter the way manage.py runs it (system checks included,
unlike call_command), on an empty database, and reports which modules got loaded once the
command has looked for its club.
The time itself is measured by bench/command_startup.py, not here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The views (what the URL system check imports) and the libraries only some commands need.
NOT_NEEDED = [
    "billing.views",
    "directors.night.round_views",
    "members.web.views",
    "py4swiss",
    "chess",
    "stripe",
    "psycopg",
]

RUN = """
import json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.management import execute_from_command_line
try:
    execute_from_command_line(["manage.py", *sys.argv[1:]])
except SystemExit:  # the command's "No club" error
    pass
except Exception as error:  # the empty database; the start-up is over by then
    print(error, file=sys.stderr)
print(json.dumps(sorted(m for m in %r if m in sys.modules)))
"""


@pytest.mark.parametrize(
    "command",
    [
        ["export_ladder", "no-such-club"],
        ["standings", "no-such-club", "1"],
        ["pair_round", "no-such-club", "1"],
        ["season_summary", "no-such-club", "2025-26"],
    ],
)
def test_a_data_command_loads_no_view_and_no_library_it_does_not_use(command, tmp_path):
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'empty.sqlite3'}",
        "REDIS_URL": "",
    }
    done = subprocess.run(
        [sys.executable, "-c", RUN % NOT_NEEDED, *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "no such table: clubs_club" in done.stderr  # the command did run its query
    assert json.loads(done.stdout.splitlines()[-1]) == []
