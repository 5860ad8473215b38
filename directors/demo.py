"""A demo club with a realistic roster and a season of events, for `make run` and screenshots."""

from __future__ import annotations

import datetime as dt
import random

from django.db import transaction

from clubs.models import Club, ClubRole, Entry, Event, Game, Player, Series, User
from clubs.results import Result
from directors.series import save_series
from ladder.changes import LadderInput, club_changed
from matching import name_key

DEMO_SLUG = "demo"
DEMO_DIRECTOR_EMAIL = "director@demo.example"
DEMO_DIRECTOR_PASSWORD = "demo-director-2026"  # a published demo login, on purpose

ROSTER = [
    ("Anna de Vries", False),
    ("Jan Jansen", False),
    ("Pieter van der Berg", False),
    ("Sofie Müller", False),
    ("Lukas Schneider", False),
    ("Emma Bakker", True),
    ("Noah Visser", True),
    ("Priya Sharma", False),
    ("Arjun Patel", True),
    ("Olga Ivanova", False),
    ("Dmitri Petrov", False),
    ("Fatima El Amrani", False),
    ("Thomas Meijer", False),
    ("Lotte Smit", True),
    ("Bram de Boer", True),
    ("Julia Kowalska", False),
    ("Marco Rossi", False),
    ("Lucía García", False),
    ("Kees Mulder", False),
    ("Sanne de Groot", True),
    ("Ravi Kumar", False),
    ("Eva de Vries", True),
    ("Henk Bos", False),
    ("Mila Hendriks", True),
    ("Tariq Hassan", False),
    ("Ingrid Dekker", False),
    ("Yusuf Yılmaz", False),
    ("Zoë van Dijk", True),
    ("Felix Wagner", False),
    ("Meera Iyer", True),
]
SEASON = [
    ("Autumn Open", "standard", 5),
    ("October Rapid", "rapid", 6),
    ("Club Championship", "standard", 5),
    ("Blitz Night", "blitz", 7),
    ("Bughouse Party", "bughouse", 4),
    ("Winter Cup", "standard", 5),
    ("New Year Rapid", "rapid", 5),
    ("February Swiss", "standard", 5),
    ("Spring Blitz", "blitz", 6),
    ("Season Finale", "standard", 5),
]


@transaction.atomic
def create_demo_club(seed: int = 2026) -> Club | None:
    """Create the demo club unless it exists; returns None when it already did."""
    if Club.objects.filter(slug=DEMO_SLUG).exists():
        return None
    rng = random.Random(seed)
    club = Club.objects.create(
        slug=DEMO_SLUG, name="Demo Chess Club", visibility=Club.Visibility.PUBLIC
    )
    director = User.objects.filter(email=DEMO_DIRECTOR_EMAIL).first()
    if director is None:
        director = User.objects.create_user(DEMO_DIRECTOR_EMAIL, DEMO_DIRECTOR_PASSWORD)
    ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.OWNER)
    players = [
        Player.objects.create(club=club, name=name, name_key=name_key(name), junior=junior)
        for name, junior in ROSTER
    ]
    strength = {p.pk: rng.gauss(1300, 250) for p in players}
    start = dt.date.today() - dt.timedelta(days=300)
    for index, (name, kind, rounds) in enumerate(SEASON):
        field = rng.sample(players, rng.randint(12, 20))
        event = Event.objects.create(
            club=club,
            name=name,
            date=start + dt.timedelta(days=30 * index),
            kind=kind,
            rated=kind != "bughouse",
            status=Event.Status.PUBLISHED,
        )
        entries = {
            p.pk: Entry.objects.create(event=event, typed_name=p.name, player=p, start_rank=n)
            for n, p in enumerate(field, start=1)
        }
        for round_no in range(1, rounds + 1):
            order = field[:]
            rng.shuffle(order)
            if len(order) % 2:
                Game.objects.create(
                    event=event,
                    round=round_no,
                    white=entries[order.pop().pk],
                    result=Result.BYE_PAIRING,
                )
            for white, black in zip(order[::2], order[1::2], strict=True):
                Game.objects.create(
                    event=event,
                    round=round_no,
                    white=entries[white.pk],
                    black=entries[black.pk],
                    result=_result(rng, strength[white.pk] - strength[black.pk]),
                )
    club_changed(club.pk, LadderInput())
    # A Grand Prix over the season's standard events, as many clubs run one beside the ladder.
    save_series(
        club,
        series=None,
        slug="grand-prix",
        name="Standard Grand Prix",
        event_ids=None,
        kinds=["standard"],
        date_from=start,
        date_to=start + dt.timedelta(days=30 * len(SEASON)),
        points=[10, 8, 6, 5, 4, 3, 2, 1],
        best=4,
        ties=Series.Ties.SHARE,
        members_only=True,
        min_events=2,
        rating_bands=[],
        user=director,
    )
    return club


def _result(rng: random.Random, difference: float) -> Result:
    if rng.random() < 0.03:
        return Result.WHITE_FORFEIT_WIN
    expected = 1 / (1 + 10 ** (-difference / 400))
    roll = rng.random()
    if roll < expected - 0.1:
        return Result.WHITE_WIN
    if roll < expected + 0.1:
        return Result.DRAW
    return Result.BLACK_WIN
