from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from directors.edits import PublishingError
from directors.management.commands._night import club_named
from directors.night.changes import set_never_pair
from directors.night.names import players_named


class Command(BaseCommand):
    help = (
        "Keep two roster players apart at every club night (or, with --remove, no longer); "
        "the names are read as start_event reads them. Exit 3 when a name is not exactly one "
        "roster player."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("name1")
        parser.add_argument("name2")
        parser.add_argument("--remove", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        club = club_named(options["slug"])
        players, problems = players_named(club, [options["name1"], options["name2"]])
        if problems:
            raise CommandError(
                "Not exactly one roster player: " + "; ".join(problems), returncode=3
            )
        first, second = players
        try:
            changed = set_never_pair(club, first, second, None, remove=options["remove"])
        except PublishingError as error:
            raise CommandError(error.message) from None
        if options["remove"]:
            said = "may be paired again" if changed else "were not on the list"
        else:
            said = "are never paired" if changed else "were already on the list"
        self.stdout.write(f"{first.name} and {second.name} {said}")
