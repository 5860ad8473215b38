"""The clubs the benches build: histories of published events with bulk inserts, replayed, and a
club whose director uses the test client."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clubs.models import Club, Player, User

# The large public club of bench/sample_clubs.py, which bench/pages.sh, load.py and hosts.py
# serve.
LARGE_SLUG = "bench-pages"
PLAYERS, EVENTS, PER_EVENT, ROUNDS = 500, 300, 40, 5
DIRECTOR_PASSWORD = "a-long-bench-password"


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

    club = Club.objects.filter(slug=LARGE_SLUG).first()
    if club is None:
        fields = {"name": "Bench Pages Chess Club", "visibility": "public"}
        sizes = (PLAYERS, EVENTS, PER_EVENT, ROUNDS)
        club = history_club(LARGE_SLUG, *sizes, days_apart=1, always_first=True, **fields)
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
    seed: int | None = None,
    digits: int = 4,
    **fields: str,
) -> Club:
    """A club of `players` members ("<Label> Member 0042", `digits` wide) and a published
    history ending today, drawn from `seed` (the slug's length unless given), replayed."""
    from django.db import connection, transaction

    from clubs.models import Player
    from ladder.replay import bring_up_to_date
    from tests.factories import make_club, make_history

    with transaction.atomic():
        club = make_club(slug=slug, **fields)
        label = slug.split("-")[-1].title()
        roster = Player.objects.bulk_create(
            Player(club=club, name=f"{label} Member {n:0{digits}d}", junior=n % 7 == 0)
            for n in range(players)
        )
        make_history(
            club,
            events=events,
            players=0,
            per_event=per_event,
            rounds=rounds,
            seed=len(slug) if seed is None else seed,
            roster=roster,
            start=dt.date.today() - dt.timedelta(days=days_apart * events),
            days_apart=days_apart,
            always=roster[:1] if always_first else (),
        )
    bring_up_to_date(club.pk, full=True)  # as the job after a change: ladder, then standings
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # planner statistics after the bulk inserts
    return club


@contextmanager
def directed_club(slug: str, name: str, email: str) -> Iterator[tuple[Club, User]]:
    """A new club `slug` and its owner, deleted at the end with everything in them; refuses
    to run if the club exists already (it is not the bench's to delete)."""
    from clubs.models import Club, ClubRole, Entry, Player, User

    if Club.objects.filter(slug=slug).exists():
        raise SystemExit(f"a club {slug!r} exists already in this database; not touching it")
    user = User.objects.create_user(email, DIRECTOR_PASSWORD)
    club = Club.objects.create(slug=slug, name=name)
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.OWNER)
    try:
        yield club, user
    finally:
        Entry.objects.filter(event__club=club).delete()
        Player.objects.filter(club=club).delete()
        club.delete()
        user.delete()


def add_roster(
    club: Club,
    names: Iterable[str],
    fields: Callable[[str], dict[str, Any]] = lambda name: {},
    batch_size: int | None = 2000,
) -> list[Player]:
    """Players of `names` (their match keys stored, as the roster keeps them), with bulk
    inserts; `fields` gives each one's other fields."""
    from clubs.models import Player
    from matching import name_key

    return Player.objects.bulk_create(
        (Player(club=club, name=name, name_key=name_key(name), **fields(name)) for name in names),
        batch_size=batch_size,
    )


def subscribe(club: Club, prefix: str) -> None:
    """An active monthly subscription for `club`: with billing on, an inactive club would only
    show its notice."""
    from django.utils import timezone

    from billing.models import Subscription

    Subscription.objects.create(
        club=club,
        stripe_subscription_id=f"sub_{prefix}_{club.slug}",
        stripe_customer_id=f"cus_{prefix}_{club.slug}",
        plan="monthly",
        status="active",
        current_period_end=timezone.now() + dt.timedelta(days=30),
    )


def drafts(club: Club, count: int, name: str) -> list[int]:
    """The ids of `count` draft events of today, "<name> 1", "<name> 2"…"""
    from tests.factories import make_event

    return [
        make_event(
            club, date=dt.date.today(), published=False, order_in_day=n, name=f"{name} {n}"
        ).pk
        for n in range(1, count + 1)
    ]
