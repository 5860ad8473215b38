"""Security headers, and hostile requests that must end in a 4xx or a form message."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Entry, Game
from tests.factories import make_club, make_event, make_user
from tests.security.routes import database_checksum

pytestmark = pytest.mark.django_db

PRODUCTION_COOKIES = {"SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True}


def test_every_page_sends_the_security_headers(client):
    response = client.get("/")
    csp = response["Content-Security-Policy"]
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    assert "frame-ancestors 'none'" in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] in {"same-origin", "no-referrer"}
    assert response["X-Frame-Options"] == "DENY"


@override_settings(**PRODUCTION_COOKIES)
def test_the_session_cookie_is_secure_and_http_only(client):
    user = make_user("me@example.org")
    from tests.factories import PASSWORD

    client.post(reverse("login"), {"username": user.email, "password": PASSWORD})
    cookie = client.cookies["sessionid"]
    assert cookie["secure"] and cookie["httponly"]


@pytest.fixture
def upload(client):
    director = make_user("director@example.org")
    club = make_club(slug="limits", directors=[director])
    event = make_event(club, published=False)
    client.force_login(director)
    url = reverse("event_upload", args=[club.slug, event.pk])

    def post(files, **fields):
        data = {"version": event.edit_version, "format": "auto", **fields}
        if isinstance(files, list) or files is not None:
            data["file"] = files
        return client.post(url, data)

    return post, event


def named(name: str, content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("empty.trf", b""),
        ("nul.trf", b"012 Club night\n001\x00\x00\x00 broken\n"),
        ("photo.trf", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8),
        ("utf16.trf", "012 Turnier\n001    1 m    Müller, Hans".encode("utf-16")),
        ("latin.csv", "round,white,black,result\n1,Jürgen,Zoë\xa0,xyz\n".encode("cp1252")),
    ],
    ids=["empty", "nul-bytes", "binary-renamed", "utf-16", "bad-result-cp1252"],
)
def test_a_bad_file_gets_a_message_and_stores_nothing(upload, name, content):
    post, event = upload
    before = database_checksum()
    response = post(named(name, content))
    assert response.status_code in {200, 400}
    assert "error" in response.content.decode().lower() or response.status_code == 400
    assert not Entry.objects.filter(event=event).exists()
    assert not Game.objects.filter(event=event).exists()
    after = database_checksum()
    assert {k: v for k, v in after.items() if k != "clubs.AuditEntry"} == {
        k: v for k, v in before.items() if k != "clubs.AuditEntry"
    }


def test_an_upload_over_the_limit_is_refused_before_parsing(upload):
    post, event = upload
    response = post(named("huge.trf", b"012 x\n" + b"X" * (4 * 1024 * 1024 + 10)))
    assert response.status_code in {200, 400, 413}
    assert "larger than" in response.content.decode()
    assert not Game.objects.filter(event=event).exists()


def test_too_many_files_in_one_request_is_a_400(upload):
    post, event = upload
    files = [named(f"f{n}.csv", b"round,white,black,result\n") for n in range(5)]
    assert post(files).status_code == 400
    assert not Entry.objects.filter(event=event).exists()


def test_a_huge_form_field_is_a_400_not_a_500(client):
    director = make_user("director@example.org")
    club = make_club(slug="limits", directors=[director])
    client.force_login(director)
    response = client.post(
        reverse("event_create", args=[club.slug]),
        {"name": "x" * (4 * 1024 * 1024), "date": "2026-01-01"},
    )
    assert response.status_code == 400
    assert not club.events.exists()


def test_a_request_without_csrf_is_refused_on_a_real_client():
    client = Client(enforce_csrf_checks=True)
    assert client.post(reverse("login"), {"username": "a", "password": "b"}).status_code == 403
