"""The Ladder model moves from the ladder app to the clubs app (issue 35): every model the
other apps share is the clubs app's. Its table stays `ladder_ladder`, so this changes Django's
state only; the database is as it was, rows, constraints and triggers included. The ladder
app's half (its foreign keys now name clubs.Ladder) is ladder/migrations/0013."""

import django.db.models.deletion
from django.db import migrations, models

import clubs.models.club


def content_type_follows(apps, schema_editor):
    """The admin's permissions hang on the model's content type: it moves with the model."""
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="clubs", model="ladder").exists():
        ContentType.objects.filter(app_label="ladder", model="ladder").update(app_label="clubs")


def content_type_returns(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    if not ContentType.objects.filter(app_label="ladder", model="ladder").exists():
        ContentType.objects.filter(app_label="clubs", model="ladder").update(app_label="ladder")


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0026_event_round_robin"),
        ("ladder", "0012_event_standings_ranking"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Ladder",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("slug", models.SlugField(max_length=30)),
                        ("name", models.CharField(default="Ladder", max_length=80)),
                        ("position", models.PositiveSmallIntegerField(default=0)),
                        ("rating_policy", models.CharField(choices=clubs.models.club.policy_choices, default="ladder", max_length=30)),
                        ("rating_settings", models.JSONField(blank=True, default=dict)),
                        ("kinds", models.JSONField(blank=True, default=list)),
                        ("data_version", models.PositiveBigIntegerField(default=0)),
                        ("built_version", models.PositiveBigIntegerField(default=0)),
                        ("out_of_date_since", models.DateTimeField(blank=True, null=True)),
                        ("full_rebuild_requested", models.BooleanField(default=False)),
                        ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ladders", to="clubs.club")),
                    ],
                    options={
                        "db_table": "ladder_ladder",
                        "ordering": ["club", "position", "id"],
                        "constraints": [
                            models.CheckConstraint(condition=models.Q(("built_version__lte", models.F("data_version"))), name="ladder_built_version_not_ahead"),
                            models.UniqueConstraint(fields=("club", "slug"), name="one_ladder_slug_per_club"),
                            models.UniqueConstraint(fields=("club", "position"), name="one_ladder_position_per_club"),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_follows, content_type_returns),
    ]
