"""A club night of several sections (issue 36): the Evening that ties them, each section's
event linked to it with its section's name, and a series' groups by section (issue 38).

The event's two columns are added by ALTER TABLE on SQLite rather than Django's AddField,
which would rebuild clubs_event, which SQLite refuses while the ladder's replay_from
triggers (ladder 0005/0009) name the table (as clubs 0026 does). Other databases take
Django's own AddField, run after the fields are in the migration state."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

_INDEX = "clubs_event_evening_id_sections"


def _add(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    event = apps.get_model("clubs", "Event")
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.add_field(event, event._meta.get_field("section"))
        schema_editor.add_field(event, event._meta.get_field("evening"))
        return
    schema_editor.execute(
        "ALTER TABLE clubs_event ADD COLUMN section varchar(40) NOT NULL DEFAULT ''"
    )
    schema_editor.execute(
        "ALTER TABLE clubs_event ADD COLUMN evening_id bigint NULL "
        "REFERENCES clubs_evening (id) DEFERRABLE INITIALLY DEFERRED"
    )
    schema_editor.execute(f"CREATE INDEX {_INDEX} ON clubs_event (evening_id)")


def _drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    event = apps.get_model("clubs", "Event")
    if schema_editor.connection.vendor != "sqlite":
        schema_editor.remove_field(event, event._meta.get_field("evening"))
        schema_editor.remove_field(event, event._meta.get_field("section"))
        return
    schema_editor.execute(f"DROP INDEX {_INDEX}")
    schema_editor.execute("ALTER TABLE clubs_event DROP COLUMN evening_id")
    schema_editor.execute("ALTER TABLE clubs_event DROP COLUMN section")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0031_api_tokens"),
    ]

    operations = [
        migrations.CreateModel(
            name="Evening",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=150)),
                ("date", models.DateField()),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="clubs.club",
                    ),
                ),
            ],
        ),
        migrations.AddField(
            model_name="series",
            name="by_section",
            field=models.BooleanField(default=False),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(
                    model_name="event",
                    name="section",
                    field=models.CharField(blank=True, default="", max_length=40),
                ),
                migrations.AddField(
                    model_name="event",
                    name="evening",
                    field=models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="sections",
                        to="clubs.evening",
                    ),
                ),
            ],
        ),
        migrations.RunPython(_add, _drop),
    ]
