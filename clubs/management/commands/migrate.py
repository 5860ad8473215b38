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

# pg_advisory_lock takes one 64-bit key; the replays' per-club locks use other numbers.
MIGRATE_LOCK_KEY = 0x636C_7562_6D69_6772  # "clubmigr"


class Command(migrate.Command):
    help = migrate.Command.help + " On PostgreSQL, one run at a time (an advisory lock)."

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        if connection.vendor != "postgresql":
            super().handle(*args, **options)
            return
        # A session lock: it spans every migration's own transaction, and a run that dies
        # releases it with its connection.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(%s)", [MIGRATE_LOCK_KEY])
            if not cursor.fetchone()[0]:
                self.stdout.write("Another migrate is running; waiting for it to finish.")
                cursor.execute("SELECT pg_advisory_lock(%s)", [MIGRATE_LOCK_KEY])
        try:
            super().handle(*args, **options)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [MIGRATE_LOCK_KEY])
