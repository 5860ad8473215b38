"""The publish API (POST /api/v1/clubs/<slug>/events) with a club's API tokens: a real TRF
becomes a draft with names waiting or, with link_exact and publish, a published event; an
Idempotency-Key makes a retry create one event; every bad request is a JSON 4xx and stores
nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from clubs.models import ApiToken, Event, IdempotencyKey, Player
from clubs.tokens import create_token, revoke_token
from directors.events.results import MAX_UPLOAD_BYTES
from tests.factories import make_club, make_players

pytestmark = pytest.mark.django_db

FILES = Path(__file__).parent / "importers" / "files"
SWISS_MANAGER = FILES / "swiss_manager_cp1252_crlf.trf"  # five people and a 'spielfrei' line


def url(slug):
    return reverse("api:publish_event", kwargs={"slug": slug})


def post(client, slug, token, data=None, *, key=None, **fields):
    body = {
        "file": SimpleUploadedFile(
            "event.trf", SWISS_MANAGER.read_bytes() if data is None else data
        )
    }
    body |= {"name": "Spring rapid", "date": "2026-03-10", "kind": "rapid"} | fields
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return client.post(url(slug), body, headers=headers)


@pytest.fixture
def publish_token(club, owner):
    return create_token(club, "Swiss-Manager", "publish", owner).text


def nothing_stored():
    return (
        not Event.objects.exists()
        and not Player.objects.exists()
        and not IdempotencyKey.objects.exists()
    )


def test_a_file_becomes_a_draft_with_every_name_waiting_as_after_a_browser_upload(
    client, club, publish_token
):
    make_players(club, ["Jürgen Müller"])
    response = post(client, club.slug, publish_token)
    assert response.status_code == 201, response.content
    answer = response.json()
    event = Event.objects.get()
    assert answer["event_id"] == event.pk
    assert answer["status"] == "draft" and event.status == Event.Status.DRAFT
    assert (event.name, str(event.date), event.kind) == ("Spring rapid", "2026-03-10", "rapid")
    # Nothing linked or made silently: the director decides every name on the names screen.
    typed = sorted(event.entries.values_list("typed_name", flat=True))
    assert "Müller, Jürgen" in typed and sorted(answer["names_waiting"]) == typed
    assert (answer["created"], answer["linked"]) == (0, 0)
    assert Player.objects.filter(club=club).count() == 1
    assert not event.entries.filter(player__isnull=False).exists()
    assert answer["finish_url"] == "http://testserver" + reverse(
        "event_names", kwargs={"slug": club.slug, "event_id": event.pk}
    )


def test_link_exact_and_publish_publish_when_every_name_is_exact(client, club, publish_token):
    (jurgen,) = make_players(club, ["Jürgen Müller"])
    response = post(client, club.slug, publish_token, link_exact="true", publish="true")
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "published"
    assert response.json()["names_waiting"] == []
    event = Event.objects.get()
    assert event.status == Event.Status.PUBLISHED
    assert event.entries.get(typed_name="Müller, Jürgen").player == jurgen


def test_publish_waits_while_a_name_needs_a_decision(client, club, publish_token):
    make_players(club, ["Jürgen Müller"])
    response = post(client, club.slug, publish_token, publish="true")
    assert response.json()["status"] == "draft"
    assert Event.objects.get().status == Event.Status.DRAFT


def test_a_retry_with_the_same_key_and_body_makes_one_event(client, club, publish_token):
    first = post(client, club.slug, publish_token, key="run-42")
    again = post(client, club.slug, publish_token, key="run-42")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert Event.objects.count() == 1


def test_the_same_key_with_another_body_is_refused(client, club, publish_token):
    post(client, club.slug, publish_token, key="run-42")
    other = post(client, club.slug, publish_token, key="run-42", name="Another name")
    assert other.status_code == 409
    assert "Idempotency-Key" in other.json()["detail"]
    assert Event.objects.count() == 1


def test_keys_are_per_club_and_a_new_key_makes_a_new_event(client, club, publish_token):
    post(client, club.slug, publish_token, key="a")
    post(client, club.slug, publish_token, key="b")
    assert Event.objects.count() == 2


def test_a_malformed_file_is_a_400_and_stores_nothing(client, club, publish_token):
    data = SWISS_MANAGER.read_bytes().replace(b"001    2 w", b"001    1 w")
    response = post(client, club.slug, publish_token, data, key="k")
    assert response.status_code == 400
    assert response.json()["detail"]
    assert nothing_stored()


def test_an_unknown_club_and_another_clubs_token_are_the_same_404(client, club, publish_token):
    other = make_club(slug="knights")
    other_token = create_token(other, "script", "publish", None).text
    for slug, token in (("nowhere", publish_token), (club.slug, other_token)):
        response = post(client, slug, token)
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}
    assert nothing_stored()


def test_a_revoked_forged_or_missing_token_is_a_401(client, club, publish_token, owner):
    revoke_token(club, "Swiss-Manager", owner)
    for token in (publish_token, "cpt_forged", "not-a-token", None):
        response = post(client, club.slug, token)
        assert response.status_code == 401
        assert response.json()["detail"]
    assert nothing_stored()


def test_a_read_token_may_not_publish(client, club, owner):
    token = create_token(club, "reader", "read", owner).text
    response = post(client, club.slug, token)
    assert response.status_code == 403
    assert "publish" in response.json()["detail"]
    assert nothing_stored()


def test_an_oversized_request_is_a_413(client, club, publish_token):
    response = post(client, club.slug, publish_token, b"0" * (MAX_UPLOAD_BYTES + 1))
    assert response.status_code == 413
    assert response.json()["detail"]
    assert nothing_stored()


def test_a_missing_file_or_a_bad_kind_is_a_422(client, club, publish_token):
    headers = {"Authorization": f"Bearer {publish_token}"}
    assert client.post(url(club.slug), {"name": "x"}, headers=headers).status_code == 422
    assert post(client, club.slug, publish_token, kind="bullet-ish").status_code == 422
    assert nothing_stored()


@override_settings(API_TOKEN_RATE_LIMIT=2)
def test_publishing_counts_against_the_tokens_rate_limit(client, club, publish_token):
    assert post(client, club.slug, publish_token, b"junk").status_code == 400
    assert post(client, club.slug, publish_token, b"junk").status_code == 400
    response = post(client, club.slug, publish_token)
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert nothing_stored()


def test_the_token_is_marked_used(client, club, publish_token):
    post(client, club.slug, publish_token)
    assert ApiToken.objects.get().last_used_at is not None
