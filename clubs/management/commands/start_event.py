from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.club_night import players_named, start_event
from clubs.event_drafts import PublishingError
from clubs.management.commands._night import club_named
from clubs.models import PairingSystem

SYSTEMS = {"swiss": PairingSystem.SWISS, "roundrobin": PairingSystem.ROUND_ROBIN}


class Command(BaseCommand):
    help = (
        "Start a club night with roster players (one name per line in FILE), seeded from the "
        "ladder; prints the new event's id. Exit 3, listing them, when a name is not exactly "
        "one roster player."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--date", required=True, type=dt.date.fromisoformat)
        parser.add_argument("--system", required=True, choices=sorted(SYSTEMS))
        parser.add_argument("--rounds", required=True, type=int)
        parser.add_argument("--double", action="store_true", help="a double round robin")
        parser.add_argument("--players", required=True, type=Path, metavar="FILE")

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        try:
            text = options["players"].read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {options['players']}: {error}") from None
        names = [line.strip() for line in text.splitlines() if line.strip()]
        players, problems = players_named(club, names)
        if problems:
            raise CommandError(
                "Not exactly one roster player: " + "; ".join(problems), returncode=3
            )
        system = SYSTEMS[options["system"]]
        if options["double"] and system == PairingSystem.ROUND_ROBIN:
            system = PairingSystem.DOUBLE_ROUND_ROBIN
        try:
            event = start_event(
                club,
                name=options["name"],
                date=options["date"],
                system=system,
                rounds=options["rounds"],
                players=players,
                user=None,
            )
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(str(event.pk))
