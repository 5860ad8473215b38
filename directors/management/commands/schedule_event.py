from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from clubs.models import Club, Event
from directors.schedule import ScheduleRefused, save_entry

HOURS_MINUTES = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")


class Command(BaseCommand):
    help = (
        "Put an event on a club's schedule: one evening, or a weekly one with --weekly-until. "
        "Prints the schedule entry's id, alone on one line, for a script to keep."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        # Checked here rather than by argparse: bad or missing input exits 1 with the reason,
        # as the contract says, never argparse's 2.
        parser.add_argument("--name", default=None)
        parser.add_argument("--date", default=None, metavar="YYYY-MM-DD")
        parser.add_argument("--time", default=None, metavar="HH:MM")
        parser.add_argument("--place", default="")
        parser.add_argument("--kind", default=Event.Kind.STANDARD, metavar="KIND")
        parser.add_argument("--weekly-until", default=None, metavar="YYYY-MM-DD")

    # Refusals come from the screens' checks, which speak the director's language; support
    # staff and scripts read them in English.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        if not options["name"]:
            raise CommandError("Give the event's name with --name.")
        date = _date(options["date"], "--date")
        if date is None:
            raise CommandError("Give the event's date with --date YYYY-MM-DD.")
        text = options["time"]
        if text is None or not HOURS_MINUTES.match(text):
            raise CommandError("Give the start time with --time HH:MM (24-hour clock).")
        try:
            entry = save_entry(
                club,
                entry=None,
                name=options["name"],
                date=date,
                start_time=dt.time.fromisoformat(text),
                place=options["place"],
                kind=options["kind"],
                weekly_until=_date(options["weekly_until"], "--weekly-until"),
                user=None,
            )
        except ScheduleRefused as refused:
            raise CommandError(refused.message) from None
        self.stdout.write(str(entry.pk))


def _date(text: str | None, option: str) -> dt.date | None:
    if text is None:
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        raise CommandError(f"{option} takes a date written YYYY-MM-DD.")
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{option} takes a date written YYYY-MM-DD.") from None
