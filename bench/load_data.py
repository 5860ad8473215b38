"""The clubs, director and draft events that bench/load.py puts under load.

Called in-process by bench/load.py after it has created and migrated its own
database; never run on its own. Builds, with bulk inserts:

- the large public club of bench/pages_data.py (`bench-pages`: 500 players, 300
  published events of 40 players and 5 rounds, 60,000 games), reused as it is;
- two small clubs: `load-rooks` (public, ladder policy, 30 players, 20 events) and
  `load-knights` (unlisted, reached by its secret link, HSB policy, 40 players,
  25 events);
- every ladder replayed in full, so all three are current before the load starts;
- one director, owner of all three clubs, and an active subscription per club (the
  load runs with billing on, and an inactive club would only show its notice);
- DRAFTS draft events per club without results, for the uploads.

Returns a `Plan`: the paths the page views pick from, the events a correction may
re-paste (with their pairings, whose results the correction redraws) and the drafts.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DIRECTOR_EMAIL = "director@load.example"
DIRECTOR_PASSWORD = "load-director-not-secret-2026"  # a throwaway bench database
DRAFTS = 12
# Corrections re-paste one of the large club's most recent events (the common case: last
# week's results) or, less often, an older one, whose replay re-rates everything after it.
LARGE_RECENT_TARGETS, LARGE_OLDER_TARGETS = 20, 5

SMALL_CLUBS = (
    # slug, name, visibility, policy, players, events, per event, rounds, seed
    ("load-rooks", "Load Rooks Chess Club", "public", "ladder", 30, 20, 12, 4, 11),
    ("load-knights", "Load Knights Junior Club", "unlisted", "hsb", 40, 25, 16, 5, 12),
)


@dataclass
class ClubPlan:
    slug: str
    base: str  # the club page's path, with the secret for an unlisted club
    large: bool
    player_ids: list[int]
    event_ids: list[int]
    draft_ids: list[int]


@dataclass
class Target:
    """A published event a correction re-pastes: its pairings (round, white, black)."""

    slug: str
    event_id: int
    pairings: list[tuple[int, str, str]]


@dataclass
class Plan:
    clubs: list[ClubPlan]
    targets: list[Target]
    director_email: str = DIRECTOR_EMAIL
    director_password: str = DIRECTOR_PASSWORD
    counts: dict[str, int] = field(default_factory=dict)


def build() -> Plan:
    """Everything, in the database Django is connected to (empty and migrated)."""
    from django.db import connection

    import bench.pages_data as pages_data
    from clubs.models import Club, Entry, Event, Game, Player

    pages_data.build()  # the large club, already replayed
    for spec in SMALL_CLUBS:
        _small_club(*spec)
    clubs = list(Club.objects.order_by("id"))
    director = _director(clubs)
    plans = []
    targets = []
    rng = random.Random(2026)
    for club in clubs:
        _subscribe(club)
        drafts = Event.objects.bulk_create(
            Event(
                club=club,
                name=f"Draft for uploads {n + 1}",
                date=dt.date.today(),
                order_in_day=n + 1,
                status=Event.Status.DRAFT,
            )
            for n in range(DRAFTS)
        )
        published = list(club.events.published().in_ladder_order().values_list("id", flat=True))
        large = club.slug == pages_data.SLUG
        if large:
            older = published[:-LARGE_RECENT_TARGETS]
            chosen = published[-LARGE_RECENT_TARGETS:] + rng.sample(older, LARGE_OLDER_TARGETS)
        else:
            chosen = published
        targets += [Target(club.slug, event_id, _pairings(event_id)) for event_id in chosen]
        base = f"/c/{club.slug}/"
        if club.visibility == Club.Visibility.UNLISTED:
            base = f"/c/{club.slug}/s/{club.secret}/"
        plans.append(
            ClubPlan(
                slug=club.slug,
                base=base,
                large=large,
                player_ids=list(club.players.order_by("id").values_list("id", flat=True)),
                event_ids=published,
                draft_ids=[event.pk for event in drafts],
            )
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics after the bulk inserts
    counts = {
        "clubs": len(clubs),
        "players": Player.objects.count(),
        "published events": Event.objects.filter(status=Event.Status.PUBLISHED).count(),
        "draft events": Event.objects.filter(status=Event.Status.DRAFT).count(),
        "entries": Entry.objects.count(),
        "games": Game.objects.count(),
    }
    assert director.pk is not None
    return Plan(clubs=plans, targets=targets, counts=counts)


def _small_club(
    slug: str,
    name: str,
    visibility: str,
    policy: str,
    players: int,
    events: int,
    per_event: int,
    rounds: int,
    seed: int,
) -> None:
    """A small club whose every entrant plays every round (an even field, no byes)."""
    from django.db import transaction

    from clubs.models import Club, Entry, Event, Game, Player
    from ladder.replay import replay_ladder
    from ladder.results import Result

    rng = random.Random(seed)
    results = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN]
    with transaction.atomic():
        club = Club.objects.create(
            slug=slug, name=name, visibility=visibility, rating_policy=policy
        )
        roster = Player.objects.bulk_create(
            Player(
                club=club, name=f"{slug.split('-')[1].title()} Member {n:03d}", junior=n % 3 == 0
            )
            for n in range(players)
        )
        made = Event.objects.bulk_create(
            Event(
                club=club,
                name=f"{name} night {n + 1}",
                date=dt.date.today() - dt.timedelta(days=7 * (events - n)),
                status=Event.Status.PUBLISHED,
            )
            for n in range(events)
        )
        entries = Entry.objects.bulk_create(
            Entry(event=event, typed_name=p.name, player=p, start_rank=rank)
            for event in made
            for rank, p in enumerate(rng.sample(roster, per_event), start=1)
        )
        by_event: dict[int, list[Entry]] = {}
        for entry in entries:
            by_event.setdefault(entry.event_id, []).append(entry)
        games = []
        for event_id, entrants in by_event.items():
            for round_no in range(1, rounds + 1):
                rng.shuffle(entrants)
                games += [
                    Game(
                        event_id=event_id,
                        round=round_no,
                        white=w,
                        black=b,
                        result=rng.choice(results),
                    )
                    for w, b in zip(entrants[::2], entrants[1::2], strict=True)
                ]
        Game.objects.bulk_create(games, batch_size=5000)
    replay_ladder(club.pk, full=True)


def _director(clubs: list) -> object:
    from clubs.models import ClubRole, User

    # The settings' first hasher (Argon2), which the gunicorn workers know too.
    user = User.objects.create_user(DIRECTOR_EMAIL, DIRECTOR_PASSWORD, name="Load director")
    ClubRole.objects.bulk_create(
        ClubRole(club=club, user=user, role=ClubRole.Role.OWNER) for club in clubs
    )
    return user


def _subscribe(club) -> None:
    from django.utils import timezone

    from billing.models import Subscription

    Subscription.objects.create(
        club=club,
        stripe_subscription_id=f"sub_load_{club.slug}",
        stripe_customer_id=f"cus_load_{club.slug}",
        plan="monthly",
        status="active",
        current_period_end=timezone.now() + dt.timedelta(days=30),
    )


def _pairings(event_id: int) -> list[tuple[int, str, str]]:
    from clubs.models import Game

    return list(
        Game.objects.filter(event_id=event_id)
        .order_by("round", "id")
        .values_list("round", "white__typed_name", "black__typed_name")
    )
