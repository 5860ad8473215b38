import pytest
from django.db import DatabaseError

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    from config import health

    class Broken:
        def __enter__(self):
            raise DatabaseError("down")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(health.connection, "cursor", lambda: Broken())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_healthz_reports_the_age_of_the_oldest_out_of_date_ladder(client, club):
    from django.db.models import F
    from django.utils import timezone

    from clubs.models import Club

    Club.objects.filter(pk=club.pk).update(
        data_version=F("data_version") + 1,
        out_of_date_since=timezone.now() - timezone.timedelta(seconds=90),
    )
    body = client.get("/healthz").json()
    assert body["oldest_out_of_date_ladder_seconds"] >= 90


# Liveness and health apart ------------------------------------------------------------------


class _BrokenCursor:
    def __enter__(self):
        raise DatabaseError("down")

    def __exit__(self, *exc):
        return False


@pytest.fixture
def redis_down(settings, monkeypatch):
    """A configured Redis that does not answer."""
    import django_rq
    from redis.exceptions import ConnectionError as RedisConnectionError

    class Unreachable:
        def ping(self):
            raise RedisConnectionError("down")

    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    monkeypatch.setattr(django_rq, "get_connection", lambda name="default": Unreachable())


def test_healthz_is_503_while_redis_does_not_answer(client, redis_down):
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["redis"] == "unavailable"
    assert response.json()["database"] == "ok"


def test_livez_is_200_while_redis_does_not_answer(client, redis_down):
    response = client.get("/livez")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_livez_is_200_while_the_database_does_not_answer(client, monkeypatch):
    from config import health

    monkeypatch.setattr(health.connection, "cursor", lambda: _BrokenCursor())
    assert client.get("/healthz").status_code == 503
    assert client.get("/livez").status_code == 200


def test_livez_asks_the_database_nothing(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/livez").status_code == 200


def test_livez_and_healthz_are_never_cached(client):
    for path in ("/livez", "/healthz"):
        assert "no-cache" in client.get(path)["Cache-Control"]


@pytest.mark.parametrize("path", ["/livez", "/healthz"])
def test_probes_over_plain_http_are_not_redirected_to_https(client, settings, path):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(path).status_code == 200
    assert client.get("/").status_code == 301
