from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from clubs.models import Ladder
from ladder.management.commands._clubs import add_club_arguments, selected_clubs
from ladder.replay import verify_ladder


class Command(BaseCommand):
    help = (
        "Replay each club's ladders in memory and compare it with what is stored. "
        "Prints every difference; exits with status 1 if there is any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        failed = False
        for club in selected_clubs(options["slugs"], options["all"]):
            differences = verify_ladder(club)
            ladders = list(Ladder.objects.for_club(club.pk))
            for ladder in reversed(ladders):
                if not ladder.is_current:
                    named = f"{ladder.slug}: " if len(ladders) > 1 else ""
                    differences.insert(
                        0, f"{named}the ladder is marked out of date (a replay is pending)"
                    )
            if differences:
                failed = True
                for difference in differences:
                    self.stdout.write(f"{club.slug}: {difference}")
            else:
                self.stdout.write(f"{club.slug}: ok")
        if failed:
            sys.exit(1)
