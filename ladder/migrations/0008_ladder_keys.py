"""Every stored row now names its ladder: the keys and the position rule become per ladder."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ladder", "0007_main_ladders")]

    operations = [
        migrations.AlterField(
            model_name="ladderreplay",
            name="ladder",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="replays",
                to="ladder.ladder",
            ),
        ),
        migrations.AlterField(
            model_name="playereventresult",
            name="ladder",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="ladder.ladder",
            ),
        ),
        migrations.AlterField(
            model_name="ratedevent",
            name="ladder",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rated_events",
                to="ladder.ladder",
            ),
        ),
        migrations.AlterModelOptions(
            name="ratedevent",
            options={"ordering": ["ladder", "position"]},
        ),
        migrations.RemoveConstraint(
            model_name="ratedevent",
            name="one_event_per_position",
        ),
        migrations.RemoveIndex(
            model_name="playereventresult",
            name="ladder_play_club_id_6b5760_idx",
        ),
        migrations.AddIndex(
            model_name="playereventresult",
            index=models.Index(
                fields=["ladder", "player", "position"], name="ladder_play_ladder__16fa5e_idx"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratedevent",
            constraint=models.UniqueConstraint(
                fields=("ladder", "position"), name="one_event_per_position"
            ),
        ),
    ]
