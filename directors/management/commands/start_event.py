from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import FirstColour, PairingSystem
from directors.edits import PublishingError
from directors.management.commands._night import club_named
from directors.night.evening import BY_LOT, start_event
from directors.night.names import players_named

SYSTEMS = {"swiss": PairingSystem.SWISS, "roundrobin": PairingSystem.ROUND_ROBIN}


class Command(BaseCommand):
    help = (
        "Start a club night with roster players (one name per line in FILE), seeded from the "
        "ladder; prints the new event's id. Exit 3, listing them, when a name is not exactly "
        "one roster player (a name or an alias); exit 1 when a player is listed twice."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--date", required=True, type=dt.date.fromisoformat)
        parser.add_argument("--system", required=True, choices=sorted(SYSTEMS))
        parser.add_argument("--rounds", required=True, type=int)
        parser.add_argument("--double", action="store_true", help="a double round robin")
        parser.add_argument("--players", required=True, type=Path, metavar="FILE")
        parser.add_argument(
            "--first-colour",
            choices=[*FirstColour.values, BY_LOT],
            default=BY_LOT,
            help="seed 1's colour on board 1 of round 1 (default: drawn by lot, once)",
        )
        parser.add_argument(
            "--accelerated", action="store_true", help="Baku acceleration (FIDE C.04.5.1)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        try:
            text = options["players"].read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {options['players']}: {error}") from None
        lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        players, problems = players_named(club, [name for _n, name in lines])
        if problems:
            raise CommandError(
                "Not exactly one roster player: " + "; ".join(problems), returncode=3
            )
        first_line: dict[int, int] = {}
        for (number, name), player in zip(lines, players, strict=True):
            if player.pk in first_line:
                raise CommandError(
                    f"Line {number}: {name} is {player.name}, already listed on line "
                    f"{first_line[player.pk]}"
                )
            first_line[player.pk] = number
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
                first_colour=options["first_colour"],
                accelerated=options["accelerated"],
            )
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(str(event.pk))
