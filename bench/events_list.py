"""How long the members' events list takes to build when no kept copy exists (a cold
page cache): a page of 100 events (issue 34), whose winners need their games, and a shared
lead its tie-breaks; then the same page with the first places kept by the club's versions.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/sample_clubs.py   # once
    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/events_list.py

Uses the club `bench-pages` of bench/sample_clubs.py (300 events of 40 players and 5
rounds, 30,000 games). Builds the first page 5 times each way (members.pages.events.event_list's
events_page, the view's work without the template) and prints each time and the median.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kit.clubs import LARGE_SLUG
from bench.kit.django_env import setup_django
from bench.kit.measure import repeat


def main() -> None:
    setup_django(quiet_queries=False)
    from clubs.models import Club, Ladder
    from ladder.roster.rosters import load_roster
    from members.pages.events import event_list

    club = Club.objects.get(slug=LARGE_SLUG)
    roster = load_roster(club, False)
    ladders = Ladder.objects.for_club(club.pk)
    versions = tuple((ladder.pk, ladder.data_version) for ladder in ladders)

    def page() -> event_list.EventsPage:
        return event_list.events_page(club, None, roster, "unconfirmed player", 1, versions)

    def cold() -> event_list.EventsPage:
        event_list.forget_first_places()
        return page()

    for label, build in (("first places computed", cold), ("first places kept", page)):
        runs = repeat(build, 5, keep=True)
        shown = runs.value
        print(f"{label}: {len(shown.events)} of {shown.total} events: "
              + ", ".join(f"{t:.3f}" for t in runs.walls))  # fmt: skip
        print(f"median {runs.median:.3f} s")


if __name__ == "__main__":
    main()
