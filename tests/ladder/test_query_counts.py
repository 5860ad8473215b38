"""Every club page runs the same number of SQL queries however large the club."""

import datetime as dt
import random

import pytest
from django.urls import reverse

from clubs.models import Club, Entry, Event, Game, Player, ScheduleEntry
from clubs.results import Result
from ladder.replay import replay_ladder
from tests.factories import make_club

pytestmark = pytest.mark.django_db

SIZES = {"small": (4, 2, 4), "large": (500, 300, 40)}  # players, events, players per event
# An anonymous visitor, billing off: the club, then one query per kind of row.
QUERIES = {
    "": 2,  # club (with its ladders, one query), roster (which is the ladder)
    "players/": 2,
    "players/{player}/": 4,  # club, roster, the player's results, the player's games
    "players/{player}/?year=2025": 4,  # one year's page: the same rows
    # club, events, roster (the winners' names), every event's games (winners), the club
    # nights being played (links to their live pages)
    "events/": 5,
    # club, event with its kept standings, roster, entries, games, rating results
    "events/{event}/": 6,
    "events/{event}/?after=3": 6,  # the standings after a round: the same rows, fewer games
    "ladder.csv": 2,
    "ladder.json": 2,
    "seeding.trf": 2,
    "seeding.csv": 2,
    "how-ratings-work/": 1,  # the club: the page is written from its settings
}


@pytest.fixture(autouse=True)
def queued(monkeypatch) -> list[int]:
    """The events whose standings a page queued for keeping (jobs.enqueue_event_standings:
    the large event has no kept row here, so its page ranks it live and queues it). With
    Redis that is a push to the queue, not a query; in-process, without Redis, the keeping
    itself would run inside the request, and its queries are the job's, not the page's."""
    found: list[int] = []
    monkeypatch.setattr(
        "ladder.jobs.enqueue_event_standings", lambda _club, event_id: found.append(event_id)
    )
    return found


def build(size: str) -> tuple[Club, Player, Event]:
    """A public club; its first player plays every event, the last event is the largest."""
    players, events, per_event = SIZES[size]
    rng = random.Random(7)
    club = make_club(slug=f"club-{size}", visibility=Club.Visibility.PUBLIC)
    roster = Player.objects.bulk_create(
        Player(club=club, name=f"Player {n:03d} Name", junior=n % 5 == 0) for n in range(players)
    )
    made = Event.objects.bulk_create(
        Event(
            club=club,
            name=f"Night {n}",
            date=dt.date(2025, 1, 1) + dt.timedelta(days=n),
            status=Event.Status.PUBLISHED,
        )
        for n in range(events)
    )
    entries = Entry.objects.bulk_create(
        Entry(event=event, typed_name=p.name, player=p, start_rank=rank)
        for event in made
        for rank, p in enumerate([roster[0], *rng.sample(roster[1:], per_event - 1)], start=1)
    )
    by_event: dict[int, list[Entry]] = {}
    for entry in entries:
        by_event.setdefault(entry.event_id, []).append(entry)
    results = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN, Result.WHITE_FORFEIT_WIN]
    games = []
    for event_id, field in by_event.items():
        rounds = 5 if event_id == made[-1].pk else 1
        for round_no in range(1, rounds + 1):
            rng.shuffle(field)
            games += [
                Game(
                    event_id=event_id, round=round_no, white=w, black=b, result=rng.choice(results)
                )
                for w, b in zip(field[::2], field[1::2], strict=True)
            ]
    Game.objects.bulk_create(games, batch_size=5000)
    replay_ladder(club.pk, full=True)
    return club, roster[0], made[-1]


@pytest.fixture(scope="module")
def sizes(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        built = {size: build(size) for size in SIZES}
    yield built
    with django_db_blocker.unblock():
        slugs = [f"club-{size}" for size in SIZES]
        Entry.objects.filter(event__club__slug__in=slugs).delete()  # players are protected
        Club.objects.filter(slug__in=slugs).delete()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("page", QUERIES)
def test_each_page_runs_a_fixed_number_of_queries(
    client, sizes, size, page, django_assert_num_queries
):
    club, player, event = sizes[size]
    path = reverse("club_page", args=[club.slug]) + page.format(player=player.pk, event=event.pk)
    with django_assert_num_queries(QUERIES[page]):
        response = client.get(path)
    assert response.status_code == 200


@pytest.mark.parametrize("size", list(SIZES))
def test_a_club_with_a_schedule_pays_two_fixed_queries_more_on_its_front_page(
    client, sizes, size, django_assert_num_queries
):
    # Its entries and their known dates, whatever its size; a club without a schedule learns
    # so in the club's own query.
    club, _player, _event = sizes[size]
    ScheduleEntry.objects.create(
        club=club, name="Club night", date=dt.date(2099, 1, 6), start_time=dt.time(19, 30)
    )
    with django_assert_num_queries(QUERIES[""] + 2):
        response = client.get(reverse("club_page", args=[club.slug]))
    assert "Club night" in response.content.decode()


def test_the_large_club_is_large(sizes, client):
    club, player, _event = sizes["large"]
    assert club.players.rated_on(club.first_ladder()).on_ladder().count() == 500
    assert player.event_results.count() == 300
    url = reverse("club_player", args=[club.slug, player.pk])
    html = client.get(f"{url}?year=2025").content.decode()
    assert html.count('<details class="event-breakdown"') == 300


def test_a_directors_visit_adds_only_the_fixed_cost_of_signing_in(
    client, sizes, django_assert_num_queries
):
    from tests.factories import make_user

    for size in SIZES:
        club, player, _event = sizes[size]
        user = make_user(f"director-{size}@example.org")
        club.roles.create(user=user, role="owner")
        client.force_login(user)
        # session, user, the visitor check's director lookup and the view's own
        with django_assert_num_queries(QUERIES["players/{player}/"] + 4):
            client.get(reverse("club_player", args=[club.slug, player.pk]))
        client.logout()


@pytest.mark.parametrize("size", SIZES)
def test_a_club_nights_live_page_runs_a_fixed_number_of_queries(
    client, sizes, size, django_assert_num_queries
):
    """4 players or 40, half the boards in: club, event, the round on the boards, its
    boards, roster, entries, games, rating results, the withdrawn entries."""
    from clubs.models import PairingSystem
    from directors.night import evening
    from directors.night import rounds as night_rounds

    club, _player, _event = sizes[size]
    field = list(club.players.order_by("pk")[: min(40, club.players.count())])
    night = evening.start_event(
        club, name="Tonight", date=dt.date(2026, 12, 1), system=PairingSystem.SWISS,
        rounds=3, players=field, user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(night.pk, None)
    for board in night.round_boards(1)[::2]:
        if not board.is_bye:
            night_rounds.enter_result(night.pk, 1, board.number, Result.DRAW, None)
    path = reverse("club_event_live", args=[club.slug, night.pk])
    with django_assert_num_queries(9):
        response = client.get(path)
    assert response.status_code == 200
