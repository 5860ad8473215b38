"""Database triggers that keep Club.replay_from at or before the earliest event any write
to a ladder input touches, whatever code (or raw SQL) made the write.

The replay trusts, unread, the stored results of the events dated before replay_from
(ladder/replay.py); a caller's `from_date` hint can only lower it (ladder/changes.py).
What they watch is what ladder/store.py reads for the replay:

- clubs_game (every column) and clubs_entry (its player link): the event's date, for
  events that are published and not deleted (a draft moves no ladder; publishing it is
  an UPDATE of clubs_event.status, caught below);
- clubs_event: date (old and new), order_in_day, kind, rated, status, deleted_at, on an
  event that is live before or after the write;
- clubs_player start_rating, start_games, junior, club_id, and clubs_club rating_policy,
  rating_settings: these reach every event from the first, so the minimum date.

PostgreSQL: games and entries get statement-level triggers with transition tables, so a
bulk insert of 30,000 games updates the club row once, not 30,000 times. The rest, and
everything on SQLite, are row-level. Each only writes the club row when it lowers
replay_from, so a burst of writes to one event locks and rewrites it once.
"""

from collections.abc import Callable

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

EVERYTHING = "'0001-01-01'"
LIVE = "e.status = 'published' AND e.deleted_at IS NULL"

# -- PostgreSQL ---------------------------------------------------------------------------


def _pg_lower_from(rows: str) -> str:
    """Lower replay_from of each club to the earliest live event among `rows`' event_ids."""
    return f"""
        UPDATE clubs_club c SET replay_from = d.first
        FROM (
            SELECT e.club_id, MIN(e.date) AS first
            FROM ({rows}) r JOIN clubs_event e ON e.id = r.event_id
            WHERE {LIVE}
            GROUP BY e.club_id
        ) d
        WHERE c.id = d.club_id AND (c.replay_from IS NULL OR c.replay_from > d.first);
    """


def _pg_rows_function(table: str, changed: str) -> str:
    """A statement-level trigger function for `table`; an UPDATE counts the rows where
    `changed` (over o = old row, n = new row) holds, on both their old and new event."""
    updated = f"""
        SELECT o.event_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE {changed}
        UNION ALL
        SELECT n.event_id FROM old_rows o JOIN new_rows n ON n.id = o.id WHERE {changed}
    """
    return f"""
        CREATE OR REPLACE FUNCTION ladder_replay_from_{table}() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'INSERT' THEN
                {_pg_lower_from("SELECT event_id FROM new_rows")}
            ELSIF TG_OP = 'DELETE' THEN
                {_pg_lower_from("SELECT event_id FROM old_rows")}
            ELSE
                {_pg_lower_from(updated)}
            END IF;
            RETURN NULL;
        END $$;
    """


def _pg_statement_triggers(table: str) -> list[str]:
    return [
        f"""
        CREATE TRIGGER ladder_replay_from_{table}_insert AFTER INSERT ON clubs_{table}
        REFERENCING NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ladder_replay_from_{table}()
        """,
        f"""
        CREATE TRIGGER ladder_replay_from_{table}_update AFTER UPDATE ON clubs_{table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ladder_replay_from_{table}()
        """,
        f"""
        CREATE TRIGGER ladder_replay_from_{table}_delete AFTER DELETE ON clubs_{table}
        REFERENCING OLD TABLE AS old_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ladder_replay_from_{table}()
        """,
    ]


EVENT_COLUMNS = ("date", "order_in_day", "kind", "rated", "status", "deleted_at")
PLAYER_COLUMNS = ("start_rating", "start_games", "junior", "club_id")
CLUB_COLUMNS = ("rating_policy", "rating_settings")


def _distinct(
    columns: tuple[str, ...], old: str = "OLD", new: str = "NEW", op: str = "IS DISTINCT FROM"
) -> str:
    return " OR ".join(f"{old}.{c} {op} {new}.{c}" for c in columns)


POSTGRESQL = [
    _pg_rows_function("game", "o IS DISTINCT FROM n"),
    *_pg_statement_triggers("game"),
    _pg_rows_function(
        "entry",
        "o.player_id IS DISTINCT FROM n.player_id OR o.event_id IS DISTINCT FROM n.event_id",
    ),
    *_pg_statement_triggers("entry"),
    f"""
    CREATE OR REPLACE FUNCTION ladder_replay_from_event() RETURNS trigger
    LANGUAGE plpgsql AS $$
    DECLARE
        first date;
        club bigint;
    BEGIN
        IF TG_OP = 'INSERT' THEN
            IF NEW.status = 'published' AND NEW.deleted_at IS NULL THEN
                first := NEW.date; club := NEW.club_id;
            END IF;
        ELSIF TG_OP = 'DELETE' THEN
            IF OLD.status = 'published' AND OLD.deleted_at IS NULL THEN
                first := OLD.date; club := OLD.club_id;
            END IF;
        ELSIF ({_distinct(EVENT_COLUMNS)})
              AND ((OLD.status = 'published' AND OLD.deleted_at IS NULL)
                   OR (NEW.status = 'published' AND NEW.deleted_at IS NULL)) THEN
            first := LEAST(OLD.date, NEW.date); club := NEW.club_id;
        END IF;
        IF first IS NOT NULL THEN
            UPDATE clubs_club SET replay_from = first
            WHERE id = club AND (replay_from IS NULL OR replay_from > first);
        END IF;
        RETURN NULL;
    END $$;
    """,
    """
    CREATE TRIGGER ladder_replay_from_event AFTER INSERT OR UPDATE OR DELETE ON clubs_event
    FOR EACH ROW EXECUTE FUNCTION ladder_replay_from_event()
    """,
    f"""
    CREATE OR REPLACE FUNCTION ladder_replay_from_player() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE clubs_club SET replay_from = {EVERYTHING}
        WHERE id IN (OLD.club_id, NEW.club_id)
          AND (replay_from IS NULL OR replay_from > {EVERYTHING});
        RETURN NULL;
    END $$;
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_player
    AFTER UPDATE OF {", ".join(PLAYER_COLUMNS)} ON clubs_player
    FOR EACH ROW WHEN ({_distinct(PLAYER_COLUMNS)})
    EXECUTE FUNCTION ladder_replay_from_player()
    """,
    f"""
    CREATE OR REPLACE FUNCTION ladder_replay_from_club() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        NEW.replay_from := {EVERYTHING};
        RETURN NEW;
    END $$;
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_club
    BEFORE UPDATE OF {", ".join(CLUB_COLUMNS)} ON clubs_club
    FOR EACH ROW WHEN ({_distinct(CLUB_COLUMNS)})
    EXECUTE FUNCTION ladder_replay_from_club()
    """,
]

POSTGRESQL_REVERSE = [
    *(
        f"DROP TRIGGER IF EXISTS ladder_replay_from_{table}_{op} ON clubs_{table}"
        for table in ("game", "entry")
        for op in ("insert", "update", "delete")
    ),
    "DROP TRIGGER IF EXISTS ladder_replay_from_event ON clubs_event",
    "DROP TRIGGER IF EXISTS ladder_replay_from_player ON clubs_player",
    "DROP TRIGGER IF EXISTS ladder_replay_from_club ON clubs_club",
    *(
        f"DROP FUNCTION IF EXISTS ladder_replay_from_{name}()"
        for name in ("game", "entry", "event", "player", "club")
    ),
]

# -- SQLite -------------------------------------------------------------------------------


def _sqlite_lower_to_event(row: str) -> str:
    """Lower replay_from to the date of `row`'s event, when that event is live."""
    event = f"(SELECT date FROM clubs_event WHERE id = {row}.event_id)"
    return f"""
        UPDATE clubs_club SET replay_from = {event}
        WHERE id = (
            SELECT e.club_id FROM clubs_event e WHERE e.id = {row}.event_id AND {LIVE}
        )
        AND (replay_from IS NULL OR replay_from > {event});
    """


_SQLITE_EVENT_LIVE = "({0}.status = 'published' AND {0}.deleted_at IS NULL)"

SQLITE = [
    *(
        f"""
        CREATE TRIGGER ladder_replay_from_{table}_{op} AFTER {op.upper()} ON clubs_{table}
        {"" if when is None else f"WHEN {when}"}
        BEGIN {" ".join(_sqlite_lower_to_event(row) for row in rows)} END
        """
        for table, update_when in (
            ("game", None),
            ("entry", "OLD.player_id IS NOT NEW.player_id OR OLD.event_id IS NOT NEW.event_id"),
        )
        for op, rows, when in (
            ("insert", ("NEW",), None),
            ("delete", ("OLD",), None),
            ("update", ("OLD", "NEW"), update_when),
        )
    ),
    f"""
    CREATE TRIGGER ladder_replay_from_event_insert AFTER INSERT ON clubs_event
    WHEN {_SQLITE_EVENT_LIVE.format("NEW")}
    BEGIN
        UPDATE clubs_club SET replay_from = NEW.date
        WHERE id = NEW.club_id AND (replay_from IS NULL OR replay_from > NEW.date);
    END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_event_delete AFTER DELETE ON clubs_event
    WHEN {_SQLITE_EVENT_LIVE.format("OLD")}
    BEGIN
        UPDATE clubs_club SET replay_from = OLD.date
        WHERE id = OLD.club_id AND (replay_from IS NULL OR replay_from > OLD.date);
    END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_event_update AFTER UPDATE ON clubs_event
    WHEN ({_distinct(EVENT_COLUMNS, op="IS NOT")})
     AND ({_SQLITE_EVENT_LIVE.format("OLD")} OR {_SQLITE_EVENT_LIVE.format("NEW")})
    BEGIN
        UPDATE clubs_club SET replay_from = MIN(OLD.date, NEW.date)
        WHERE id = NEW.club_id
          AND (replay_from IS NULL OR replay_from > MIN(OLD.date, NEW.date));
    END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_player
    AFTER UPDATE OF {", ".join(PLAYER_COLUMNS)} ON clubs_player
    WHEN {_distinct(PLAYER_COLUMNS, op="IS NOT")}
    BEGIN
        UPDATE clubs_club SET replay_from = {EVERYTHING}
        WHERE id IN (OLD.club_id, NEW.club_id)
          AND (replay_from IS NULL OR replay_from > {EVERYTHING});
    END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_club
    AFTER UPDATE OF {", ".join(CLUB_COLUMNS)} ON clubs_club
    WHEN {_distinct(CLUB_COLUMNS, op="IS NOT")}
    BEGIN
        UPDATE clubs_club SET replay_from = {EVERYTHING} WHERE id = NEW.id;
    END
    """,
]

SQLITE_REVERSE = [
    *(
        f"DROP TRIGGER IF EXISTS ladder_replay_from_{table}_{op}"
        for table in ("game", "entry", "event")
        for op in ("insert", "update", "delete")
    ),
    "DROP TRIGGER IF EXISTS ladder_replay_from_player",
    "DROP TRIGGER IF EXISTS ladder_replay_from_club",
]


def _run(
    statements: dict[str, list[str]],
) -> Callable[[Apps, BaseDatabaseSchemaEditor], None]:
    def run(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
        for sql in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("ladder", "0004_results_without_redundant_fk_indexes"),
        # Was 0011, the clubs migration it was written after. 0023 since several ladders
        # (ladder 0006): migrating a new database then applies every clubs migration up to
        # 0023 first, as before, where depth-first order would now put these triggers
        # before clubs 0012, whose remade clubs_club table SQLite refuses under a trigger
        # that names it. A database at 0005 has 0023 too, so nothing is inconsistent.
        ("clubs", "0023_director_tools"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        )
    ]
