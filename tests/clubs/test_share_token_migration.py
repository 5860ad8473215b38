"""Events that existed before events had their own results link each get a link of their own."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("clubs", "0005_club_pages_version")]
AFTER = [("clubs", "0006_event_share_token")]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_existing_event_a_token_of_its_own():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    club = old.get_model("clubs", "Club").objects.create(slug="old", name="Old", secret="s" * 32)
    Event = old.get_model("clubs", "Event")
    for number in range(3):
        Event.objects.create(club=club, name=f"Event {number}", date=dt.date(2020, 1, 1 + number))
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        tokens = list(new.get_model("clubs", "Event").objects.values_list("share_token", flat=True))
        assert len(tokens) == len(set(tokens)) == 3
        assert all(len(token) >= 32 and token != club.secret for token in tokens)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
