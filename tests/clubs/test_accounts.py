import re

import pytest
from django.core import mail
from django.urls import reverse

from clubs.models import Club, ClubRole, User
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


def test_signing_up_creates_an_account_and_signs_in(client):
    response = client.post(
        reverse("signup"),
        {"email": "New@Example.org", "name": "New", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    user = User.objects.get(email="new@example.org")
    assert client.session["_auth_user_id"] == str(user.pk)


def test_sign_up_refuses_a_weak_password_and_a_taken_address(client):
    make_user("taken@example.org")
    response = client.post(
        reverse("signup"),
        {"email": "taken@example.org", "password1": "12345678", "password2": "12345678"},
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert User.objects.count() == 1


def test_log_in_and_log_out(client):
    make_user("me@example.org")
    response = client.post(reverse("login"), {"username": "me@example.org", "password": PASSWORD})
    assert response.status_code == 302
    assert "_auth_user_id" in client.session
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session


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
