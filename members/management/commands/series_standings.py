from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from clubs.models import Club, Series
from ladder.series import points_text
from members.series import SeriesLine, SeriesStandings, series_standings


class Command(BaseCommand):
    # A data command: no system checks (see export_ladder).
    requires_system_checks: list[str] = []

    help = (
        "Print a Grand Prix series' standings with full names: a readable table (default) or "
        "JSON, each player's result in every event they played and the sum of the counted."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("series", metavar="SERIES")
        parser.add_argument("--format", choices=["text", "json"], default="text")

    # The rules sentence and the group labels in English, whatever language is active.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        series = Series.objects.filter(club=club, slug=options["series"]).first()
        if series is None:
            raise CommandError(f"No series {options['series']!r} in club {club.slug!r}")
        standings = series_standings(series)
        if options["format"] == "json":
            self.stdout.write(json.dumps(as_json(standings), ensure_ascii=False, indent=2))
        else:
            self.stdout.write(as_text(standings))


def as_json(standings: SeriesStandings) -> dict[str, Any]:
    """Totals and points as printed ("24½": exact, where a float would round a third), places
    and ranks as numbers; "group" on each row only for a series with groups."""
    names = {event.pk: event.name for event in standings.events}
    grouped = len(standings.groups) > 1 or any(g.label for g in standings.groups)
    rows = []
    for group in standings.groups:
        for line in group.lines:
            row: dict[str, Any] = {
                "rank": line.rank,
                "name": line.name,
                "total": points_text(line.total),
                "results": [
                    {
                        "event": names[event.pk],
                        "place": scored.place,
                        "points": points_text(scored.points),
                        "counted": scored.counted,
                    }
                    for event in standings.events
                    if (scored := line.results.get(event.pk)) is not None
                ],
            }
            if grouped:
                row["group"] = group.label
            rows.append(row)
    return {
        "series": standings.series.name,
        "rules": standings.rules_sentence,
        "standings": rows,
    }


def as_text(standings: SeriesStandings) -> str:
    """A table a director can read in a terminal: one column per event (its number), a
    discarded result in brackets, "-" where the player did not play, then the sum."""
    out = [standings.series.name, standings.rules_sentence, ""]
    for number, event in enumerate(standings.events, start=1):
        out.append(f"{number:>3}  {event.date}  {event.name}")
    for group in standings.groups:
        out.append("")
        if group.label:
            out.append(f"Group {group.label}")
        header = ["#", "Name", *(str(n) for n in range(1, len(standings.events) + 1)), "Total"]
        rows = [header] + [_cells(line, standings) for line in group.lines]
        widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
        for line, row in zip([None, *group.lines], rows, strict=True):
            cells = [
                cell.ljust(width) if i == 1 else cell.rjust(width)
                for i, (cell, width) in enumerate(zip(row, widths, strict=True))
            ]
            tail = f"   {line.sum_text}" if line is not None and "+" in line.sum_text else ""
            out.append("  ".join(cells).rstrip() + tail)
        if len(group.winners) == 1:
            out.append(f"Winner: {group.winners[0].name}")
        elif group.winners:
            out.append("Joint winners: " + ", ".join(line.name for line in group.winners))
    if not any(group.lines for group in standings.groups):
        out.append("No results yet.")
    return "\n".join(out)


def _cells(line: SeriesLine, standings: SeriesStandings) -> list[str]:
    results = []
    for event in standings.events:
        scored = line.results.get(event.pk)
        if scored is None:
            results.append("-")
        elif scored.counted:
            results.append(points_text(scored.points))
        else:
            results.append(f"({points_text(scored.points)})")
    rank = "-" if line.rank is None else str(line.rank)
    return [rank, line.name, *results, points_text(line.total)]
