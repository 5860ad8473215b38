from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from clubs.models import Club
from ladder.management.commands._clubs import add_ladder_argument, selected_ladder
from ladder.seasons.dates import parse_season
from members.seasons import current_season, summary_json


class Command(BaseCommand):
    # A data command: no system checks (see export_ladder).
    requires_system_checks: list[str] = []

    help = (
        "Print one season of a club's ladder as JSON: the ladder at its end, the most improved, "
        "the most games, the best performances and the champion, with full names."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("season", help="as the season pages write it: 2025-26, or 2026")
        add_ladder_argument(parser)
        parser.add_argument("--format", choices=["json"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        ladder = selected_ladder(club, options["ladder"])
        season = parse_season(options["season"], club.season_start_month)
        if season is None:
            example = current_season(club, timezone.localdate()).label
            raise CommandError(
                f"{options['season']!r} is not a season of {club.slug!r} (write it as {example})"
            )
        if not ladder.is_current:
            self.stderr.write("Note: the ladder is being recalculated; these are the last numbers.")
        data = summary_json(club, season, timezone.localdate(), ladder)
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
