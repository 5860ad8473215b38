"""The ladder app's half of moving the Ladder model to the clubs app (clubs/migrations/0027):
its foreign keys name clubs.Ladder, and the model leaves this app's state. The table
`ladder_ladder` and every constraint on it stay as they are: state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0027_ladder_moves_to_clubs"),
        ("ladder", "0012_event_standings_ranking"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="ratedevent",
                    name="ladder",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rated_events", to="clubs.ladder"),
                ),
                migrations.AlterField(
                    model_name="ladderreplay",
                    name="ladder",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="replays", to="clubs.ladder"),
                ),
                migrations.AlterField(
                    model_name="playereventresult",
                    name="ladder",
                    field=models.ForeignKey(db_constraint=False, db_index=False, on_delete=django.db.models.deletion.CASCADE, related_name="+", to="clubs.ladder"),
                ),
                migrations.AlterField(
                    model_name="ladderrating",
                    name="ladder",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="ratings", to="clubs.ladder"),
                ),
                migrations.DeleteModel(name="Ladder"),
            ],
            database_operations=[],
        ),
    ]
