"""Whether an event whose results arrived whole is a round robin, as its file says (issue 33)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0025_several_ladders"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="round_robin",
            field=models.BooleanField(default=False),
        ),
    ]
