"""API tokens: kept hashed, shown once, revoked, marked used at most once a minute, limited
per minute; the api_token command; a read token reading the API at the plain addresses."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone

from clubs.models import ApiToken, AuditEntry, Club
from clubs.tokens import TokenRefused, create_token, find_token, revoke_token, use_token
from members.api.routes import api_path
from tests.factories import make_club

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_token_is_kept_only_as_its_hash(club, owner):
    made = create_token(club, "Vega", "read", owner)
    row = ApiToken.objects.get()
    assert row.secret_hash == hashlib.sha256(made.text.encode()).hexdigest()
    assert made.text not in repr(list(ApiToken.objects.values()))
    assert made.text.startswith(row.shown_prefix) and len(row.shown_prefix) < 12
    assert find_token(made.text) == row
    assert AuditEntry.objects.filter(action="api_token.created").exists()


def test_a_revoked_or_forged_token_is_found_nowhere(club, owner):
    made = create_token(club, "Vega", "read", owner)
    assert find_token(made.text + "x") is None
    assert find_token("cpt_" + "a" * 43) is None
    revoke_token(club, "Vega", owner)
    assert find_token(made.text) is None
    assert AuditEntry.objects.filter(action="api_token.revoked").exists()


def test_names_are_unique_among_live_tokens_only(club, owner):
    create_token(club, "Vega", "read", owner)
    with pytest.raises(TokenRefused):
        create_token(club, "Vega", "publish", owner)
    revoke_token(club, "Vega", owner)
    create_token(club, "Vega", "publish", owner)
    with pytest.raises(TokenRefused):
        create_token(club, "  ", "read", owner)
    with pytest.raises(TokenRefused):
        create_token(club, "x", "write", owner)


def test_last_used_is_written_at_most_once_a_minute(club, owner):
    made = create_token(club, "Vega", "read", owner)
    token = find_token(made.text)
    use_token(token)
    first = ApiToken.objects.get().last_used_at
    assert first is not None
    use_token(find_token(made.text))
    assert ApiToken.objects.get().last_used_at == first
    ApiToken.objects.update(last_used_at=first - dt.timedelta(minutes=2))
    use_token(find_token(made.text))
    assert ApiToken.objects.get().last_used_at > first - dt.timedelta(seconds=1)


def test_the_command_prints_a_token_once_and_revokes_it(club):
    out, err = run(club.slug, "--name", "Swiss-Manager", "--scope", "publish")
    text = out.strip()
    assert out.count("\n") == 1 and find_token(text).scope == "publish"
    assert text not in err
    run(club.slug, "--revoke", "Swiss-Manager")
    assert find_token(text) is None


@pytest.mark.parametrize(
    "args",
    [
        ("nowhere", "--name", "x", "--scope", "read"),
        ("rooks", "--name", "x"),
        ("rooks", "--revoke", "nobody"),
        ("rooks", "--revoke", "x", "--name", "y"),
    ],
)
def test_the_command_refuses_bad_input_with_a_reason(club, args):
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert caught.value.returncode == 1 and str(caught.value)
    assert not ApiToken.objects.exists()


@pytest.fixture
def unlisted(owner):
    return make_club(slug="hidden", owner=owner, visibility=Club.Visibility.UNLISTED)


def read(client, path, token):
    return client.get(path, headers={"Authorization": f"Bearer {token}"})


def test_a_read_token_reads_its_unlisted_club_at_the_plain_address(client, unlisted):
    path = api_path("club", slug=unlisted.slug)
    assert client.get(path).status_code == 404
    token = create_token(unlisted, "site", "read", None).text
    response = read(client, path, token)
    assert response.status_code == 200
    assert response.json()["name"] == unlisted.name
    assert unlisted.secret not in response.content.decode()
    assert "private" in response["Cache-Control"] and not response.has_header("ETag")


def test_another_clubs_revoked_or_forged_token_is_the_unknown_clubs_404(client, unlisted, club):
    path = api_path("club", slug=unlisted.slug)
    revoked = create_token(unlisted, "old", "read", None).text
    revoke_token(unlisted, "old", None)
    for token in (create_token(club, "x", "read", None).text, revoked, "cpt_forged"):
        response = read(client, path, token)
        assert response.status_code == 404
        assert response.json() == {"detail": "Not found."}


def test_a_token_does_not_open_a_directors_only_club(client):
    club = make_club(slug="inner", visibility=Club.Visibility.DIRECTOR)
    token = create_token(club, "x", "publish", None).text
    assert read(client, api_path("club", slug=club.slug), token).status_code == 404


@override_settings(API_TOKEN_RATE_LIMIT=3)
def test_a_token_past_its_requests_per_minute_gets_a_429(client, unlisted):
    token = create_token(unlisted, "site", "read", None).text
    path = api_path("club", slug=unlisted.slug)
    for _ in range(3):
        assert read(client, path, token).status_code == 200
    response = read(client, path, token)
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 60
    assert response.json()["detail"]
    assert ApiToken.objects.get().last_used_at <= timezone.now()


def test_the_screen_shows_a_new_token_once_and_revokes_it(client, club, owner):
    from django.urls import reverse

    client.force_login(owner)
    page = reverse("token_list", kwargs={"slug": club.slug})
    assert (
        reverse("token_list", kwargs={"slug": club.slug})
        in client.get(reverse("club_manage", kwargs={"slug": club.slug})).content.decode()
    )
    response = client.post(page, {"name": "Vega", "scope": "publish"})
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get()
    text = response.content.decode()
    shown = text.split("<code>")[1].split("</code>")[0]
    assert find_token(shown) == token
    listed = client.get(page).content.decode()
    assert shown not in listed and token.shown_prefix in listed and "Vega" in listed
    client.post(reverse("token_revoke", kwargs={"slug": club.slug, "token_id": token.pk}))
    assert find_token(shown) is None


def test_another_clubs_director_cannot_see_or_revoke_the_tokens(client, club, outsider):
    from django.urls import reverse

    token = create_token(club, "Vega", "read", None)
    client.force_login(outsider)
    assert client.get(reverse("token_list", kwargs={"slug": club.slug})).status_code == 404
    revoke = reverse("token_revoke", kwargs={"slug": club.slug, "token_id": token.token.pk})
    assert client.post(revoke).status_code == 404
    assert find_token(token.text) is not None
