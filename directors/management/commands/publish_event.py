from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Event
from directors.edits import PublishingError
from directors.events.flow import publish_event
from directors.management.commands._night import club_named
from directors.night.rounds import publish_night


class Command(BaseCommand):
    help = (
        "Publish a draft event: it is rated and the ladder replays. A club night needs every "
        "paired board's result and every planned round paired (or --partial); an uploaded "
        "draft needs every name confirmed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)
        parser.add_argument(
            "--partial", action="store_true",
            help="publish a club night with rounds still unpaired (the rounds played so far)",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        event = Event.objects.filter(club=club, pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event {options['event_id']} in club {club.slug!r}")
        try:
            if event.pairing_system:
                event = publish_night(event.pk, None, partial=options["partial"])
            else:
                event = publish_event(event.pk, event.edit_version, None)
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Published event {event.pk} ({event.name})")
