"""Django's `migrate`, one at a time: on PostgreSQL it runs under an advisory lock.

Two hosts (or two containers) that start `migrate` at once would each read the same
unapplied set and apply it twice: one fails half-way, and django_migrations may record a
migration twice. Under the lock the second waits, then reads what the first applied and
finds nothing left to do. SQLite has one writer anyway and no such lock: it runs as is.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import migrate
from django.db import connections

from config.db_locks import MIGRATE_LOCK_KEY, session_lock


class Command(migrate.Command):
    help = migrate.Command.help + " On PostgreSQL, one run at a time (an advisory lock)."

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            super().handle(*args, **options)
            return
        # A session lock: it spans every migration's own transaction (config/db_locks.py).
        with session_lock(connection, MIGRATE_LOCK_KEY, on_wait=self._say_waiting):
            super().handle(*args, **options)

    def _say_waiting(self) -> None:
        self.stdout.write("Another migrate is running; waiting for it to finish.")
