from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from clubs.access import club_page_path
from clubs.models import Club
from ladder.policies import POLICIES
from matching import clean_name


class Command(BaseCommand):
    help = "Create a club and print its page's URL path (with the secret for an unlisted club)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--policy", choices=sorted(POLICIES), default="ladder")
        parser.add_argument(
            "--visibility", choices=[v.value for v in Club.Visibility], default="unlisted"
        )
        parser.add_argument("--names", choices=[n.value for n in Club.NameDisplay], default="full")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club(
            slug=options["slug"],
            name=clean_name(options["name"]),
            visibility=options["visibility"],
            name_display=options["names"],
        )
        try:
            club.full_clean()
        except ValidationError as error:
            messages = "; ".join(f"{k}: {' '.join(v)}" for k, v in error.message_dict.items())
            raise CommandError(messages) from None
        with transaction.atomic():
            club.save()  # which gives it its first ladder (ladder.roster.ladders.club_saved)
            club.ladders.update(rating_policy=options["policy"])
        self.stdout.write(club_page_path(club))
