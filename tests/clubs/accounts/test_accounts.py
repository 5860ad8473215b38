import re

import pytest
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import Club, ClubRole, User
from tests.factories import PASSWORD, make_club, make_user

pytestmark = pytest.mark.django_db


def sign_up(client, email, name="New", **headers):
    return client.post(reverse("signup"), {"email": email, "name": name}, **headers)


def link_in(message):
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


def test_signing_up_mails_a_link_that_creates_the_account_and_signs_in(client):
    response = sign_up(client, "New@Example.org")
    assert response.status_code == 302
    assert not User.objects.exists()
    (message,) = mail.outbox
    assert message.to == ["new@example.org"]
    response = client.post(link_in(message), {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("club_create")
    user = User.objects.get(email="new@example.org")
    assert user.name == "New"
    assert client.session["_auth_user_id"] == str(user.pk)


def test_sign_up_answers_the_same_whether_or_not_the_address_has_an_account(client):
    make_user("taken@example.org")
    new = sign_up(Client(), "fresh@example.org")
    taken = sign_up(Client(), "taken@example.org")
    assert (new.status_code, new["Location"]) == (taken.status_code, taken["Location"])
    page_new = Client().get(new["Location"]).content
    assert page_new == Client().get(taken["Location"]).content
    assert "already exists" not in page_new.decode()
    assert User.objects.count() == 1
    to_taken = next(m for m in mail.outbox if m.to == ["taken@example.org"])
    assert "already has one" in to_taken.body
    assert "/accounts/signup/" not in to_taken.body  # no way to set a password for it


def test_the_sign_up_link_refuses_a_weak_password_and_works_only_once(client):
    sign_up(client, "new@example.org")
    link = link_in(mail.outbox[0])
    weak = client.post(link, {"new_password1": "12345678", "new_password2": "12345678"})
    assert weak.status_code == 200
    assert not User.objects.exists()
    client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    again = Client().post(link, {"new_password1": "x" + PASSWORD, "new_password2": "x" + PASSWORD})
    assert "no longer valid" in again.content.decode()
    assert Client().login(username="new@example.org", password=PASSWORD)


def test_a_tampered_sign_up_link_creates_nothing(client):
    sign_up(client, "new@example.org")
    link = link_in(mail.outbox[0])
    response = client.post(
        link[:-3] + "abc/", {"new_password1": PASSWORD, "new_password2": PASSWORD}
    )
    assert "no longer valid" in response.content.decode()
    assert not User.objects.exists()


@override_settings(ADDRESS_RATE_LIMIT=3)
def test_sign_up_is_limited_per_network_address(client):
    for number in range(3):
        assert sign_up(client, f"new{number}@example.org").status_code == 302
    refused = sign_up(client, "new9@example.org")
    assert refused.status_code == 429
    assert len(mail.outbox) == 3


def test_log_in_and_log_out(client):
    make_user("me@example.org")
    response = client.post(reverse("login"), {"username": "me@example.org", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


def test_a_session_keeps_the_backend_path_sessions_stored_before_the_move(client):
    # The backend's code is in clubs/accounts/auth.py since issue 25; sessions signed in
    # before name clubs.auth, and Django signs out a session whose backend is not listed.
    make_user("me@example.org")
    client.post(reverse("login"), {"username": "me@example.org", "password": PASSWORD})
    assert client.session["_auth_user_backend"] == "clubs.auth.ThrottledModelBackend"
    assert client.get(reverse("club_create")).status_code == 200


def test_a_wrong_password_does_not_log_in(client):
    make_user("me@example.org")
    response = client.post(reverse("login"), {"username": "me@example.org", "password": "nope"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_reset_mails_a_link_that_sets_a_new_password(client):
    make_user("me@example.org")
    client.post(reverse("password_reset"), {"email": "me@example.org"})
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form_url = client.get(link, follow=True).redirect_chain[-1][0]
    new = "another-long-password-8"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    assert client.login(username="me@example.org", password=new)


def test_reset_for_an_unknown_address_sends_nothing_and_looks_the_same(client):
    response = client.post(reverse("password_reset"), {"email": "ghost@example.org"})
    assert response.status_code == 302
    assert mail.outbox == []


def test_twenty_reset_requests_for_one_address_send_only_a_few_mails(client):
    make_user("me@example.org")
    responses = [
        client.post(reverse("password_reset"), {"email": "me@example.org"}) for _ in range(20)
    ]
    assert {(r.status_code, r["Location"]) for r in responses} == {
        (302, reverse("password_reset_done"))
    }
    assert len(mail.outbox) == 3  # ACCOUNT_MAIL_LIMIT


@override_settings(ADDRESS_RATE_LIMIT=5)
def test_reset_requests_are_limited_per_network_address(client):
    for number in range(10):
        make_user(f"director{number}@example.org")
        response = client.post(
            reverse("password_reset"), {"email": f"director{number}@example.org"}
        )
        assert response.status_code == 302
    assert len(mail.outbox) == 5


@override_settings(ALLOWED_HOSTS=["*"], SITE_URL="https://clubs.example/")
def test_the_reset_link_comes_from_site_url_not_the_host_header(client):
    make_user("me@example.org")
    client.post(reverse("password_reset"), {"email": "me@example.org"}, HTTP_HOST="evil.example")
    (message,) = mail.outbox
    assert "evil.example" not in message.body + message.subject
    assert "https://clubs.example/accounts/reset/" in message.body


@override_settings(ALLOWED_HOSTS=["*"], SITE_URL="https://clubs.example")
def test_the_sign_up_links_come_from_site_url_not_the_host_header(client):
    make_user("taken@example.org")
    sign_up(client, "new@example.org", HTTP_HOST="evil.example")
    sign_up(client, "taken@example.org", HTTP_HOST="evil.example")
    bodies = "".join(message.body for message in mail.outbox)
    assert len(mail.outbox) == 2
    assert "evil.example" not in bodies
    assert bodies.count("https://clubs.example/accounts/") == 3


def test_a_signed_in_user_creates_a_club_and_owns_it(client):
    user = make_user("me@example.org")
    client.force_login(user)
    response = client.post(
        reverse("club_create"), {"name": "Knights", "slug": "knights", "language": "nl"}
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="knights")
    assert club.roles.get().user == user
    assert club.roles.get().role == ClubRole.Role.OWNER


def test_club_creation_needs_a_sign_in(client):
    response = client.post(reverse("club_create"), {"name": "Knights", "slug": "knights"})
    assert response.status_code == 302
    assert not Club.objects.exists()


@pytest.mark.parametrize(
    "visibility", [Club.Visibility.DIRECTOR, Club.Visibility.UNLISTED, Club.Visibility.PUBLIC]
)
def test_a_club_address_in_use_is_not_available_in_the_same_words_for_any_club(client, visibility):
    make_club(slug="hidden", visibility=visibility)
    client.force_login(make_user("me@example.org"))
    response = client.post(
        reverse("club_create"), {"name": "Knights", "slug": "hidden", "language": "nl"}
    )
    reserved = client.post(
        reverse("club_create"), {"name": "Knights", "slug": "admin", "language": "nl"}
    )
    assert response.status_code == reserved.status_code == 200
    message = "This address is not available; please choose another."
    assert message in response.content.decode()
    assert message in reserved.content.decode()
    assert "taken" not in response.content.decode()
    assert Club.objects.count() == 1


@override_settings(ADDRESS_RATE_LIMIT=3)
def test_club_creation_is_limited_per_network_address(client):
    client.force_login(make_user("me@example.org"))
    for number in range(3):
        client.post(reverse("club_create"), {"name": "K", "slug": f"k{number}", "language": "en"})
    refused = client.post(reverse("club_create"), {"name": "K", "slug": "k0", "language": "en"})
    assert refused.status_code == 429
    assert "Too many attempts from your network" in refused.content.decode()
    assert "not available" not in refused.content.decode()
    assert Club.objects.count() == 3


ACCOUNT_PAGES = [
    ("login", []),
    ("password_reset", []),
    ("password_reset_done", []),
    ("password_reset_confirm", ["MQ", "not-a-token"]),
    ("password_reset_complete", []),
    ("signup", []),
    ("signup_sent", []),
    ("signup_confirm", ["not-a-token"]),
    ("signin_link", ["not-a-token"]),
]


@pytest.mark.parametrize(("name", "args"), ACCOUNT_PAGES)
def test_every_account_page_is_drawn_from_the_accounts_room_in_the_sites_layout(client, name, args):
    # The templates live in clubs/accounts/, so each view names its own: Django's default
    # under registration/ would quietly find the admin's page of the same name instead.
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    names = [template.name for template in response.templates]
    assert names[0].startswith("clubs/accounts/")
    assert "base.html" in names


def test_the_password_reset_mail_is_the_sites_own_not_the_admins(client):
    make_user("me@example.org")
    client.post(reverse("password_reset"), {"email": "me@example.org"})
    (message,) = mail.outbox
    assert "Someone asked to reset the password of your Club pages account." in message.body
