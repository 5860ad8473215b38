from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club, Event
from members.files.event_export import event_csv, event_trf


class Command(BaseCommand):
    help = (
        "Print one event as a FIDE TRF16 file or as CSV (the columns import_event reads), "
        "with full names and the ladder ratings at the event's start."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)
        parser.add_argument("--format", choices=["trf", "csv"], default="trf")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        event = Event.objects.filter(club=club, pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event {options['event_id']} in club {club.slug!r}")
        export = event_trf if options["format"] == "trf" else event_csv
        # Through self.stdout, so call_command(stdout=...) captures it.
        self.stdout.write(export(event, viewer_is_director=True), ending="")
