from __future__ import annotations

import json
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser, no_translations

from clubs.models import Club
from directors.ladders.changes import LadderRefused, add_ladder


class Command(BaseCommand):
    help = (
        "Add a ladder to a club, rating the given event kinds (taken from whichever ladder "
        "rated them); both ladders replay. Prints one JSON line of what moved."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("ladder", metavar="LADDER")
        parser.add_argument("--name", required=True)
        # Not argparse choices: an unknown policy or kind is bad input (exit 1), as the
        # issue's contract says, checked by the same code as the directors' screen.
        parser.add_argument("--policy", default="ladder")
        parser.add_argument("--kinds", required=True, metavar="KIND[,KIND...]")

    # Refusals come from the screen's own checks, which speak the director's language; support
    # staff and scripts read them in English, whatever language a caller left active.
    @no_translations
    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        kinds = [kind.strip() for kind in options["kinds"].split(",") if kind.strip()]
        if not kinds:
            raise CommandError("Give at least one event kind with --kinds.")
        try:
            made = add_ladder(
                club,
                slug=options["ladder"],
                name=options["name"],
                policy=options["policy"],
                kinds=kinds,
                user=None,
            )
        except LadderRefused as refused:
            raise CommandError(str(refused)) from None
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        line = {"ladder": made.ladder.slug, "kinds": list(made.kinds), "from": made.taken}
        self.stdout.write(json.dumps(line, ensure_ascii=False))
