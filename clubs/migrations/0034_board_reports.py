"""Results reported at the board (issue 36): the club's and each evening's switch, the boards'
codes and what each side reported.

The two switches are added by ALTER TABLE rather than Django's AddField, as 0029 and 0030 add
theirs: on SQLite AddField would rebuild clubs_club and clubs_event, which SQLite refuses while
the ladder's replay_from triggers (ladder 0005/0009) name the tables. Existing clubs report at
the board (the default); existing evenings follow their club."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _add_switches(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    column = "boolean" if schema_editor.connection.vendor == "postgresql" else "bool"
    schema_editor.execute(
        f"ALTER TABLE clubs_club ADD COLUMN board_reports {column} NOT NULL DEFAULT TRUE"
    )
    if schema_editor.connection.vendor != "sqlite":
        # As Django's own AddField leaves it: no default in the database.
        schema_editor.execute("ALTER TABLE clubs_club ALTER COLUMN board_reports DROP DEFAULT")
    schema_editor.execute(f"ALTER TABLE clubs_event ADD COLUMN board_reports {column} NULL")


def _drop_switches(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute("ALTER TABLE clubs_event DROP COLUMN board_reports")
    schema_editor.execute("ALTER TABLE clubs_club DROP COLUMN board_reports")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0033_night_taps"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_add_switches, _drop_switches)],
            state_operations=[
                migrations.AddField(
                    model_name="club",
                    name="board_reports",
                    field=models.BooleanField(default=True),
                ),
                migrations.AddField(
                    model_name="event",
                    name="board_reports",
                    field=models.BooleanField(blank=True, default=None, null=True),
                ),
            ],
        ),
        migrations.CreateModel(
            name="BoardCode",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("round", models.PositiveSmallIntegerField()),
                ("number", models.PositiveSmallIntegerField()),
                ("pairing", models.PositiveIntegerField()),
                ("white_entry", models.PositiveBigIntegerField()),
                ("black_entry", models.PositiveBigIntegerField()),
                ("code", models.CharField(max_length=16, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                (
                    "event",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="clubs.event",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="BoardReport",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "side",
                    models.CharField(
                        choices=[("white", "White"), ("black", "Black")], max_length=5
                    ),
                ),
                ("result", models.CharField(max_length=8)),
                ("reported_at", models.DateTimeField()),
                (
                    "code",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reports",
                        to="clubs.boardcode",
                    ),
                ),
            ],
        ),
        migrations.AddConstraint(
            model_name="boardcode",
            constraint=models.UniqueConstraint(
                fields=("event", "round", "number", "pairing"), name="board_code_once_a_pairing"
            ),
        ),
        migrations.AddConstraint(
            model_name="boardreport",
            constraint=models.UniqueConstraint(
                fields=("code", "side"), name="board_report_once_a_side"
            ),
        ),
    ]
