from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import Max

from clubs.models import Event
from directors.management.commands._night import club_named
from directors.night.rounds import club_tiebreak_order, standings


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
        after = options["after_round"]
        rounds = _rounds(found) if after is not None else 0
        if after is not None and after < 1:
            # "After round 0" would print every player at 0 points, ranked by nothing.
            raise CommandError(f"--after-round counts from 1: no round {after}")
        if after is not None and after > rounds:
            raise CommandError(f"Event {found.pk} has {rounds} paired rounds: no round {after}")
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


def _rounds(event: Event) -> int:
    """A club night's paired rounds; an uploaded event's rounds with a game."""
    if event.pairing_system:
        return event.paired_rounds()
    return event.games.aggregate(last=Max("round"))["last"] or 0
