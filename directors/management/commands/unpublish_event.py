from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Event
from directors.edits import PublishingError
from directors.events.publishing import unpublish_event
from directors.management.commands._night import club_named


class Command(BaseCommand):
    help = (
        "Take a published event back to draft (a club night's rounds can then change again); "
        "the ladder replays without it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        event = Event.objects.filter(club=club, pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event {options['event_id']} in club {club.slug!r}")
        try:
            event = unpublish_event(event.pk, event.edit_version, None)
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Unpublished event {event.pk} ({event.name})")
