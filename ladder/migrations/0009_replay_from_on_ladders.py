"""The replay_from triggers of 0005 for what moved to the ladders (see 0005's docstring).

A ladder's policy, settings and kinds, and a player's starting estimate on a ladder, reach
every event from the first, so they lower the club's replay_from to the minimum date;
so do a player's junior flag and club, as before (the old trigger watched the moved
columns too, so 0006 dropped it).
"""

from collections.abc import Callable
from importlib import import_module

from django.apps.registry import Apps
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

EVERYTHING = "'0001-01-01'"
PLAYER_COLUMNS = ("junior", "club_id")
LADDER_COLUMNS = ("rating_policy", "rating_settings", "kinds")
START_COLUMNS = ("start_rating", "start_games")
STARTS_SOMEWHERE = "(NEW.start_rating IS NOT NULL OR NEW.start_games <> 0)"


def _distinct(columns: tuple[str, ...], op: str = "IS DISTINCT FROM") -> str:
    return " OR ".join(f"OLD.{c} {op} NEW.{c}" for c in columns)


def _lower(club: str) -> str:
    return f"""UPDATE clubs_club SET replay_from = {EVERYTHING}
        WHERE id IN ({club}) AND (replay_from IS NULL OR replay_from > {EVERYTHING});"""


def _pg_function(name: str, club: str) -> str:
    return f"""
    CREATE OR REPLACE FUNCTION ladder_replay_from_{name}() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        {_lower(club)}
        RETURN NULL;
    END $$;
    """


RATING_CLUB = "SELECT club_id FROM ladder_ladder WHERE id = NEW.ladder_id"

POSTGRESQL = [
    _pg_function("player", "OLD.club_id, NEW.club_id"),
    f"""
    CREATE TRIGGER ladder_replay_from_player
    AFTER UPDATE OF {", ".join(PLAYER_COLUMNS)} ON clubs_player
    FOR EACH ROW WHEN ({_distinct(PLAYER_COLUMNS)})
    EXECUTE FUNCTION ladder_replay_from_player()
    """,
    _pg_function("ladder", "NEW.club_id"),
    f"""
    CREATE TRIGGER ladder_replay_from_ladder
    AFTER UPDATE OF {", ".join(LADDER_COLUMNS)} ON ladder_ladder
    FOR EACH ROW WHEN ({_distinct(LADDER_COLUMNS)})
    EXECUTE FUNCTION ladder_replay_from_ladder()
    """,
    _pg_function("rating", RATING_CLUB),
    f"""
    CREATE TRIGGER ladder_replay_from_rating_update
    AFTER UPDATE OF {", ".join(START_COLUMNS)} ON ladder_ladderrating
    FOR EACH ROW WHEN ({_distinct(START_COLUMNS)})
    EXECUTE FUNCTION ladder_replay_from_rating()
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_rating_insert
    AFTER INSERT ON ladder_ladderrating
    FOR EACH ROW WHEN {STARTS_SOMEWHERE}
    EXECUTE FUNCTION ladder_replay_from_rating()
    """,
]

POSTGRESQL_REVERSE = [
    "DROP TRIGGER IF EXISTS ladder_replay_from_player ON clubs_player",
    "DROP TRIGGER IF EXISTS ladder_replay_from_ladder ON ladder_ladder",
    "DROP TRIGGER IF EXISTS ladder_replay_from_rating_update ON ladder_ladderrating",
    "DROP TRIGGER IF EXISTS ladder_replay_from_rating_insert ON ladder_ladderrating",
    *(f"DROP FUNCTION IF EXISTS ladder_replay_from_{n}()" for n in ("player", "ladder", "rating")),
]

# On SQLite 0006 dropped every trigger of 0005: those of the games, entries and events again.
_OLD = import_module("ladder.migrations.0005_replay_from_triggers")
SQLITE = [
    *(sql for sql in _OLD.SQLITE if "ON clubs_player" not in sql and "ON clubs_club" not in sql),
    f"""
    CREATE TRIGGER ladder_replay_from_player
    AFTER UPDATE OF {", ".join(PLAYER_COLUMNS)} ON clubs_player
    WHEN {_distinct(PLAYER_COLUMNS, op="IS NOT")}
    BEGIN {_lower("OLD.club_id, NEW.club_id")} END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_ladder
    AFTER UPDATE OF {", ".join(LADDER_COLUMNS)} ON ladder_ladder
    WHEN {_distinct(LADDER_COLUMNS, op="IS NOT")}
    BEGIN {_lower("NEW.club_id")} END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_rating_update
    AFTER UPDATE OF {", ".join(START_COLUMNS)} ON ladder_ladderrating
    WHEN {_distinct(START_COLUMNS, op="IS NOT")}
    BEGIN {_lower(RATING_CLUB)} END
    """,
    f"""
    CREATE TRIGGER ladder_replay_from_rating_insert
    AFTER INSERT ON ladder_ladderrating
    WHEN {STARTS_SOMEWHERE}
    BEGIN {_lower(RATING_CLUB)} END
    """,
]

SQLITE_REVERSE = [
    *_OLD.SQLITE_REVERSE,
    "DROP TRIGGER IF EXISTS ladder_replay_from_player",
    "DROP TRIGGER IF EXISTS ladder_replay_from_ladder",
    "DROP TRIGGER IF EXISTS ladder_replay_from_rating_update",
    "DROP TRIGGER IF EXISTS ladder_replay_from_rating_insert",
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
        ("ladder", "0008_ladder_keys"),
        ("clubs", "0025_several_ladders"),
    ]

    operations = [
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_REVERSE, "sqlite": SQLITE_REVERSE}),
        )
    ]
