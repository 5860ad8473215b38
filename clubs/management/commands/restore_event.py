from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Event


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
        event.restore()
        self.stdout.write(f"Restored event {event.pk} ({event.name})")
