from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from clubs.models import Club
from directors.series import SeriesRefused, save_series
from members.series import rules_sentence, series_events


class Command(BaseCommand):
    help = (
        "Add a Grand Prix series to a club: its events (chosen by id, or every published event "
        "of some kinds between two dates) and its scoring rules. Prints one line saying what "
        "it created."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("series", metavar="SERIES")
        parser.add_argument("--name", required=True)
        # Read as text and checked here or by the screens' own checks: bad rules exit 1 with
        # the reason, as the contract says, never argparse's 2.
        parser.add_argument("--events", metavar="ID[,ID...]")
        parser.add_argument("--kinds", metavar="KIND[,KIND...]")
        parser.add_argument("--from", dest="date_from", metavar="YYYY-MM-DD")
        parser.add_argument("--to", dest="date_to", metavar="YYYY-MM-DD")
        parser.add_argument("--points", metavar="P1,P2,...")
        parser.add_argument("--game-points", action="store_true")
        parser.add_argument("--best", metavar="N")
        parser.add_argument("--ties", default="share", metavar="share|higher")
        parser.add_argument("--members-only", action="store_true")
        parser.add_argument("--min-events", default="0", metavar="N")

    # Refusals come from the screens' checks, which speak the director's language; support
    # staff and scripts read them in English.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        if options["points"] is not None and options["game_points"]:
            raise CommandError("Give either --points or --game-points, not both.")
        events = _numbers(options["events"], "--events")
        try:
            series = save_series(
                club,
                series=None,
                slug=options["series"],
                name=options["name"],
                event_ids=events,
                kinds=_list(options["kinds"]),
                date_from=_date(options["date_from"], "--from"),
                date_to=_date(options["date_to"], "--to"),
                # Without --points the series scores the game points, as --game-points says.
                points=_numbers(options["points"], "--points"),
                best=_number(options["best"], "--best"),
                ties=options["ties"],
                members_only=options["members_only"],
                min_events=_number(options["min_events"], "--min-events") or 0,
                rating_bands=[],
                user=None,
            )
        except SeriesRefused as refused:
            raise CommandError(refused.message) from None
        counted = series_events(series)
        if series.kinds:
            chosen = (
                f"every published {'/'.join(series.kinds)} event from {series.date_from} "
                f"to {series.date_to} ({len(counted)} so far)"
            )
        else:
            chosen = f"{len(counted)} events"
        self.stdout.write(
            f"Created the series {series.slug} ({series.name}) of {club.slug}, counting "
            f"{chosen}. {rules_sentence(series, counted)}"
        )


def _list(text: str | None) -> list[str]:
    return [] if text is None else [part.strip() for part in text.split(",") if part.strip()]


def _numbers(text: str | None, option: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(part) for part in _list(text)]
    except ValueError:
        raise CommandError(f"{option} takes whole numbers separated by commas.") from None


def _number(text: str | None, option: str) -> int | None:
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise CommandError(f"{option} takes a whole number.") from None


def _date(text: str | None, option: str) -> dt.date | None:
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{option} takes a date written YYYY-MM-DD.") from None
