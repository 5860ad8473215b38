"""Every Redis client of the site: short timeouts, and a breaker that remembers a failure.

Redis only carries the replay queue; pages never need it, and a change is committed before
its replay is queued (the sweep re-queues whatever did not reach Redis). So a Redis that
accepts connections and never answers must not hold a web worker: every client connects
and reads with a timeout of a fraction of a second (REDIS_CONNECT_TIMEOUT_SECONDS,
REDIS_READ_TIMEOUT_SECONDS), and after one failure this process leaves that Redis alone for
REDIS_RETRY_AFTER_SECONDS, so a hung Redis costs one request one timeout, not every request.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

if TYPE_CHECKING:
    from redis import Redis


def url_with_timeouts(url: str, connect_seconds: float, read_seconds: float) -> str:
    """The URL with redis-py's timeout options added, so clients built from the URL alone
    (django-rq's, from RQ_QUEUES) carry them too. Options the URL names itself are kept."""
    parts = urlsplit(url)
    options = dict(parse_qsl(parts.query))
    options.setdefault("socket_connect_timeout", f"{connect_seconds:g}")
    options.setdefault("socket_timeout", f"{read_seconds:g}")
    return urlunsplit(parts._replace(query=urlencode(options)))


class Breaker:
    """Per Redis URL, the moment until which this process does not try it again."""

    def __init__(self) -> None:
        self._closed_until: dict[str, float] = {}
        self._lock = threading.Lock()

    def allows(self, url: str) -> bool:
        with self._lock:
            return time.monotonic() >= self._closed_until.get(url, 0.0)

    def failed(self, url: str, retry_after_seconds: float) -> None:
        with self._lock:
            self._closed_until[url] = time.monotonic() + retry_after_seconds

    def reset(self, url: str) -> None:
        with self._lock:
            self._closed_until.pop(url, None)


breaker = Breaker()


_clients: dict[tuple[str, float, float], Redis] = {}
_clients_lock = threading.Lock()


def connection(url: str) -> Redis:
    """The process's client for `url` with the configured timeouts, kept and reused: a
    /readyz probe every few seconds opened (and left for the collector) a connection each.

    Keyed by the URL and the timeouts, so a changed REDIS_URL or setting gets a client of
    its own. redis-py's pool replaces a connection Redis dropped (a restart) before using it,
    and retries nothing: a hung Redis still costs one timeout."""
    from django.conf import settings

    key = (url, settings.REDIS_CONNECT_TIMEOUT_SECONDS, settings.REDIS_READ_TIMEOUT_SECONDS)
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = _new_client(*key)
        return client


def _new_client(url: str, connect_seconds: float, read_seconds: float) -> Redis:
    from redis import Redis

    return Redis.from_url(url, socket_connect_timeout=connect_seconds, socket_timeout=read_seconds)


def reachable(url: str) -> bool | None:
    """Whether Redis answers a PING now; None while the breaker skips it after a failure."""
    from django.conf import settings
    from redis.exceptions import RedisError

    if not breaker.allows(url):
        return None
    try:
        connection(url).ping()
    except RedisError:
        breaker.failed(url, settings.REDIS_RETRY_AFTER_SECONDS)
        return False
    return True
