"""The large public club bench/pages.sh and bench/load.py serve; run alone, prints its three paths.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/sample_clubs.py

Creates the club `bench-pages` once (later runs reuse it) with tests.factories.make_history:
500 players, 300 published events on consecutive days up to yesterday, 40 players and
5 rounds each (30,000 games), one player in every event; then replays the ladder. Prints the
ladder, the busiest player's page and the last event's page, one path a line.
"""

from __future__ import annotations

import datetime as dt
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from clubs.models import Club

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SLUG = "bench-pages"
PLAYERS, EVENTS, PER_EVENT, ROUNDS = 500, 300, 40, 5


def small_club(
    slug: str,
    name: str,
    visibility: str,
    policy: str,
    players: int,
    events: int,
    per_event: int,
    rounds: int,
) -> Club:
    """A club with a weekly history up to last week, every entrant in every round, replayed."""
    fields = {"name": name, "visibility": visibility, "rating_policy": policy}
    return history_club(
        slug, players, events, per_event, rounds, days_apart=7, always_first=False, **fields
    )


def large_club() -> Club:
    """The `bench-pages` club, built if it is not there yet."""
    from clubs.models import Club

    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        fields = {"name": "Bench Pages Chess Club", "visibility": "public"}
        club = history_club(
            SLUG, PLAYERS, EVENTS, PER_EVENT, ROUNDS, days_apart=1, always_first=True, **fields
        )
    return club


def history_club(
    slug: str,
    players: int,
    events: int,
    per_event: int,
    rounds: int,
    *,
    days_apart: int,
    always_first: bool,
    **fields: str,
) -> Club:
    """A club of `players` members and a published history ending today, replayed."""
    from django.db import connection, transaction

    from clubs.models import Player
    from ladder.replay import replay_ladder
    from tests.factories import make_club, make_history

    with transaction.atomic():
        club = make_club(slug=slug, **fields)
        label = slug.split("-")[-1].title()
        roster = Player.objects.bulk_create(
            Player(club=club, name=f"{label} Member {n:04d}", junior=n % 7 == 0)
            for n in range(players)
        )
        make_history(
            club,
            events=events,
            players=0,
            per_event=per_event,
            rounds=rounds,
            seed=len(slug),
            roster=roster,
            start=dt.date.today() - dt.timedelta(days=days_apart * events),
            days_apart=days_apart,
            always=roster[:1] if always_first else (),
        )
    replay_ladder(club.pk, full=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics after the bulk inserts
    return club


def paths(club: Club) -> list[str]:
    """The ladder, the busiest player's page, the last event's page."""
    busiest = club.players.order_by("id").first()
    last_event = club.events.published().in_ladder_order().last()
    base = f"/c/{club.slug}/"
    return [base, f"{base}players/{busiest.pk}/", f"{base}events/{last_event.pk}/"]


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print("\n".join(paths(large_club())))
