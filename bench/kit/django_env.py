"""Django for a bench: the settings, and the databases the benches make and drop."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit


def setup_django(*, quiet_queries: bool = True) -> None:
    """django.setup(); with `quiet_queries` no query log (settings.DEBUG = False afterwards), the
    figures production would see: DEBUG=true is only there so settings load without SECRET_KEY."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    if quiet_queries:
        from django.conf import settings

        settings.DEBUG = False


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def server_dsn(url: str) -> str:
    """The same server, its maintenance database `postgres`."""
    return urlunsplit(urlsplit(url)._replace(path="/postgres", query=""))


def maintenance(url: str, *statements: str) -> None:
    """Statements run on the same server's maintenance database `postgres`."""
    import psycopg

    with psycopg.connect(server_dsn(url), autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


@contextmanager
def in_process(prefix: str, *, quiet_queries: bool = True) -> Iterator[object]:
    """Django in this process, on DATABASE_URL's database or else a temporary SQLite file
    (removed at the end), queued jobs run in-process, migrated: yields the connection."""
    temp_dir = None
    if not os.environ.get("DATABASE_URL"):
        temp_dir = tempfile.TemporaryDirectory(prefix=prefix)
        os.environ["DATABASE_URL"] = f"sqlite:///{temp_dir.name}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)  # the on-commit replay runs in-process
    setup_django(quiet_queries=quiet_queries)
    from django.db import connection

    try:
        migrate()
        yield connection
    finally:
        connection.close()
        if temp_dir is not None:
            temp_dir.cleanup()


@contextmanager
def throwaway_database(
    script: str,
    word: str,
    example: str,
    redis_example: str,
    *,
    tcp_redis: bool = False,
    quiet_queries: bool = True,
) -> Iterator[tuple[str, str]]:
    """DATABASE_URL's PostgreSQL database DROPPED and created again (its name must contain
    `word`, so a development database is never the one dropped), migrated, and dropped at the
    end; REDIS_URL must be set. Yields the two URLs; Django is set up in this process."""
    database_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    name = urlsplit(database_url).path.lstrip("/")
    if urlsplit(database_url).scheme not in ("postgres", "postgresql") or word not in name:
        sys.exit(f"bench/{script} drops its database: set DATABASE_URL=postgres://…/{example}")
    schemes = ("redis",) if tcp_redis else ("redis", "rediss", "unix")
    if urlsplit(redis_url).scheme not in schemes:
        over = " over TCP" if tcp_redis else ""
        sys.exit(f"bench/{script} needs Redis{over}: set REDIS_URL={redis_example}")
    drop = f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'
    maintenance(database_url, drop, f'CREATE DATABASE "{name}"')
    os.environ.setdefault("DEBUG", "true")  # settings load without SECRET_KEY here
    setup_django(quiet_queries=quiet_queries)
    from django.db import connection

    try:
        migrate()
        yield database_url, redis_url
    finally:
        connection.close()
        maintenance(database_url, drop)


@contextmanager
def database_beside(script: str, name: str, *, keep: bool = False) -> Iterator[object]:
    """A database `name` of the bench's own on DATABASE_URL's PostgreSQL server (the database
    DATABASE_URL names is never touched): DROPPED and created, migrated, queued jobs run
    in-process, dropped at the end unless `keep`. Yields the connection."""
    source = os.environ.get("DATABASE_URL", "")
    if urlsplit(source).scheme not in ("postgres", "postgresql"):
        sys.exit(f"bench/{script} needs DATABASE_URL=postgres://…")
    if urlsplit(source).path.lstrip("/") == name:
        sys.exit(f"Point DATABASE_URL at another database: {name} is dropped.")
    maintenance(
        source, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'
    )
    os.environ["DATABASE_URL"] = urlunsplit(urlsplit(source)._replace(path=f"/{name}"))
    os.environ.pop("REDIS_URL", None)  # the on-commit replay runs in-process
    setup_django()
    from django.db import connection

    try:
        migrate()
        yield connection
    finally:
        connection.close()
        if not keep:
            maintenance(source, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
