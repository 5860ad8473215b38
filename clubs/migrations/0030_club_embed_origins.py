"""The websites a club lets frame its embeds and read its API across sites (issue 37).

Added by ALTER TABLE rather than Django's AddField, as 0029 adds the time zone: on SQLite
AddField would rebuild clubs_club, which SQLite refuses while the ladder's replay_from
triggers (ladder 0005/0009) name the table. Existing clubs list no site."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def _add_embed_origins(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    # The column type Django gives a JSONField on each database.
    column = "jsonb" if schema_editor.connection.vendor == "postgresql" else "text"
    schema_editor.execute(
        f"ALTER TABLE clubs_club ADD COLUMN embed_origins {column} NOT NULL DEFAULT '[]'"
    )
    if schema_editor.connection.vendor != "sqlite":
        # As Django's own AddField leaves it: no default in the database.
        schema_editor.execute("ALTER TABLE clubs_club ALTER COLUMN embed_origins DROP DEFAULT")


def _drop_embed_origins(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    schema_editor.execute("ALTER TABLE clubs_club DROP COLUMN embed_origins")


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0029_schedule'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(_add_embed_origins, _drop_embed_origins)],
            state_operations=[
                migrations.AddField(
                    model_name='club',
                    name='embed_origins',
                    field=models.JSONField(blank=True, default=list),
                ),
            ],
        ),
    ]
