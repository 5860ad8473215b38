"""Whether an event whose results arrived whole is a round robin, as its file says (issue 33).

Added by ALTER TABLE rather than Django's AddField: on SQLite that would rebuild clubs_event,
which SQLite refuses while the ladder's replay_from triggers (ladder 0005/0009) name the table.
ADD COLUMN and DROP COLUMN (SQLite 3.35+) leave the table and its triggers in place."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

# SQLite has no boolean type of its own (Django's "bool" is an integer): 0 is false.
_FALSE = {"sqlite": "0"}


def _add(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    kind = "bool" if vendor == "sqlite" else "boolean"
    schema_editor.execute(
        f"ALTER TABLE clubs_event ADD COLUMN round_robin {kind} NOT NULL "
        f"DEFAULT {_FALSE.get(vendor, 'false')}"
    )
    if vendor != "sqlite":
        # As Django's own AddField leaves it: no default in the database (SQLite cannot drop
        # one, and every insert names the column anyway).
        schema_editor.execute("ALTER TABLE clubs_event ALTER COLUMN round_robin DROP DEFAULT")


def _drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute("ALTER TABLE clubs_event DROP COLUMN round_robin")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0025_several_ladders"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_add, _drop)],
            state_operations=[
                migrations.AddField(
                    model_name="event",
                    name="round_robin",
                    field=models.BooleanField(default=False),
                ),
            ],
        ),
    ]
