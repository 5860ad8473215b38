from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.results import Result
from directors.edits import PublishingError
from directors.management.commands._night import night_of
from directors.night.pairs import Shown
from directors.night.rounds import BOARD_RESULTS, enter_round_results

CODES = {result.value: result for result in BOARD_RESULTS}


class Command(BaseCommand):
    help = (
        "Enter a club night round's results: one code per board in board order, separated by "
        "commas (1-0, 0-1, 1/2, +-, -+, --)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)
        parser.add_argument("round", type=int)
        parser.add_argument("results", metavar="RESULTS")
        parser.add_argument(
            "--pairing", type=int, default=None, metavar="N",
            help="refuse, storing nothing, unless the round is still at pairing version N",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        event = night_of(options["slug"], options["event_id"])
        codes = [code.strip() for code in options["results"].split(",")]
        unknown = [code for code in codes if code not in CODES]
        if unknown:
            raise CommandError(
                f"Unknown result code {', '.join(map(repr, unknown))}: use " + ", ".join(CODES)
            )
        results: list[Result] = [CODES[code] for code in codes]
        try:
            shown = Shown(options["pairing"]) if options["pairing"] is not None else None
            enter_round_results(event.pk, options["round"], results, None, shown=shown)
        except PublishingError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Round {options['round']}: {len(results)} results entered")
