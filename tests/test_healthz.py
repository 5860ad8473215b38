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
