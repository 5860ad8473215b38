"""One Redis client per process, URL and timeouts: probes reuse its connection, and a
connection Redis dropped is replaced (tests/resilience/test_hung_redis.py: a hung one
still costs a single timeout)."""

from __future__ import annotations

import pytest
from django.conf import settings

from config import redis_client


def test_the_same_url_gets_the_same_client_and_another_url_its_own():
    first = redis_client.connection("redis://127.0.0.1:6379/13")
    assert redis_client.connection("redis://127.0.0.1:6379/13") is first
    assert redis_client.connection("redis://127.0.0.1:6379/12") is not first


def test_changed_timeouts_get_a_client_of_their_own(settings):
    before = redis_client.connection("redis://127.0.0.1:6379/13")
    settings.REDIS_READ_TIMEOUT_SECONDS = 0.75
    after = redis_client.connection("redis://127.0.0.1:6379/13")
    assert after is not before
    assert after.connection_pool.connection_kwargs["socket_timeout"] == 0.75


@pytest.mark.redis
def test_probes_share_one_connection_and_survive_redis_dropping_it():
    url = settings.REDIS_URL
    client = redis_client.connection(url)
    for _ in range(5):
        assert redis_client.reachable(url) is True
    assert client.connection_pool._created_connections == 1  # redis-py's own count
    # Redis drops every connection of this client (as a restart would): the next probe
    # reconnects instead of reporting Redis down and opening the breaker.
    own_id = client.client_id()
    redis_client._new_client(url, 1.0, 1.0).client_kill_filter(_id=own_id)
    assert redis_client.reachable(url) is True
    assert redis_client.breaker.allows(url)
