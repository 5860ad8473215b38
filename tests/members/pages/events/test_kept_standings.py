"""The final standings kept after each replay (ladder.replay.keep_standings, issue 27): an
event's pages built from them are the pages ranked live, byte for byte, on generated events
of both policies and on real files; a kept row computed from other games, entries, rating
lines or tie-breaks is never shown."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.core.cache import caches
from django.db import transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse

from clubs.models import Club, ClubRole, Event, Game, Player
from clubs.results import Result
from ladder import standings
from ladder.changes import LadderInput, club_changed
from ladder.models import EventStandings, PlayerEventResult
from ladder.replay import bring_up_to_date, keep_standings
from ladder.store.standings import Which
from members.web.page_cache import CACHE_ALIAS
from tests.corpus import TRF_CORPUS
from tests.factories import imported_event, make_club, make_event

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
CORPUS = TRF_CORPUS
CORPUS_FILES = sorted(CORPUS.glob("*.trf")) if CORPUS.is_dir() else []
RESULTS = [W, D, B, W, D, B, Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN]
BYES = [Result.BYE_PAIRING, Result.BYE_HALF, Result.BYE_ZERO, Result.BYE_FULL]


@pytest.fixture(autouse=True)
def kept_from_two(monkeypatch):
    """Every event here is kept, however small (the tests' events have 5 to 11 players)."""
    monkeypatch.setattr(standings, "KEPT_FROM_ENTRANTS", 2)


@pytest.fixture
def ranked_live(monkeypatch):
    """How many times a page ranked an event's final standings itself."""
    calls: list[int] = []
    real = standings.final_standings

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(standings, "final_standings", counted)
    return calls


def pages(club: Club, event: Event) -> dict[str, bytes]:
    """The event's pages as a visitor gets them, each built afresh (no kept page)."""
    base = reverse("club_event", args=[club.slug, event.pk])
    found = {}
    for path in (base, f"{base}?after=1", f"{base}wallchart/", f"{base}ratings/"):
        caches[CACHE_ALIAS].clear()
        response = Client().get(path)
        assert response.status_code in (200, 404), path  # a round robin has no wall chart,
        # an unrated event no rating changes
        found[path] = response.content
    return found


def kept_and_live(club: Club, event: Event, ranked_live: list[int]) -> tuple[dict, dict]:
    """The pages from the kept standings, then ranked live (the kept row removed)."""
    assert EventStandings.objects.filter(event=event).exists()
    ranked_live.clear()
    kept = pages(club, event)
    assert ranked_live == []  # every page took the kept ranking
    EventStandings.objects.filter(event=event).delete()
    live = pages(club, event)
    assert ranked_live  # and now ranked it itself
    return kept, live


def swiss_games(players: list[Player], rng: random.Random, rounds: int = 4) -> list:
    games = []
    for round_no in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for white, black in zip(order[0::2], order[1::2], strict=False):
            games.append((round_no, white, black, rng.choice(RESULTS)))
        if len(order) % 2:
            games.append((round_no, order[-1], None, rng.choice(BYES)))
    return games


def round_robin_games(players: list[Player], rng: random.Random) -> list:
    games, ring = [], players[:]
    for round_no in range(1, len(ring)):
        for a, b in zip(ring[: len(ring) // 2], reversed(ring[len(ring) // 2 :]), strict=True):
            games.append((round_no, a, b, rng.choice(RESULTS)))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return games


def generated_events(policy: str) -> tuple[Club, list[Event]]:
    """Six events of 5 to 11 players, Swiss and round robins, some games at a variant, one
    event not rated, under a random tie-break order; their standings kept."""
    rng = random.Random(27)
    club = make_club(slug=f"kept-{policy}", visibility=Club.Visibility.PUBLIC)
    club.ladders.update(rating_policy=policy)
    club.tiebreak_order = rng.choice([[], ["de", "sb", "bh"], ["won", "bh-c1"]])
    club.save(update_fields=["tiebreak_order"])
    players = [Player.objects.create(club=club, name=f"Player {n:02}") for n in range(11)]
    events = []
    for number in range(6):
        field = rng.sample(players, rng.choice([5, 6, 9, 11]))
        games = swiss_games(field, rng) if number % 3 else round_robin_games(field[:6], rng)
        event = make_event(
            club, games, name=f"Event {number}", date=dt.date(2026, 1, 3) + dt.timedelta(7 * number)
        )
        # Some games at a variant, some events not rated: shown, never rated.
        if number == 2:
            event.games.filter(round=2).update(variant="Chess960")
        if number == 4:
            Event.objects.filter(pk=event.pk).update(rated=False)
        events.append(event)
    bring_up_to_date(club.pk, full=True)
    return club, events


@pytest.mark.parametrize("policy", ["ladder", "hsb"])
def test_kept_pages_are_the_live_pages_on_generated_events(policy, ranked_live):
    club, events = generated_events(policy)
    for event in events:
        kept, live = kept_and_live(club, event, ranked_live)
        assert kept == live


@pytest.mark.skipif(not CORPUS_FILES, reason="the shared TRF corpus is not there")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_kept_pages_are_the_live_pages_on_real_files(path, ranked_live):
    club = make_club(slug="kept-real", visibility=Club.Visibility.PUBLIC)
    event = imported_event(club, path)
    bring_up_to_date(club.pk, full=True)
    kept, live = kept_and_live(club, event, ranked_live)
    assert kept == live


@pytest.fixture
def rerated(monkeypatch):
    """How many times a page took a kept ranking whose rating lines moved (its ranks as kept,
    its lines' part worked out then); the keeping of such a row on a read is not queued, so
    every read takes that path."""
    monkeypatch.setattr("ladder.jobs.enqueue_event_standings", lambda club_id, event_id: None)
    calls: list[int] = []
    real = standings.rerated

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(standings, "rerated", counted)
    return calls


def rerated_and_live(
    club: Club, event: Event, ranked_live: list[int], rerated: list[int]
) -> tuple[dict, dict]:
    """The pages from a kept ranking after every rating line of the event moved (as a
    correction to an earlier event moves them), then ranked live (the kept row removed)."""
    PlayerEventResult.objects.filter(event=event).update(
        pre_rating=F("pre_rating") + 12.25, post_rating=F("post_rating") - 3.5
    )
    ranked_live.clear()
    rerated.clear()
    kept = pages(club, event)
    assert ranked_live == []  # no page ranked it: the kept ranks held
    if PlayerEventResult.objects.filter(event=event).exists():
        assert rerated  # and the moved lines were not taken from the row
    EventStandings.objects.filter(event=event).delete()
    live = pages(club, event)
    assert ranked_live
    return kept, live


@pytest.mark.parametrize("policy", ["ladder", "hsb"])
def test_kept_ranks_with_moved_rating_lines_are_the_live_pages_on_generated_events(
    policy, ranked_live, rerated
):
    club, events = generated_events(policy)
    for event in events:
        kept, live = rerated_and_live(club, event, ranked_live, rerated)
        assert kept == live


@pytest.mark.skipif(not CORPUS_FILES, reason="the shared TRF corpus is not there")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_kept_ranks_with_moved_rating_lines_are_the_live_pages_on_real_files(
    path, ranked_live, rerated
):
    club = make_club(slug="kept-real", visibility=Club.Visibility.PUBLIC)
    event = imported_event(club, path)
    bring_up_to_date(club.pk, full=True)
    kept, live = rerated_and_live(club, event, ranked_live, rerated)
    assert kept == live


@pytest.fixture
def club_with_events():
    club = make_club(slug="kept", visibility=Club.Visibility.PUBLIC)
    players = [Player.objects.create(club=club, name=f"Player {n}") for n in range(6)]
    rng = random.Random(3)
    events = [
        make_event(club, swiss_games(players, rng, 3), date=dt.date(2026, 2, day))
        for day in (1, 8, 15)
    ]
    bring_up_to_date(club.pk, full=True)
    return club, events


def current_inputs(event: Event) -> str | None:
    """The hash the event's kept row has, or None."""
    return EventStandings.objects.filter(event=event).values_list("inputs", flat=True).first()


def test_a_kept_row_of_other_games_is_never_shown(club_with_events, ranked_live):
    club, (first, _second, _third) = club_with_events
    before = pages(club, first)
    game = first.games.filter(black__isnull=False).order_by("id").first()
    flipped = B if game.result != B else W
    Game.objects.filter(pk=game.pk).update(result=flipped)  # no replay: the kept row is old
    ranked_live.clear()
    after = pages(club, first)
    assert ranked_live  # the old row was passed over
    assert after != before
    EventStandings.objects.filter(event=first).delete()
    assert pages(club, first) == after


def test_a_kept_row_of_other_rating_lines_is_never_shown(club_with_events, rerated):
    club, (_first, second, _third) = club_with_events
    before = pages(club, second)
    line = PlayerEventResult.objects.filter(event=second).order_by("id").first()
    PlayerEventResult.objects.filter(pk=line.pk).update(pre_rating=line.pre_rating + 37.5)
    rerated.clear()
    shown = pages(club, second)
    assert rerated  # the row's ranks were taken, its lines' part worked out again
    assert shown != before
    EventStandings.objects.filter(event=second).delete()
    assert pages(club, second) == shown


def test_a_replay_keeps_the_standings_of_the_events_it_touched_and_a_read_the_later_ones(
    club_with_events, django_capture_on_commit_callbacks, ranked_live
):
    club, (first, second, third) = club_with_events
    kept = {e.pk: current_inputs(e) for e in (first, second, third)}
    game = second.games.filter(black__isnull=False).order_by("id").first()
    Game.objects.filter(pk=game.pk).update(result=B if game.result != B else W)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        club_changed(club.pk, LadderInput(from_date=second.date))
    # The first event is as it was; the second's games moved and the replay kept it again.
    assert current_inputs(first) == kept[first.pk]
    assert current_inputs(second) != kept[second.pk]
    assert keep_standings(club.pk, Which(until=second.date)) == 0
    # The third's games did not move, only its rating lines: its row is left as it was (the
    # replay does not rank every later event again), and its page, which reads the new
    # lines, passes over it and ranks live...
    assert current_inputs(third) == kept[third.pk]
    shown = pages(club, third)
    # ...and its first read kept it (in-process without Redis): the next reads take it.
    assert current_inputs(third) != kept[third.pk]
    assert keep_standings(club.pk) == 0
    ranked_live.clear()
    assert pages(club, third) == shown
    assert ranked_live == []
    # What the pages showed is what they show ranked live.
    EventStandings.objects.filter(event=third).delete()
    assert pages(club, third) == shown
    assert ranked_live
    for event in (first, second, third):
        rows = EventStandings.objects.get(event=event).rows
        assert len(rows) == event.entries.count()


def test_a_read_keeps_nothing_while_the_ladder_is_being_recalculated(
    club_with_events, ranked_live, monkeypatch
):
    club, (_first, second, _third) = club_with_events
    monkeypatch.setattr("ladder.jobs.enqueue_replay", lambda club_id: None)  # the worker is late
    game = second.games.filter(black__isnull=False).order_by("id").first()
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(result=B if game.result != B else W)
        club_changed(club.pk, LadderInput(from_date=second.date))
    old = current_inputs(second)
    ranked_live.clear()
    pages(club, second)
    assert ranked_live  # its games moved: the old row is passed over
    assert current_inputs(second) == old  # and no row of the lines about to move is kept
    bring_up_to_date(club.pk)  # the worker, at last: it keeps the event it touched
    assert current_inputs(second) != old
    assert keep_standings(club.pk, Which(event_id=second.pk)) == 0


def test_keeping_one_event_looks_at_no_other(club_with_events):
    club, (first, second, third) = club_with_events
    EventStandings.objects.filter(club=club).delete()
    assert keep_standings(club.pk, Which(event_id=second.pk)) == 1
    assert current_inputs(first) is None and current_inputs(third) is None
    assert keep_standings(club.pk, Which(event_id=second.pk)) == 0
    assert keep_standings(club.pk, Which(since=first.date, until=first.date)) == 1
    assert current_inputs(third) is None


def test_keeping_since_a_date_looks_at_no_earlier_event(club_with_events):
    club, (first, second, _third) = club_with_events
    EventStandings.objects.filter(club=club).delete()
    assert keep_standings(club.pk, Which(since=second.date)) == 2
    assert current_inputs(first) is None
    assert keep_standings(club.pk) == 1  # the first, which nothing kept yet
    assert keep_standings(club.pk) == 0  # all kept, nothing to do


def test_an_event_no_longer_published_loses_its_kept_row(club_with_events):
    club, (first, second, _third) = club_with_events
    Event.objects.filter(pk=first.pk).update(status=Event.Status.DRAFT)
    Event.objects.filter(pk=second.pk).update(deleted_at=dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
    keep_standings(club.pk)
    assert current_inputs(first) is None and current_inputs(second) is None


def test_a_new_tiebreak_order_ranks_every_kept_row_again(
    client, owner, club_with_events, django_capture_on_commit_callbacks
):
    club, events = club_with_events
    ClubRole.objects.create(club=club, user=owner, role=ClubRole.Role.OWNER)
    client.force_login(owner)
    old = {e.pk: current_inputs(e) for e in events}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tiebreak_order", args=[club.slug]), {"place1": "won", "place2": "sb"}
        )
    assert response.status_code == 302
    for event in events:
        row = EventStandings.objects.get(event=event)
        assert row.inputs != old[event.pk]
        assert all(len(values) == 2 for *_counts, values, _perf, _change, _sums in row.rows)
    assert keep_standings(club.pk) == 0  # the rows are those of the new order


def test_an_event_below_the_threshold_is_not_kept_and_its_page_ranks_live(
    club_with_events, ranked_live, monkeypatch
):
    club, (first, _second, _third) = club_with_events
    EventStandings.objects.filter(club=club).delete()
    monkeypatch.setattr(standings, "KEPT_FROM_ENTRANTS", first.entries.count() + 1)
    assert keep_standings(club.pk) == 0
    assert current_inputs(first) is None
    ranked_live.clear()
    pages(club, first)
    assert ranked_live
    monkeypatch.setattr(standings, "KEPT_FROM_ENTRANTS", first.entries.count())
    assert keep_standings(club.pk) == 3


def test_with_a_queue_a_read_queues_the_keeping_of_its_one_event(
    club_with_events, ranked_live, monkeypatch, settings
):
    from config import redis_client
    from ladder import jobs

    club, (first, second, _third) = club_with_events
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # never reached: the queue is a stand-in
    pushed: list[tuple] = []

    class Queue:
        def enqueue(self, job, *args, **options):
            pushed.append((job, args))

    monkeypatch.setattr(jobs, "replay_queue", Queue)
    monkeypatch.setattr(redis_client.breaker, "allows", lambda url: True)
    EventStandings.objects.filter(event=second).delete()
    ranked_live.clear()
    shown = pages(club, second)
    assert ranked_live and current_inputs(second) is None  # queued, not kept in the request
    assert {args for _job, args in pushed} == {(club.pk, second.pk)}
    # What the worker runs keeps that event, and only it.
    EventStandings.objects.filter(event=first).delete()
    job, args = pushed[0]
    job(*args)
    assert current_inputs(second) is not None and current_inputs(first) is None
    ranked_live.clear()
    assert pages(club, second) == shown
    assert ranked_live == []


def test_keeping_a_row_whose_rating_lines_alone_moved_ranks_nothing(club_with_events, ranked_live):
    club, (_first, second, _third) = club_with_events
    PlayerEventResult.objects.filter(event=second).update(pre_rating=F("pre_rating") + 5)
    ranked_live.clear()
    assert keep_standings(club.pk) == 1
    assert ranked_live == []  # its ranks, points and tie-breaks were taken as kept

    def kept_row(event: Event) -> tuple:
        row = EventStandings.objects.get(event=event)
        return row.inputs, row.ranking, row.rows, row.ranks_from_file, row.hides_tiebreaks

    reused = kept_row(second)
    EventStandings.objects.filter(event=second).delete()
    assert keep_standings(club.pk) == 1
    assert ranked_live  # ranked from nothing: the same row
    assert kept_row(second) == reused
    # A game of it changed: its ranks no longer hold, and it is ranked again.
    game = second.games.filter(black__isnull=False).order_by("id").first()
    Game.objects.filter(pk=game.pk).update(result=B if game.result != B else W)
    ranked_live.clear()
    assert keep_standings(club.pk) == 1
    assert ranked_live
    assert kept_row(second)[1] != reused[1]
