"""Audit actions are named one way, `thing.past-participle`, and stored entries follow a rename."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from clubs import audit

ROOT = Path(__file__).resolve().parents[3]
SHAPE = re.compile(r"[a-z]+(_[a-z]+)*\.[a-z]+")
BEFORE = [("clubs", "0010_event_file_date")]
AFTER = [("clubs", "0011_audit_action_names")]


def recorded_actions() -> dict[str, str]:
    """Each literal action passed to audit.record() in the apps' code, with where it is."""
    found = {}
    for app in ("clubs", "ladder", "billing", "matching", "members", "directors", "config"):
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "record"
                    and ast.unparse(node.func.value) == "audit"
                ):
                    action = node.args[2]
                    assert isinstance(action, ast.Constant), f"{path}:{node.lineno}"
                    found[action.value] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def test_every_action_the_code_records_is_in_the_one_list():
    unknown = {a: where for a, where in recorded_actions().items() if a not in audit.ACTIONS}
    assert unknown == {}
    assert len(recorded_actions()) > 20  # the scan did find the call sites


def test_every_action_is_a_thing_then_what_happened_to_it():
    assert [a for a in sorted(audit.ACTIONS) if not SHAPE.fullmatch(a)] == []
    assert {"event.deleted", "event.restored", "players.merged", "director.added"} <= audit.ACTIONS


@pytest.mark.django_db
def test_recording_an_action_outside_the_list_is_refused(club, owner):
    with transaction.atomic(), pytest.raises(ValueError, match=r"event\.delete"):
        audit.record(club, owner, "event.delete")
    assert not club.audit_entries.exists()


@pytest.mark.django_db(transaction=True)
def test_the_migration_renames_stored_actions_and_back():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club = old.get_model("clubs", "Club").objects.create(slug="old", name="Old", secret="s" * 32)
    entries = old.get_model("clubs", "AuditEntry").objects
    entries.create(club=club, action="event.delete", details={"event_id": 1})
    entries.create(club=club, action="players_merged", details={"merge_id": 2})
    entries.create(club=club, action="player.details", details={"player_id": 3})
    entries.create(club=club, action="player.admin_edit", details={"player_id": 4})
    stored = list(entries.order_by("pk").values_list("action", "details"))
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        renamed = new.get_model("clubs", "AuditEntry").objects.order_by("pk")
        assert list(renamed.values_list("action", "details")) == [
            ("event.deleted", {"event_id": 1}),
            ("players.merged", {"merge_id": 2}),
            ("player.edited", {"player_id": 3}),
            ("player.edited", {"player_id": 4, "by": "staff"}),
        ]
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        assert list(entries.order_by("pk").values_list("action", "details")) == stored
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
