from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from ladder.management.commands._clubs import add_club_arguments, selected_clubs
from ladder.replay import bring_up_to_date


class Command(BaseCommand):
    help = "Replay every ladder of one or more clubs from their first event, synchronously."

    def add_arguments(self, parser: CommandParser) -> None:
        add_club_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        for club in selected_clubs(options["slugs"], options["all"]):
            bring_up_to_date(club.pk, full=True)
            self.stdout.write(f"{club.slug}: rebuilt")
