"""Byes as arbiters give them (issue 36): the byes a player may ask for (the club's default and
each evening's), what a late entrant's missed rounds score (the club's default), the round a
late entrant joined, and each round's boards as the engine paired them.

Added by ALTER TABLE rather than Django's AddField, as 0026 and 0030 do: on SQLite AddField
would rebuild clubs_club, clubs_event and clubs_entry, which SQLite refuses while the ladder's
replay_from triggers (ladder 0005/0009) name them. ADD COLUMN and DROP COLUMN leave the tables
and their triggers in place. Existing clubs and evenings allow the half-point bye only and
score missed rounds as absences, as before."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# (table, column, type on SQLite, type elsewhere, default for the rows already there or None)
_COLUMNS = (
    ("clubs_club", "requestable_byes", "varchar(3)", "varchar(3)", "'H'"),
    ("clubs_club", "missed_rounds", "varchar(1)", "varchar(1)", "'Z'"),
    ("clubs_event", "requestable_byes", "varchar(3)", "varchar(3)", "'H'"),
    ("clubs_entry", "joined_round", "smallint unsigned", "smallint", None),
    ("clubs_round", "engine_boards", "text", "jsonb", "'{}'"),
)


def _add(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    sqlite = schema_editor.connection.vendor == "sqlite"
    for table, column, lite, other, default in _COLUMNS:
        kind = lite if sqlite else other
        if default is None:
            check = "" if sqlite else f" CHECK ({column} >= 0)"
            schema_editor.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind} NULL{check}")
            continue
        schema_editor.execute(
            f"ALTER TABLE {table} ADD COLUMN {column} {kind} NOT NULL DEFAULT {default}"
        )
        if not sqlite:
            # As Django's own AddField leaves it: no default in the database.
            schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN {column} DROP DEFAULT")


def _drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    for table, column, *_rest in reversed(_COLUMNS):
        schema_editor.execute(f"ALTER TABLE {table} DROP COLUMN {column}")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0034_board_reports"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_add, _drop)],
            state_operations=[
                migrations.AddField(
                    model_name="club",
                    name="missed_rounds",
                    field=models.CharField(
                        choices=[("Z", "Absent: 0 points"), ("H", "A half-point bye each")],
                        default="Z",
                        max_length=1,
                    ),
                ),
                migrations.AddField(
                    model_name="club",
                    name="requestable_byes",
                    field=models.CharField(default="H", max_length=3),
                ),
                migrations.AddField(
                    model_name="entry",
                    name="joined_round",
                    field=models.PositiveSmallIntegerField(blank=True, null=True),
                ),
                migrations.AddField(
                    model_name="event",
                    name="requestable_byes",
                    field=models.CharField(default="H", max_length=3),
                ),
                migrations.AddField(
                    model_name="round",
                    name="engine_boards",
                    field=models.JSONField(blank=True, default=dict),
                ),
            ],
        ),
    ]
