"""How long the members' events list takes to build when no kept copy exists (a cold
page cache): every event's winner needs its games, and a shared lead its tie-breaks.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/sample_clubs.py   # once
    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/events_list.py

Uses the club `bench-pages` of bench/sample_clubs.py (300 events of 40 players and 5
rounds, 30,000 games). Builds the list 5 times (ladder.pages.event_pages.event_summaries, the view's
work without the template) and prints each time and the median.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from clubs.models import Club
    from ladder.pages.event_pages import event_summaries
    from ladder.roster.rosters import load_roster

    club = Club.objects.get(slug="bench-pages")
    roster = load_roster(club, False)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        events = event_summaries(club, None, roster, "unconfirmed player")
        times.append(time.perf_counter() - start)
    print(f"{len(events)} events: " + ", ".join(f"{t:.3f}" for t in times))
    print(f"median {statistics.median(times):.3f} s")


if __name__ == "__main__":
    main()
