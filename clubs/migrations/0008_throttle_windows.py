# Sign-in throttling moves to fixed windows counted per key (account and browser,
# account, network address). The old per-account rows are only minutes of state, so
# the table is dropped and made afresh rather than converted.

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0007_game_variant_rounds_from_order"),
    ]

    operations = [
        migrations.DeleteModel(name="LoginThrottle"),
        migrations.CreateModel(
            name="LoginThrottle",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key_hash", models.CharField(max_length=64, unique=True)),
                ("attempts", models.PositiveIntegerField(default=0)),
                ("window_start", models.DateTimeField(default=django.utils.timezone.now)),
            ],
        ),
    ]
