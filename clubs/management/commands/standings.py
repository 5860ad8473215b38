from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.management.commands._night import club_named
from clubs.models import Event
from clubs.night_rounds import club_tiebreak_order, standings


class Command(BaseCommand):
    # The system checks import every view (and so py4swiss, stripe, rapidfuzz...) to check the
    # URLconf: about half this data command's start-up. The site and `manage.py check` run them.
    requires_system_checks: list[str] = []

    help = (
        "Print an event's standings in rank order: a JSON list of {rank, name, points, "
        "tiebreaks: {name: value}}, tie-breaks in the club's order."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)
        parser.add_argument("--format", choices=["json"], default="json")
        parser.add_argument("--after-round", type=int, default=None, metavar="N")

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        event = Event.objects.select_related("club").filter(club=club, pk=options["event_id"])
        found = event.first()
        if found is None:
            raise CommandError(f"No event {options['event_id']} in club {club.slug!r}")
        names = dict(found.entries.values_list("pk", "typed_name"))
        order = club_tiebreak_order(found)
        rows = [
            {
                "rank": values.rank,
                "name": names.get(values.player, ""),
                "points": values.points,
                "tiebreaks": {tiebreak.value: values.value(tiebreak) for tiebreak in order},
            }
            for values in standings(found, options["after_round"])
        ]
        self.stdout.write(json.dumps(rows, ensure_ascii=False))
