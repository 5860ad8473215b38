"""The one-time sign-in link a browser the account never used gets once the account is over
its failure limit: mailed from SITE_URL, hashed at rest, spent once, short-lived."""

import re
import threading

import pytest
from django.core import mail
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone

from clubs.accounts.auth import DEVICE_COOKIE
from clubs.models import SignInLink, User
from clubs.models.accounts import SIGN_IN_LINK_SECONDS
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

LINK_OFFERED = "needs a one-time link"
NO_LONGER_VALID = "This sign-in link is no longer valid"
LIMITS = {"LOGIN_FAILURE_LIMIT": 3, "LOGIN_ACCOUNT_FAILURE_LIMIT": 4, "ADDRESS_RATE_LIMIT": 100}


def sign_in(client, email, password=PASSWORD):
    return client.post(reverse("login"), {"username": email, "password": password})


def crowd_fails(email, addresses=4):
    """Wrong passwords from `addresses` addresses, one each: the account's whole allowance
    under LIMITS, so the next try from a new browser is over it."""
    for number in range(addresses):
        sign_in(Client(REMOTE_ADDR=f"203.0.113.{number + 1}"), email, "wrong-password")


def link_path(message):
    return re.search(r"https?://[^/\s]+(/accounts/login/link/\S+)", message.body).group(1)


def signed_in(client):
    return "_auth_user_id" in client.session


@pytest.fixture
def locked_owner(settings):
    for name, value in LIMITS.items():
        setattr(settings, name, value)
    owner = make_user("director@example.org")
    crowd_fails("director@example.org")
    return owner


def test_a_new_browser_of_a_locked_account_is_mailed_a_link_that_signs_it_in(locked_owner):
    new = Client(REMOTE_ADDR="198.51.100.1")
    refused = sign_in(new, "director@example.org")
    assert LINK_OFFERED in refused.content.decode()
    assert not signed_in(new)
    (message,) = mail.outbox
    assert message.to == ["director@example.org"]
    path = link_path(message)
    page = new.get(path)
    assert not signed_in(new)  # a mail scanner following the link spends nothing
    assert 'method="post"' in page.content.decode()
    response = new.post(path)
    assert response.status_code == 302
    assert new.session["_auth_user_id"] == str(locked_owner.pk)
    assert DEVICE_COOKIE in response.cookies


def test_a_browser_let_in_by_the_link_is_known_from_then_on(locked_owner):
    new = Client(REMOTE_ADDR="198.51.100.1")
    sign_in(new, "director@example.org")
    new.post(link_path(mail.outbox[0]))
    new.post(reverse("logout"))
    crowd_fails("director@example.org", addresses=20)
    assert LINK_OFFERED in sign_in(Client(), "director@example.org").content.decode()
    assert sign_in(new, "director@example.org").status_code == 302


def test_the_link_works_once_only(locked_owner):
    sign_in(Client(), "director@example.org")
    path = link_path(mail.outbox[0])
    assert Client().post(path).status_code == 302
    again = Client()
    assert NO_LONGER_VALID in again.get(path).content.decode()
    response = again.post(path)
    assert NO_LONGER_VALID in response.content.decode()
    assert not signed_in(again)


def test_an_expired_link_signs_nobody_in(locked_owner):
    sign_in(Client(), "director@example.org")
    path = link_path(mail.outbox[0])
    too_old = timezone.now() - timezone.timedelta(seconds=SIGN_IN_LINK_SECONDS + 1)
    SignInLink.objects.update(created_at=too_old)
    client = Client()
    response = client.post(path)
    assert response.status_code == 200
    assert NO_LONGER_VALID in response.content.decode()
    assert not signed_in(client)


@pytest.mark.parametrize(
    "forge",
    [
        lambda token: token[:-2] + ("AA" if not token.endswith("AA") else "BB"),  # verifier
        lambda token: "x" + token,  # selector
        lambda token: token.split(".")[0],  # no verifier at all
        lambda token: token.split(".")[0] + ".",
        lambda token: "not-a-token",
        lambda token: token.replace(".", "\x00."),
        lambda token: "\u202e" + token,
    ],
)
def test_a_forged_link_signs_nobody_in(locked_owner, forge):
    sign_in(Client(), "director@example.org")
    token = link_path(mail.outbox[0]).rstrip("/").rsplit("/", 1)[1]
    client = Client()
    forged = forge(token)
    response = client.post(reverse("signin_link", args=[forged]))
    if forged.isprintable():
        assert response.status_code == 200
        assert NO_LONGER_VALID in response.content.decode()
    else:
        # A path holding a NUL or a bidi mark never reaches a view (config.middleware).
        assert response.status_code == 404
    assert not signed_in(client)
    assert SignInLink.objects.get().used_at is None  # the real link still works
    assert Client().post(reverse("signin_link", args=[token])).status_code == 302


def test_the_link_is_stored_only_as_a_hash(locked_owner):
    sign_in(Client(), "director@example.org")
    token = link_path(mail.outbox[0]).rstrip("/").rsplit("/", 1)[1]
    selector, verifier = token.split(".")
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM clubs_signinlink")
        stored = repr(cursor.fetchall())
    assert verifier not in stored
    assert selector in stored  # the half that finds the row, and alone opens nothing


def test_a_link_of_a_deactivated_account_signs_nobody_in(locked_owner):
    sign_in(Client(), "director@example.org")
    User.objects.filter(pk=locked_owner.pk).update(is_active=False)
    client = Client()
    assert NO_LONGER_VALID in client.post(link_path(mail.outbox[0])).content.decode()
    assert not signed_in(client)


def test_link_mails_are_limited_per_account(locked_owner):
    for number in range(10):
        refused = sign_in(Client(REMOTE_ADDR=f"198.51.100.{number + 1}"), "director@example.org")
        assert LINK_OFFERED in refused.content.decode()
    assert len(mail.outbox) == 3  # ACCOUNT_MAIL_LIMIT


def test_an_address_without_an_account_reads_the_same_and_gets_no_mail(settings):
    for name, value in LIMITS.items():
        setattr(settings, name, value)
    crowd_fails("ghost@example.org")
    refused = sign_in(Client(REMOTE_ADDR="198.51.100.1"), "ghost@example.org")
    assert LINK_OFFERED in refused.content.decode()
    assert mail.outbox == []


@override_settings(ALLOWED_HOSTS=["*"], SITE_URL="https://clubs.example")
def test_the_link_comes_from_site_url_not_the_host_header(locked_owner):
    Client().post(
        reverse("login"),
        {"username": "director@example.org", "password": PASSWORD},
        HTTP_HOST="evil.example",
    )
    (message,) = mail.outbox
    assert "evil.example" not in message.body + message.subject
    assert "https://clubs.example/accounts/login/link/" in message.body


def test_a_known_browser_failing_its_own_count_waits_and_is_mailed_nothing(settings):
    for name, value in LIMITS.items():
        setattr(settings, name, value)
    make_user("director@example.org")
    own = Client()
    assert sign_in(own, "director@example.org").status_code == 302
    own.post(reverse("logout"))
    for _ in range(3):
        sign_in(own, "director@example.org", "wrong-password")
    response = sign_in(own, "director@example.org")
    assert "Too many failed sign-ins" in response.content.decode()
    assert not signed_in(own)
    assert mail.outbox == []


@pytest.mark.postgres
def test_one_link_followed_twice_at_once_signs_in_one_browser(transactional_db, settings):
    for name, value in LIMITS.items():
        setattr(settings, name, value)
    make_user("director@example.org")
    crowd_fails("director@example.org")
    sign_in(Client(), "director@example.org")
    path = link_path(mail.outbox[0])
    start = threading.Barrier(8)
    answers = []

    def follow():
        try:
            start.wait()
            answers.append(Client().post(path).status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=follow) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [200] * 7 + [302]
