"""Several ladders per club (issue 26): every club gets one ladder, `main`, that rates every
kind, with the club's policy, settings and replay state; every stored result, rated event
and replay log row is that ladder's, and every player's rating and starting estimate
become a LadderRating on it. So nothing changes for a club until a second ladder is added.

Bughouse events are never rated; they stay on a club's first ladder, which shows them with
their games as before (ladder.models.Ladder.event_kinds). The fields that moved leave Club and Player in clubs 0024; the replay
triggers of 0005 that watched them are dropped here and remade on the ladders in 0009.
"""

from importlib import import_module

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

import clubs.models.club
import django.db.models.deletion
from django.db import migrations, models


def drop_watchers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """The 0005 triggers on the columns that move (remade on the ladders in 0009)."""
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        for table in ("player", "club"):
            schema_editor.execute(
                f"DROP TRIGGER IF EXISTS ladder_replay_from_{table} ON clubs_{table}"
            )
            schema_editor.execute(f"DROP FUNCTION IF EXISTS ladder_replay_from_{table}()")
    elif vendor == "sqlite":
        # Every one: SQLite refuses to remake clubs_club and clubs_player (clubs 0024) while
        # any trigger names them; 0009 makes the others again as they were.
        for sql in import_module("ladder.migrations.0005_replay_from_triggers").SQLITE_REVERSE:
            schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0023_director_tools"),
        ("ladder", "0005_replay_from_triggers"),
    ]

    operations = [
        migrations.RunPython(drop_watchers, migrations.RunPython.noop),
        migrations.CreateModel(
            name="Ladder",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("slug", models.SlugField(max_length=30)),
                ("name", models.CharField(default="Ladder", max_length=80)),
                ("position", models.PositiveSmallIntegerField(default=0)),
                (
                    "rating_policy",
                    models.CharField(
                        choices=clubs.models.club.policy_choices, default="ladder", max_length=30
                    ),
                ),
                ("rating_settings", models.JSONField(blank=True, default=dict)),
                ("kinds", models.JSONField(blank=True, default=list)),
                ("data_version", models.PositiveBigIntegerField(default=0)),
                ("built_version", models.PositiveBigIntegerField(default=0)),
                ("out_of_date_since", models.DateTimeField(blank=True, null=True)),
                ("full_rebuild_requested", models.BooleanField(default=False)),
            ],
            options={
                "ordering": ["club", "position", "id"],
            },
        ),
        migrations.CreateModel(
            name="LadderRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("rating", models.FloatField(blank=True, null=True)),
                ("rated_games", models.PositiveIntegerField(default=0)),
                ("provisional", models.BooleanField(default=True)),
                ("last_played", models.DateField(blank=True, null=True)),
                ("last_change", models.FloatField(blank=True, null=True)),
                ("start_rating", models.FloatField(blank=True, null=True)),
                ("start_games", models.PositiveIntegerField(default=0)),
            ],
        ),
        migrations.AddField(
            model_name="ladder",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="ladders", to="clubs.club"
            ),
        ),
        migrations.AddField(
            model_name="ladderreplay",
            name="ladder",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="replays",
                to="ladder.ladder",
            ),
        ),
        migrations.AddField(
            model_name="playereventresult",
            name="ladder",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="ladder.ladder",
            ),
        ),
        migrations.AddField(
            model_name="ratedevent",
            name="ladder",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rated_events",
                to="ladder.ladder",
            ),
        ),
        migrations.AddField(
            model_name="ladderrating",
            name="ladder",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="ladder.ladder",
            ),
        ),
        migrations.AddField(
            model_name="ladderrating",
            name="player",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ladder_ratings",
                to="clubs.player",
            ),
        ),
        migrations.AddConstraint(
            model_name="ladder",
            constraint=models.CheckConstraint(
                condition=models.Q(("built_version__lte", models.F("data_version"))),
                name="ladder_built_version_not_ahead",
            ),
        ),
        migrations.AddConstraint(
            model_name="ladder",
            constraint=models.UniqueConstraint(
                fields=("club", "slug"), name="one_ladder_slug_per_club"
            ),
        ),
        migrations.AddConstraint(
            model_name="ladder",
            constraint=models.UniqueConstraint(
                fields=("club", "position"), name="one_ladder_position_per_club"
            ),
        ),
        migrations.AddConstraint(
            model_name="ladderrating",
            constraint=models.UniqueConstraint(
                fields=("ladder", "player"), name="one_rating_per_ladder"
            ),
        ),
        migrations.AddConstraint(
            model_name="ladderrating",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("start_rating__isnull", True),
                    models.Q(("start_rating__gte", 0), ("start_rating__lte", 4000)),
                    _connector="OR",
                ),
                name="ladder_start_rating_in_range",
            ),
        ),
    ]
