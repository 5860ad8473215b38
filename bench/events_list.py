"""How long the members' events list takes to build when no kept copy exists (a cold
page cache): every event's winner needs its games, and a shared lead its tie-breaks.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/sample_clubs.py   # once
    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/events_list.py

Uses the club `bench-pages` of bench/sample_clubs.py (300 events of 40 players and 5
rounds, 30,000 games). Builds the list 5 times (ladder.pages.events.event_pages's
event_summaries, the view's work without the template) and prints each time and the median.
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
    from clubs.models import Club
    from ladder.pages.events.event_list import event_summaries
    from ladder.roster.rosters import load_roster

    club = Club.objects.get(slug=LARGE_SLUG)
    roster = load_roster(club, False)
    runs = repeat(lambda: event_summaries(club, None, roster, "unconfirmed player"), 5, keep=True)
    print(f"{len(runs.value)} events: " + ", ".join(f"{t:.3f}" for t in runs.walls))
    print(f"median {runs.median:.3f} s")


if __name__ == "__main__":
    main()
