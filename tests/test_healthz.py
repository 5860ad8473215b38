import pytest
from django.db import DatabaseError

from clubs.models import Ladder

pytestmark = pytest.mark.django_db


def test_healthz_is_ok_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    from config import health

    monkeypatch.setattr(health.connection, "ensure_connection", _refused)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_healthz_is_503_when_a_kept_connection_no_longer_works(client, monkeypatch):
    from config import health

    monkeypatch.setattr(health.connection, "is_usable", lambda: False)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_healthz_reports_the_age_of_the_oldest_out_of_date_ladder(client, club):
    from django.db.models import F
    from django.utils import timezone

    Ladder.objects.filter(club_id=club.pk).update(
        data_version=F("data_version") + 1,
        out_of_date_since=timezone.now() - timezone.timedelta(seconds=90),
    )
    body = client.get("/healthz").json()
    assert body["oldest_out_of_date_ladder_seconds"] >= 90


# Liveness and health apart ------------------------------------------------------------------


def _refused() -> None:
    """The database does not answer: connecting, and so every query, fails."""
    raise DatabaseError("down")


@pytest.fixture
def breaker_reset():
    from config import redis_client

    redis_client.breaker = redis_client.Breaker()
    yield
    redis_client.breaker = redis_client.Breaker()


@pytest.fixture
def redis_down(settings, breaker_reset):
    """A configured Redis that refuses connections."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"


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

    monkeypatch.setattr(health.connection, "ensure_connection", _refused)
    assert client.get("/healthz").status_code == 503
    assert client.get("/livez").status_code == 200


def test_livez_asks_the_database_nothing(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/livez").status_code == 200


def test_livez_and_healthz_are_never_cached(client):
    for path in ("/livez", "/healthz", "/readyz"):
        assert "no-cache" in client.get(path)["Cache-Control"]


@pytest.mark.parametrize("path", ["/livez", "/healthz", "/readyz"])
def test_probes_over_plain_http_are_not_redirected_to_https(client, settings, path):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(path).status_code == 200
    assert client.get("/").status_code == 301


# Readiness: what a load balancer asks ----------------------------------------------------


@pytest.fixture
def manifest_storage(settings, tmp_path):
    """Production's static storage over an empty STATIC_ROOT: collectstatic never ran."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    return tmp_path


def test_readyz_is_200_when_this_process_can_serve_pages(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body == {
        "database": "ok", "static": "ok", "page": "ok", "redis": "not configured", "status": "ok"
    }  # fmt: skip


def test_readyz_is_503_without_the_static_manifest_and_names_it(client, manifest_storage, caplog):
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["static"] == "manifest missing"
    assert body["failed"] == ["static"]
    assert "Not ready: static manifest missing" in caplog.text
    assert client.get("/livez").status_code == 200  # alive, yet every page would be a 500


def test_readyz_is_200_once_collectstatic_has_written_the_manifest(client, manifest_storage):
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.files.storage import storages
    from django.core.management import call_command
    from django.utils.functional import empty

    call_command("collectstatic", "--noinput", verbosity=0)
    # As in a process started after collectstatic: the storage reads the manifest anew.
    storages._storages.clear()
    staticfiles_storage._wrapped = empty
    response = client.get("/readyz")
    assert response.status_code == 200, response.json()
    assert response.json()["page"] == "ok"


def test_readyz_is_503_when_the_database_does_not_answer(client, monkeypatch, caplog):
    from config import health

    monkeypatch.setattr(health.connection, "ensure_connection", _refused)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["database"] == "unavailable" and body["failed"] == ["database"]
    assert body["page"] == "not tried"
    assert "Not ready: database unavailable" in caplog.text


def test_readyz_is_503_when_the_page_does_not_render(client, monkeypatch):
    from directors import views

    def broken(request):
        raise ValueError("Missing staticfiles manifest entry for 'css/site.css'")

    monkeypatch.setattr(views, "home", broken)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["page"] == "error"


def test_readyz_stays_200_while_redis_is_down_and_says_degraded(client, redis_down):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["redis"] == "unavailable"
    assert response.json()["status"] == "degraded"
    assert client.get("/healthz").status_code == 503  # monitors still hear of it


def test_readyz_stays_200_while_redis_hangs_and_asks_it_once(client, settings, breaker_reset):
    from tests.resilience.hung_server import hung_server

    with hung_server() as server:
        settings.REDIS_URL = server.url
        settings.REDIS_READ_TIMEOUT_SECONDS = 0.2
        first = client.get("/readyz")
        assert first.status_code == 200
        assert first.json()["redis"] == "unavailable"
        assert first.json()["status"] == "degraded"
        # Within REDIS_RETRY_AFTER_SECONDS the probes do not wait on it again.
        for path in ("/readyz", "/healthz", "/readyz"):
            again = client.get(path)
            assert again.json()["redis"] == "unavailable (not asked again yet)"
        assert server.connections == 1
