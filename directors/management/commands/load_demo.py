from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from clubs.access import club_page_path
from clubs.models import Club
from directors.demo import DEMO_DIRECTOR_EMAIL, DEMO_DIRECTOR_PASSWORD, create_demo_club


class Command(BaseCommand):
    help = "Create the demo club (a roster and a season of events) unless it exists."

    def handle(self, *args: Any, **options: Any) -> None:
        created = create_demo_club()
        club = Club.objects.get(slug="demo")
        self.stdout.write(
            ("Created" if created else "Found") + f" the demo club: {club_page_path(club)}"
        )
        self.stdout.write(f"Director login: {DEMO_DIRECTOR_EMAIL} / {DEMO_DIRECTOR_PASSWORD}")
