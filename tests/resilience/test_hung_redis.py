"""A Redis that accepts connections and never answers: changes commit, requests do not wait.

Each client reads with REDIS_READ_TIMEOUT_SECONDS; after one timeout the process leaves that
Redis alone for REDIS_RETRY_AFTER_SECONDS, so only the first request pays the timeout. The
club stays marked out of date, and the sweep queues its replay once Redis answers.
"""

from __future__ import annotations

import pytest
from django.db import transaction
from redis import Redis

from clubs.models import Club, Game
from clubs.results import Result
from config import redis_client
from ladder.changes import LadderInput, club_changed
from ladder.jobs import replay_queue, sweep_ladders
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_club, make_event, make_players
from tests.live import run_burst_worker
from tests.resilience.hung_server import HungServer, hung_server

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_breaker():
    redis_client.breaker = redis_client.Breaker()
    yield
    redis_client.breaker = redis_client.Breaker()


@pytest.fixture
def hung(settings):
    with hung_server() as server:
        settings.REDIS_URL = server.url
        settings.REDIS_CONNECT_TIMEOUT_SECONDS = 0.2
        settings.REDIS_READ_TIMEOUT_SECONDS = 0.2
        yield server


@pytest.fixture
def small_club(director):
    club = make_club(slug="small", directors=[director])
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN), (1, cid, dee, Result.DRAW)])
    replay_ladder(club.pk, full=True)
    return club


def correct_first_result(club: Club, result: Result) -> None:
    with transaction.atomic():
        game = Game.objects.filter(event__club=club).order_by("pk").first()
        Game.objects.filter(pk=game.pk).update(result=result)
        club_changed(club.pk, LadderInput())


def out_of_date(club: Club) -> bool:
    club.refresh_from_db()
    return not club.ladder_is_current


def test_a_director_action_commits_and_only_the_first_waits_on_a_hung_redis(
    hung: HungServer, small_club, client, director, django_capture_on_commit_callbacks, caplog
):
    client.force_login(director)
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(f"/manage/{small_club.slug}/rebuild/")
    assert first.status_code == 302
    assert out_of_date(small_club)  # committed, marked for the sweep
    assert "Could not queue a replay" in caplog.text
    assert hung.connections == 1

    with django_capture_on_commit_callbacks(execute=True):
        correct_first_result(small_club, Result.BLACK_WIN)
        second = client.post(f"/manage/{small_club.slug}/rebuild/")
    assert second.status_code == 302
    assert Game.objects.filter(event__club=small_club, result=Result.BLACK_WIN).exists()
    assert hung.connections == 1  # skipped: Redis failed moments ago
    assert "Redis failed moments ago" in caplog.text


def test_the_sweep_asks_a_hung_redis_again_and_leaves_the_club_marked(hung, small_club):
    correct_first_result(small_club, Result.BLACK_WIN)
    assert sweep_ladders(older_than_seconds=0) == [small_club.pk]
    assert sweep_ladders(older_than_seconds=0) == [small_club.pk]
    assert hung.connections == 2  # each sweep asks afresh, once
    assert out_of_date(small_club)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(180)
def test_a_correction_made_while_redis_hung_is_healed_by_the_sweep_once_it_answers(
    settings, director
):
    real_url = settings.REDIS_URL
    Redis.from_url(real_url).flushdb()
    club = make_club(slug="healed", directors=[director])
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    replay_ladder(club.pk, full=True)
    with hung_server() as server:
        settings.REDIS_URL = server.url
        correct_first_result(club, Result.DRAW)  # commits; the queueing times out
        assert server.connections == 1
    assert out_of_date(club)

    settings.REDIS_URL = real_url  # Redis answers again
    assert sweep_ladders(older_than_seconds=0) == [club.pk]
    assert replay_queue().count == 1
    run_burst_worker(real_url)
    assert not out_of_date(club)
    assert verify_ladder(club) == []
    Redis.from_url(real_url).flushdb()
