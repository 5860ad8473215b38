from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Event
from directors.edits import PublishingError
from directors.events.publishing import restore_event


class Command(BaseCommand):
    help = "Restore a soft-deleted event; the ladder replays."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.filter(club__slug=options["slug"], pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event {options['event_id']} in club {options['slug']!r}")
        if event.deleted_at is None:
            raise CommandError(f"Event {event.pk} is not deleted")
        try:
            # The event screens' own change (publishing.restore_event), by no signed-in user.
            restore_event(event.pk, event.edit_version, None)
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Restored event {event.pk} ({event.name})")
