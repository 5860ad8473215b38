"""A database connection lost between two requests costs no 500: a page is built again on a
new connection (config.middleware.RetryLostConnection), and web processes test a kept
connection before using it (CONN_HEALTH_CHECKS). Nothing that may have written is retried.
"""

from __future__ import annotations

import sqlite3
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import OperationalError, connection
from django.db.backends.sqlite3.base import SQLiteCursorWrapper
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from clubs.models import Club, Player
from config import middleware
from tests.factories import make_club
from tests.live import database_url, kill, process_env, start_gunicorn

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def public_club() -> Club:
    return make_club(slug="open-club", visibility="public")


def home(club: Club) -> str:
    return f"/c/{club.slug}/"


class LoseNextRead:
    """A coming SELECT fails as a dead connection's would (SQLite's own OperationalError,
    which Django raises as django.db.OperationalError): once armed, the one after `skip`
    more have been answered. `reads` counts the SELECTs run."""

    def __init__(self) -> None:
        self.armed = False
        self.skip = 0
        self.reads = 0

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = SQLiteCursorWrapper.execute

        def execute(cursor: SQLiteCursorWrapper, query: str, params: Any = None) -> Any:
            if query.lstrip().upper().startswith("SELECT"):
                self.reads += 1
                if self.armed and self.skip:
                    self.skip -= 1
                elif self.armed:
                    self.armed = False
                    raise sqlite3.OperationalError("server closed the connection unexpectedly")
            return real(cursor, query, params)

        monkeypatch.setattr(SQLiteCursorWrapper, "execute", execute)


@pytest.fixture
def lose(monkeypatch: pytest.MonkeyPatch) -> Iterator[LoseNextRead]:
    if connection.vendor != "sqlite":
        pytest.skip("simulated on SQLite; PostgreSQL is killed for real below")
    fault = LoseNextRead()
    fault.install(monkeypatch)
    yield fault


def test_a_page_whose_kept_connection_was_lost_is_built_again(public_club, lose, caplog):
    client = Client(raise_request_exception=False)
    assert client.get(home(public_club)).status_code == 200  # the connection is kept
    assert connection.connection is not None
    lose.armed, before = True, lose.reads
    response = client.get(home(public_club) + "players/")
    assert response.status_code == 200
    assert lose.reads > before + 1  # the failed first read, then the page built again
    assert "lost or refused" in caplog.text


def test_a_post_is_never_retried_and_gets_a_503_not_a_500(public_club, lose, director):
    client = Client(raise_request_exception=False)
    client.force_login(director)
    assert client.get(home(public_club)).status_code == 200
    lose.armed, before = True, lose.reads
    response = client.post(f"/manage/{public_club.slug}/rebuild/")
    assert lose.reads == before + 1  # the one read that failed; the view did not run again
    assert response.status_code == 503 and response["Retry-After"] == "5"


def test_a_page_that_only_read_before_the_database_went_away_is_built_again(public_club, lose):
    client = Client(raise_request_exception=False)
    assert client.get(home(public_club)).status_code == 200
    lose.armed, lose.skip = True, 1  # the club is read, then the next read fails
    assert client.get(home(public_club) + "events/").status_code == 200
    assert not lose.armed  # the failure happened


UPDATES: list[str] = []


def writes_then_reads(request: HttpRequest) -> HttpResponse:
    """A GET that writes before it reads (no page of the site does; this one is for the test)."""
    with connection.cursor() as cursor:
        cursor.execute("UPDATE clubs_club SET name = name WHERE id = -1")
    UPDATES.append(request.path)
    return HttpResponse(str(Club.objects.count()))


urlpatterns = [path("writes-then-reads/", writes_then_reads)]
handler500 = "config.errors.server_error"


@pytest.mark.urls("tests.resilience.test_lost_connection")
def test_a_get_that_wrote_before_the_database_went_away_is_not_built_again(lose):
    UPDATES.clear()
    lose.armed = True
    response = Client(raise_request_exception=False).get("/writes-then-reads/")
    assert UPDATES == ["/writes-then-reads/"]  # written once, never again
    assert response.status_code == 503


def terminate_backends(of_database: str, keep_pid: int | None = None) -> int:
    """pg_terminate_backend for every other session on the database, from a connection of
    its own (as a restart or an administrator would); the number terminated."""
    with psycopg.connect(database_url("postgres"), autocommit=True) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid() AND pid IS DISTINCT FROM %s",
            (of_database, keep_pid),
        ).fetchall()
    return sum(1 for (done,) in rows if done)


@pytest.mark.postgres
def test_postgresql_terminating_the_backend_between_two_requests_costs_no_500(public_club):
    """The test client keeps the connection between requests (Django's test client does not
    close it), so the second request meets the dead connection: the retry answers."""
    client = Client(raise_request_exception=False)
    assert client.get(home(public_club)).status_code == 200
    pid = connection.connection.info.backend_pid
    with psycopg.connect(database_url("postgres"), autocommit=True) as admin:
        (done,) = admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone()
    assert done
    response = client.get(home(public_club) + "players/")
    assert response.status_code == 200
    assert connection.connection.info.backend_pid != pid


@pytest.mark.postgres
@pytest.mark.timeout(120)
def test_gunicorn_serves_the_next_request_after_its_backends_are_terminated(public_club):
    """The deployment's own path: gunicorn workers keep their connections (CONN_MAX_AGE);
    every backend of the database is terminated between two requests; each worker's next
    request answers 200."""
    server, base = start_gunicorn(process_env(), workers=2)
    try:
        name = connection.settings_dict["NAME"]

        def get(path: str) -> int:
            request = urllib.request.Request(base + path, headers={"Accept-Language": "nl"})
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    return answer.status
            except urllib.error.HTTPError as error:
                return error.code

        # Every worker holds a connection: enough requests that both have served one.
        assert {get(f"{home(public_club)}?page={n}") for n in range(1, 9)} == {200}
        own = connection.connection.info.backend_pid if connection.connection else None
        assert terminate_backends(name, keep_pid=own) >= 1
        assert [get(f"{home(public_club)}players/?page={n}") for n in range(1, 9)] == [200] * 8
    finally:
        kill(server)


class RefuseConnections:
    """The database refuses the next `times` connection attempts, as PostgreSQL does while it
    restarts (Django raises its OperationalError before any statement runs)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, times: int) -> None:
        self.left = times
        self.attempts = 0
        real = connection.ensure_connection

        def ensure_connection() -> None:
            self.attempts += 1
            if self.left:
                self.left -= 1
                raise OperationalError("connection refused: the database system is starting up")
            real()

        monkeypatch.setattr(connection, "ensure_connection", ensure_connection)


def test_a_page_asked_for_while_the_database_restarts_waits_for_it(public_club, monkeypatch):
    monkeypatch.setattr(middleware, "DATABASE_WAIT_SECONDS", 5.0)
    client = Client(raise_request_exception=False)
    refused = RefuseConnections(monkeypatch, times=3)
    response = client.get(home(public_club) + "players/")
    assert response.status_code == 200
    assert refused.attempts > 3  # three refusals, then the page was built


def test_a_post_sent_while_the_database_restarts_is_stored_once(club, monkeypatch, director):
    monkeypatch.setattr(middleware, "DATABASE_WAIT_SECONDS", 5.0)
    client = Client(raise_request_exception=False)
    client.force_login(director)
    RefuseConnections(monkeypatch, times=2)
    response = client.post(f"/manage/{club.slug}/players/add/", {"name": "Ada Lovelace"})
    assert response.status_code == 302
    assert Player.objects.filter(club=club, name="Ada Lovelace").count() == 1


def test_a_database_that_stays_away_gets_a_503_not_a_500(public_club, monkeypatch):
    monkeypatch.setattr(middleware, "DATABASE_WAIT_SECONDS", 0.3)
    client = Client(raise_request_exception=False)
    RefuseConnections(monkeypatch, times=1_000)
    response = client.get(home(public_club) + "players/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"try again" in response.content
