from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club
from ladder.files.export import ladder_rows
from ladder.files.spreadsheet import csv_table


class Command(BaseCommand):
    # The system checks import every view (and so py4swiss, stripe, rapidfuzz...) to check the
    # URLconf: about half this data command's start-up. The site and `manage.py check` run them.
    requires_system_checks: list[str] = []

    help = "Print a club's ladder in order, with full names and full-precision ratings."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        if not club.first_ladder().is_current:
            self.stderr.write("Note: the ladder is being recalculated; these are the last numbers.")
        rows = ladder_rows(club)
        if options["format"] == "json":
            self.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2))
            return
        # Through self.stdout (not sys.stdout), so call_command(stdout=...) captures it.
        # Defused like the pages' downloads: support staff open this in a spreadsheet too.
        fields = ["rank", "name", "rating", "games", "provisional"]
        # str(): booleans keep the True/False this command has always printed.
        lines = [
            [str(row[f]) if isinstance(row[f], bool) else row[f] for f in fields] for row in rows
        ]
        table = csv_table(fields, lines)
        self.stdout.write(table, ending="")
