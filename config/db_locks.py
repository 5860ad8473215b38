"""The database's own locks: PostgreSQL advisory locks, which the ORM cannot take.

The one module besides ladder/store/ that runs SQL of its own (tests/test_structure.py):
a lock belongs to no room, and keeping the keys in one place keeps them from colliding.
ladder.store's per-club replay lock uses the two-key form (7311, club), so it never meets
the one-key locks here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db.backends.base.base import BaseDatabaseWrapper

# pg_advisory_lock takes one 64-bit key.
MIGRATE_LOCK_KEY = 0x636C_7562_6D69_6772  # "clubmigr"


@contextmanager
def session_lock(
    connection: BaseDatabaseWrapper, key: int, *, on_wait: Callable[[], None]
) -> Iterator[None]:
    """Hold PostgreSQL's session-level advisory lock `key` (waiting for it, after calling
    `on_wait`, while another session holds it). A session lock spans every transaction run
    under it, and a process that dies releases it with its connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [key])
        if not cursor.fetchone()[0]:
            on_wait()
            cursor.execute("SELECT pg_advisory_lock(%s)", [key])
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [key])
