from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from clubs.models import Round
from directors.edits import PublishingError
from directors.management.commands._night import night_of
from directors.night.rounds import pair_next_round


class Command(BaseCommand):
    # The system checks import every view (and so py4swiss, stripe, rapidfuzz...) to check the
    # URLconf: about half this data command's start-up. The site and `manage.py check` run them.
    requires_system_checks: list[str] = []

    help = (
        'Pair the next round of a club night; prints {"round": r, "pairing": N, "boards": '
        '[{"board": 1, "white": NAME, "black": NAME}], "bye": NAME or null} (N: the round\'s '
        "pairing version). Exit 1 when the previous round misses a result or every round is "
        "paired."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("event_id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        event = night_of(options["slug"], options["event_id"])
        # One transaction: the night's lock is held until the boards and the pairing version
        # are read, so a hand change from the evening page cannot slip in between and the
        # printed version is the one of the printed boards.
        with transaction.atomic():
            try:
                number = pair_next_round(event.pk, None)
            except PublishingError as error:
                raise CommandError(error.message) from None
            boards = event.round_boards(number)
            pairing = Round.pairing_of(event.pk, number)
        bye = next((board.white.typed_name for board in boards if board.is_bye), None)
        paired = [
            {"board": board.number, "white": board.white.typed_name,
             "black": board.black.typed_name}
            for board in boards
            if board.black is not None
        ]  # fmt: skip
        self.stdout.write(
            json.dumps(
                {
                    "round": number,
                    "pairing": pairing,
                    "boards": paired,
                    "bye": bye,
                },
                ensure_ascii=False,
            )
        )
