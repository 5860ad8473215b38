"""With Redis, a club page built by one web process (or host) is kept for all of them; without
Redis, or while it is down or hung, every process builds and keeps its own, never a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import caches
from django.db import transaction
from django.test import Client
from redis import Redis

from clubs.models import Club, Player
from clubs.results import Result
from config import redis_client
from ladder.changes import OnPages, club_changed
from ladder.replay import replay_ladder
from members.web import page_cache
from tests.factories import make_club, make_event
from tests.resilience.hung_server import HungServer, hung_server

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_clients() -> Iterator[None]:
    redis_client.breaker = redis_client.Breaker()
    page_cache._redis_cache.cache_clear()
    yield
    redis_client.breaker = redis_client.Breaker()
    page_cache._redis_cache.cache_clear()


@pytest.fixture
def public_club() -> Club:
    club = make_club(slug="shared", visibility=Club.Visibility.PUBLIC)
    ann = Player.objects.create(club=club, name="Ann Visser")
    bob = Player.objects.create(club=club, name="Bob Smit")
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Spring Open")
    replay_ladder(club.pk, full=True)
    return club


def visit(club: Club, suffix: str = "players/") -> tuple[int, str]:
    response = Client().get(f"/c/{club.slug}/{suffix}")
    return response.status_code, response.get(page_cache.STATUS_HEADER, "")


def another_process() -> None:
    """What a second web process (or host) has: its own empty local cache and its own Redis
    client (a new connection pool)."""
    caches[page_cache.CACHE_ALIAS].clear()
    page_cache._redis_cache.cache_clear()


@pytest.fixture
def redis_url(settings) -> Iterator[str]:
    Redis.from_url(settings.REDIS_URL).flushdb()
    yield settings.REDIS_URL
    Redis.from_url(settings.REDIS_URL).flushdb()


@pytest.mark.redis
def test_a_page_built_by_one_process_is_served_by_another_from_redis(public_club, redis_url):
    assert visit(public_club) == (200, "miss")
    first = page_cache._shared_store()
    keys = Redis.from_url(redis_url).keys(f"clubpages:{page_cache.code_version()}:*")
    assert len(keys) == 1  # namespaced beside the queue's keys
    assert Redis.from_url(redis_url).ttl(keys[0]) > 0  # expires as the local copies do

    another_process()
    assert page_cache._shared_store() is not first  # a client of its own
    assert visit(public_club) == (200, "hit")  # built by the first process
    # Now kept locally too: Redis is not asked again for it.
    Redis.from_url(redis_url).flushdb()
    assert visit(public_club) == (200, "hit")


@pytest.mark.redis
def test_after_a_change_the_page_is_built_once_for_every_process(public_club, redis_url):
    assert visit(public_club) == (200, "miss")
    another_process()
    assert visit(public_club) == (200, "hit")
    with transaction.atomic():
        club_changed(public_club.pk, OnPages())  # a name changed: every kept page retired
    assert visit(public_club) == (200, "miss")  # this process builds it again...
    another_process()
    assert visit(public_club) == (200, "hit")  # ...and the other one finds it built


def test_without_redis_each_process_keeps_its_own_pages(public_club, settings):
    assert settings.REDIS_URL is None
    assert page_cache._shared_store() is None
    assert visit(public_club) == (200, "miss")
    assert visit(public_club) == (200, "hit")
    another_process()
    assert visit(public_club) == (200, "miss")


def test_with_redis_down_pages_are_built_and_kept_locally(public_club, settings, caplog):
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens: refused at once
    assert visit(public_club) == (200, "miss")
    assert "Page cache in Redis unavailable" in caplog.text
    assert not redis_client.breaker.allows(settings.REDIS_URL)
    assert visit(public_club) == (200, "hit")  # this process's own copy
    assert visit(public_club, "events/") == (200, "miss")


@pytest.fixture
def hung(settings) -> Iterator[HungServer]:
    with hung_server() as server:
        settings.REDIS_URL = server.url
        settings.REDIS_CONNECT_TIMEOUT_SECONDS = 0.2
        settings.REDIS_READ_TIMEOUT_SECONDS = 0.2
        yield server


def test_with_redis_hung_only_the_first_page_waits_one_timeout(public_club, hung):
    assert visit(public_club) == (200, "miss")  # after one read timeout, not a hang
    assert hung.connections == 1
    for suffix in ("events/", "players/", ""):
        assert visit(public_club, suffix)[0] == 200
    assert hung.connections == 1  # the breaker leaves the hung Redis alone meanwhile


def test_the_shared_keys_change_with_the_code_templates_and_translations(settings, tmp_path):
    (tmp_path / "templates").mkdir()
    (tmp_path / "ladder").mkdir()
    page = tmp_path / "templates" / "page.html"
    page.write_text("<p>{{ rating }}</p>")
    (tmp_path / "ladder" / "views.py").write_text("RATING = 1\n")
    settings.BASE_DIR = tmp_path
    page_cache.code_version.cache_clear()
    try:
        first = page_cache.code_version()
        page_cache.code_version.cache_clear()
        assert page_cache.code_version() == first  # the same files: the same keys
        page.write_text("<p><b>{{ rating }}</b></p>")
        page_cache.code_version.cache_clear()
        assert page_cache.code_version() != first
    finally:
        page_cache.code_version.cache_clear()
