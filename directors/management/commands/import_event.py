"""Import one results file as an event: for bringing a club's history in, file by file."""

from __future__ import annotations

import datetime as dt
import shlex
from argparse import ArgumentTypeError
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import Club, Event, NewcomerStart
from directors.date_notes import date_note
from directors.edits import PublishingError
from directors.events.drafts import EventDetails
from directors.events.flow import ImportOptions, event_limits, import_event, read_file
from directors.importers import ImportFileError, SeveralEventsError, detect_format
from ladder.replay import bring_up_to_date

NEEDS_REVIEW = 3


def iso_date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ArgumentTypeError(f"{text!r} is not a date in the form YYYY-MM-DD") from None


class Command(BaseCommand):
    help = (
        "Import a TRF, PGN or CSV results file as an event of a club and print the event's id. "
        "Names without any candidate on the roster become new players; entrants who played no "
        "game get none. If a name needs a director's decision the event stays a draft for "
        "review in the browser, the names are listed and the command exits with status 3."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club")
        parser.add_argument("file", type=Path)
        parser.add_argument("--format", choices=["trf", "pgn", "csv"], help="default: detected")
        parser.add_argument("--name", help="the event's name; default: from the file")
        parser.add_argument("--date", type=iso_date, help="YYYY-MM-DD; default: from the file")
        parser.add_argument("--kind", choices=Event.Kind.values, default=Event.Kind.STANDARD)
        parser.add_argument("--unrated", action="store_true", help="the event changes no rating")
        parser.add_argument(
            "--publish",
            action="store_true",
            help="publish and replay the ladder (when no name is left for review)",
        )
        parser.add_argument(
            "--event",
            metavar="NAME",
            help="for a PGN file holding several events (Event tags): the one to import",
        )
        parser.add_argument(
            "--link-exact",
            action="store_true",
            help="link a name that is the same after normalisation as exactly one player",
        )
        parser.add_argument(
            "--start-ratings",
            choices=NewcomerStart.values,
            default=NewcomerStart.CLUB,
            help="where new players start: at the rating in the file (when it gives one) or "
            "at the club's start rating (default: club); either way they are provisional",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        path: Path = options["file"]
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror}") from None
        try:
            fmt = options["format"] or detect_format(path.name, data)
            # The event limits, not the browser's file size: staff import whole PGN archives.
            imported = read_file(
                data,
                fmt,
                event_date=options["date"],
                event=options["event"],
                limits=event_limits(file_bytes=len(data)),
            )
        except SeveralEventsError as error:
            raise CommandError(
                f"{path}: {error.message} Choose one with --event NAME, for example "
                f"--event {shlex.quote(error.events[0][0])}"
            ) from None
        except ImportFileError as error:
            raise CommandError(f"{path}: {error.message}") from None
        name = options["name"] or imported.name
        date = options["date"] or imported.date
        # Say exactly what is missing: a file that gives a name but no date must not read as
        # if both were missing.
        if not name or not date:
            missing = [
                (what, option)
                for what, option, value in (("name", "--name", name), ("date", "--date", date))
                if not value
            ]
            whats = " and ".join(what for what, _option in missing)
            use = " and ".join(option for _what, option in missing)
            raise CommandError(f"{path} does not give the event's {whats}: use {use}")
        details = EventDetails(
            name=name, date=date, kind=options["kind"], rated=not options["unrated"]
        )
        try:
            outcome = import_event(
                club,
                imported,
                details,
                ImportOptions(
                    link_exact=options["link_exact"],
                    publish=options["publish"],
                    newcomer_start=options["start_ratings"],
                ),
            )
        except (ImportFileError, PublishingError) as error:
            raise CommandError(f"{path}: {error.message}") from None
        if outcome.published:
            bring_up_to_date(club.pk)

        self.stdout.write(str(outcome.event.pk))
        for warning in imported.warnings:
            self.stderr.write(f"{path}: {warning}")
        self.stderr.write(
            f"Event {outcome.event.pk} ({outcome.event.name}, {outcome.event.date}): "
            f"{outcome.created} new players, {outcome.linked} linked, "
            f"{outcome.dropped} entrants without a game left without a player; "
            + ("published, ladder replayed." if outcome.published else "a draft.")
        )
        if not options["date"] and imported.date is not None and imported.date_source is not None:
            self.stderr.write(date_note(imported.date, imported.date_source))
        if outcome.pending:
            self.stderr.write("These names need a decision in the browser:")
            for typed in outcome.pending:
                self.stderr.write(f"  {typed}")
            raise CommandError(
                f"{len(outcome.pending)} names need a decision: event {outcome.event.pk} stays "
                "a draft for review in the browser",
                returncode=NEEDS_REVIEW,
            )
