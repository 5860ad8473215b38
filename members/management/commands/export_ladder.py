from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from clubs.models import Club
from ladder.management.commands._clubs import add_ladder_argument, selected_ladder
from members.files.export import ladder_rows
from members.files.spreadsheet import csv_table
from members.pages.list_options import parse_day


class Command(BaseCommand):
    # The system checks import every view (and so py4swiss, stripe, rapidfuzz...) to check the
    # URLconf: about half this data command's start-up. The site and `manage.py check` run them.
    requires_system_checks: list[str] = []

    help = (
        "Print a club's ladder (the first, or --ladder) in order, with full names and "
        "full-precision ratings."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["json", "csv"], default="json")
        # Read as text, not by argparse: a malformed date is a CommandError (exit status 1,
        # as every bad input of this command), not argparse's usage error (status 2).
        parser.add_argument(
            "--on", metavar="YYYY-MM-DD", help="the ladder as it stood at the end of that day"
        )
        add_ladder_argument(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        on = None
        if options["on"] is not None:
            try:
                on = parse_day(options["on"])
            except ValueError as error:
                raise CommandError(f"--on: {error}") from None
            if on > timezone.localdate():  # as the page does: today's ladder, and it says so
                self.stderr.write(f"Note: {on} is still to come; this is today's ladder.")
                on = None
        ladder = selected_ladder(club, options["ladder"])
        if not ladder.is_current:
            self.stderr.write("Note: the ladder is being recalculated; these are the last numbers.")
        rows = ladder_rows(club, on, ladder)
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
