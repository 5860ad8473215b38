from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from directors.roster.starting_ladder import (
    StartingLadderError,
    import_starting_ladder,
    parse_starting_ladder,
)
from ladder.management.commands._clubs import add_ladder_argument, selected_ladder


class Command(BaseCommand):
    help = (
        "Bring a club's existing ladder: a CSV with columns name,rating,games and optional "
        "junior (yes/no). Each row becomes a player starting from that rating and game count."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file", type=Path)
        # The ladder the starting ratings are for; the club's first without it.
        add_ladder_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        ladder = selected_ladder(club, options["ladder"])
        try:
            data = options["file"].read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error.strerror}") from None
        try:
            # import_starting_ladder refuses names already on the roster: bad input like the rest.
            created = import_starting_ladder(club, parse_starting_ladder(data), ladder)
        except StartingLadderError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported {created} players into {club.slug}")
