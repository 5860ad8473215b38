from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from ladder.jobs import sweep_ladders


class Command(BaseCommand):
    help = "Queue a replay for every club whose ladder has been out of date for too long."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=int,
            default=settings.LADDER_SWEEP_AFTER_SECONDS,
            metavar="SECONDS",
            help="only ladders out of date for at least this long (default: %(default)s)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club_ids = sweep_ladders(options["older_than"])
        self.stdout.write(f"Queued {len(club_ids)} replay(s)")
