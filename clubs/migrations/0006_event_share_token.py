import secrets
from typing import Any

from django.db import migrations, models

import clubs.models


def give_each_event_a_token(apps: Any, schema_editor: Any) -> None:
    # Each existing event gets a token of its own; a callable default would give them one.
    Event = apps.get_model("clubs", "Event")
    for event in Event.objects.filter(share_token__isnull=True).only("pk").iterator():
        Event.objects.filter(pk=event.pk).update(share_token=secrets.token_urlsafe(24))


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_club_pages_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="share_token",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        migrations.RunPython(give_each_event_a_token, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="share_token",
            field=models.CharField(
                default=clubs.models.new_share_token, editable=False, max_length=64, unique=True
            ),
        ),
    ]
