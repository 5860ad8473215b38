"""The large public club that bench/pages.sh serves; prints the three paths it measures.

    DATABASE_URL=postgres://… DEBUG=true .venv/bin/python bench/pages_data.py

Creates the club `bench-pages` once (later runs reuse it): 500 players, 300
published events on consecutive days with 40 players and 5 rounds each (30,000
games), one player in every event, then replays the ladder. Prints the ladder,
the busiest player's page and the last event's page, one path a line.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SLUG = "bench-pages"
PLAYERS, EVENTS, PER_EVENT, ROUNDS = 500, 300, 40, 5


def build() -> None:
    from django.db import connection, transaction

    from clubs.models import Club, Entry, Event, Game, Player
    from ladder.replay import replay_ladder
    from ladder.results import Result

    rng = random.Random(2026)
    results = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN, Result.WHITE_WIN]
    with transaction.atomic():
        club = Club.objects.create(
            slug=SLUG, name="Bench Pages Chess Club", visibility=Club.Visibility.PUBLIC
        )
        roster = Player.objects.bulk_create(
            Player(club=club, name=f"Player {n:04d} Example", junior=n % 7 == 0)
            for n in range(PLAYERS)
        )
        events = Event.objects.bulk_create(
            Event(
                club=club,
                name=f"Club night {n + 1}",
                date=dt.date.today() - dt.timedelta(days=EVENTS - n),
                status=Event.Status.PUBLISHED,
            )
            for n in range(EVENTS)
        )
        fields = {e.pk: [roster[0], *rng.sample(roster[1:], PER_EVENT - 1)] for e in events}
        entries = Entry.objects.bulk_create(
            Entry(event_id=event_id, typed_name=p.name, player=p, start_rank=rank)
            for event_id, field in fields.items()
            for rank, p in enumerate(field, start=1)
        )
        by_event: dict[int, list[Entry]] = {}
        for entry in entries:
            by_event.setdefault(entry.event_id, []).append(entry)
        games = []
        for event_id, field in by_event.items():
            for round_no in range(1, ROUNDS + 1):
                rng.shuffle(field)
                pairs = zip(field[::2], field[1::2], strict=True)
                games += [
                    Game(
                        event_id=event_id,
                        round=round_no,
                        white=w,
                        black=b,
                        result=rng.choice(results),
                    )
                    for w, b in pairs
                ]
        Game.objects.bulk_create(games, batch_size=5000)
    replay_ladder(club.pk, full=True)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # fresh planner statistics after the bulk inserts


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from clubs.models import Club

    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        build()
        club = Club.objects.get(slug=SLUG)
    busiest = club.players.order_by("id").first()
    last_event = club.events.published().in_ladder_order().last()
    assert busiest is not None and last_event is not None
    base = f"/c/{club.slug}/"
    print(base)
    print(f"{base}players/{busiest.pk}/")
    print(f"{base}events/{last_event.pk}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
