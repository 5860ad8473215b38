"""The fields that moved to the ladders (ladder 0006 copied them to each club's `main`)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0024_season_start_month"),
        ("ladder", "0007_main_ladders"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="club",
            name="club_built_version_not_ahead",
        ),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_start_rating_in_range",
        ),
        migrations.RemoveField(
            model_name="club",
            name="built_version",
        ),
        migrations.RemoveField(
            model_name="club",
            name="data_version",
        ),
        migrations.RemoveField(
            model_name="club",
            name="full_rebuild_requested",
        ),
        migrations.RemoveField(
            model_name="club",
            name="out_of_date_since",
        ),
        migrations.RemoveField(
            model_name="club",
            name="rating_policy",
        ),
        migrations.RemoveField(
            model_name="club",
            name="rating_settings",
        ),
        migrations.RemoveField(
            model_name="player",
            name="last_change",
        ),
        migrations.RemoveField(
            model_name="player",
            name="last_played",
        ),
        migrations.RemoveField(
            model_name="player",
            name="provisional",
        ),
        migrations.RemoveField(
            model_name="player",
            name="rated_games",
        ),
        migrations.RemoveField(
            model_name="player",
            name="rating",
        ),
        migrations.RemoveField(
            model_name="player",
            name="start_games",
        ),
        migrations.RemoveField(
            model_name="player",
            name="start_rating",
        ),
    ]
