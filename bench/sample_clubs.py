"""The large public club bench/pages.sh and bench/load.py serve; run alone, prints its three paths.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/sample_clubs.py

Creates the club `bench-pages` once (later runs reuse it) with tests.factories.make_history:
500 players, 300 published events on consecutive days up to yesterday, 40 players and
5 rounds each (30,000 games), one player in every event; then replays the ladder. Prints the
ladder, the busiest player's page and the last event's page, one path a line. The builders
are bench/kit/clubs.py's.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clubs.models import Club

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.kit.clubs import large_club
from bench.kit.django_env import setup_django


def paths(club: Club) -> list[str]:
    """The ladder, the busiest player's page, the last event's page."""
    busiest = club.players.order_by("id").first()
    last_event = club.events.published().in_ladder_order().last()
    base = f"/c/{club.slug}/"
    return [base, f"{base}players/{busiest.pk}/", f"{base}events/{last_event.pk}/"]


if __name__ == "__main__":
    setup_django(quiet_queries=False)
    print("\n".join(paths(large_club())))
