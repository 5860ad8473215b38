"""Make or revoke a club's API token (issue 37): for a script or a pairing program."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from clubs.models import ApiToken, Club
from clubs.tokens import TokenRefused, create_token, revoke_token


class Command(BaseCommand):
    help = (
        "Make an API token for a club and print it (one line, shown this once: only its hash "
        "is kept), or revoke one by its name with --revoke NAME."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club")
        parser.add_argument("--name", help="the new token's name (who or what will use it)")
        parser.add_argument("--scope", choices=ApiToken.Scope.values, help="read or publish")
        parser.add_argument("--revoke", metavar="NAME", help="revoke the club's token NAME")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["slug"]).first()
        if club is None:
            raise CommandError(f"No club with slug {options['slug']!r}")
        try:
            if options["revoke"] is not None:
                if options["name"] or options["scope"]:
                    raise CommandError("--revoke takes no --name or --scope")
                token = revoke_token(club, options["revoke"], None)
                self.stderr.write(f"Revoked the token {token.name} ({token.shown_prefix}…).")
                return
            if not options["name"] or not options["scope"]:
                raise CommandError("Give --name and --scope read|publish, or --revoke NAME")
            made = create_token(club, options["name"], options["scope"], None)
        except TokenRefused as error:
            raise CommandError(error.message) from None
        self.stdout.write(made.text)
        self.stderr.write(
            f"Token {made.token.name} ({made.token.scope}) for {club.slug}: shown this once."
        )
