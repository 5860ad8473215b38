"""Password hashing and sign-in throttling."""

import threading
import time

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import LoginThrottle, User
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

REAL_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


def fail_login(client, email, url=None, times=1):
    for _ in range(times):
        client.post(url or reverse("login"), {"username": email, "password": "wrong-password"})


@override_settings(PASSWORD_HASHERS=REAL_HASHERS)
def test_new_passwords_are_hashed_with_argon2():
    user = make_user("me@example.org")
    assert user.password.startswith("argon2$")


@override_settings(PASSWORD_HASHERS=REAL_HASHERS)
def test_an_older_hash_is_upgraded_to_argon2_at_sign_in(client):
    user = make_user("me@example.org")
    User.objects.filter(pk=user.pk).update(password=make_password(PASSWORD, hasher="pbkdf2_sha256"))
    assert client.login(username="me@example.org", password=PASSWORD)
    user.refresh_from_db()
    assert user.password.startswith("argon2$")


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_repeated_failures_lock_the_account_even_with_the_right_password(client):
    make_user("me@example.org")
    fail_login(client, "me@example.org", times=3)
    response = client.post(reverse("login"), {"username": "me@example.org", "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert "needs a one-time link" in response.content.decode()


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_a_locked_account_does_not_lock_others_behind_the_same_address(client):
    make_user("pupil1@school.example")
    make_user("pupil2@school.example")
    fail_login(client, "pupil1@school.example", times=5)
    response = client.post(
        reverse("login"), {"username": "pupil2@school.example", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert "_auth_user_id" in client.session


@override_settings(LOGIN_FAILURE_LIMIT=3, LOGIN_LOCKOUT_SECONDS=900)
def test_the_lock_ends_after_the_cool_off(client):
    from django.utils import timezone

    make_user("me@example.org")
    fail_login(client, "me@example.org", times=3)
    LoginThrottle.objects.update(window_start=timezone.now() - timezone.timedelta(seconds=901))
    response = client.post(reverse("login"), {"username": "me@example.org", "password": PASSWORD})
    assert response.status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_the_staff_admin_login_is_throttled_too(client):
    make_user("staff@example.org", staff=True)
    admin_login = "/staff-admin/login/"
    fail_login(client, "staff@example.org", url=admin_login, times=3)
    client.post(admin_login, {"username": "staff@example.org", "password": PASSWORD})
    assert "_auth_user_id" not in client.session


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_throttling_stores_no_address_or_password_in_plain_text(client):
    make_user("me@example.org")
    fail_login(client, "me@example.org", times=2)
    with connection.cursor() as cursor:
        cursor.execute("SELECT * FROM clubs_loginthrottle")
        stored = repr(cursor.fetchall())
    assert "me@example.org" not in stored
    assert "wrong-password" not in stored
    assert "127.0.0.1" not in stored


def sign_in(client, email, password=PASSWORD, **headers):
    return client.post(reverse("login"), {"username": email, "password": password}, **headers)


def browser(address):
    """A browser of its own, connecting from `address`."""
    return Client(REMOTE_ADDR=address)


@override_settings(ADDRESS_RATE_LIMIT=10)
def test_one_address_trying_many_accounts_is_slowed(client):
    for number in range(29):
        make_user(f"director{number}@example.org")
    for number in range(10):
        fail_login(client, f"director{number}@example.org")
    response = sign_in(client, "director28@example.org")
    assert "_auth_user_id" not in client.session
    assert "Too many attempts from your network" in response.content.decode()
    assert sign_in(browser("198.51.100.7"), "director28@example.org").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_a_stranger_cannot_lock_the_owner_out_of_their_own_browser():
    make_user("director@example.org")
    own = browser("192.0.2.10")
    assert sign_in(own, "director@example.org").status_code == 302
    own.post(reverse("logout"))
    stranger = browser("203.0.113.9")
    fail_login(stranger, "director@example.org", times=10)
    assert "needs a one-time link" in sign_in(stranger, "director@example.org").content.decode()
    assert sign_in(own, "director@example.org").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_a_strangers_failures_elsewhere_do_not_lock_a_new_browser_of_the_owner():
    make_user("director@example.org")
    fail_login(browser("203.0.113.9"), "director@example.org", times=10)
    assert sign_in(browser("192.0.2.10"), "director@example.org").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3)
def test_the_owner_sharing_the_strangers_address_still_signs_in_from_their_own_browser():
    make_user("director@example.org")
    own = browser("192.0.2.10")
    assert sign_in(own, "director@example.org").status_code == 302
    own.post(reverse("logout"))
    fail_login(browser("192.0.2.10"), "director@example.org", times=10)
    assert sign_in(own, "director@example.org").status_code == 302


@override_settings(LOGIN_FAILURE_LIMIT=3, LOGIN_ACCOUNT_FAILURE_LIMIT=5, ADDRESS_RATE_LIMIT=100)
def test_tries_spread_over_many_addresses_meet_a_slower_account_wide_limit():
    make_user("director@example.org")
    own = browser("192.0.2.10")
    assert sign_in(own, "director@example.org").status_code == 302
    own.post(reverse("logout"))
    for number in range(8):
        fail_login(browser(f"203.0.113.{number}"), "director@example.org")
    # A browser the account never used is held back, even with the right password...
    assert sign_in(browser("198.51.100.1"), "director@example.org").status_code == 200
    # ...but the owner's own browser is not.
    assert sign_in(own, "director@example.org").status_code == 302


@override_settings(ADDRESS_RATE_LIMIT=3)
def test_a_forged_forwarded_for_header_does_not_buy_fresh_tries(client):
    make_user("director@example.org")
    for number in range(3):
        fail_login_from(client, "director@example.org", HTTP_X_FORWARDED_FOR=f"10.9.9.{number}")
    response = sign_in(client, "director@example.org", HTTP_X_FORWARDED_FOR="10.9.9.99")
    assert "Too many attempts from your network" in response.content.decode()


@override_settings(ADDRESS_RATE_LIMIT=3, BEHIND_TLS_PROXY=True)
def test_behind_the_proxy_the_address_it_saw_counts_not_what_the_client_sent():
    make_user("director@example.org")
    proxy = browser("172.18.0.2")
    for number in range(3):
        forwarded = f"10.9.9.{number}, 198.51.100.20"
        fail_login_from(proxy, "director@example.org", HTTP_X_FORWARDED_FOR=forwarded)
    refused = sign_in(proxy, "director@example.org", HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.20")
    assert "Too many attempts from your network" in refused.content.decode()
    other = sign_in(proxy, "director@example.org", HTTP_X_FORWARDED_FOR="198.51.100.21")
    assert other.status_code == 302


def fail_login_from(client, email, **headers):
    client.post(reverse("login"), {"username": email, "password": "wrong-password"}, **headers)


@pytest.mark.postgres
@override_settings(LOGIN_FAILURE_LIMIT=5, ADDRESS_RATE_LIMIT=1000)
def test_thirty_parallel_tries_check_no_more_passwords_than_the_limit(
    transactional_db, monkeypatch
):
    from django.contrib.auth.backends import ModelBackend

    make_user("director@example.org")
    checked = []
    original = ModelBackend.authenticate

    def counting(self, request, username=None, password=None, **kwargs):
        checked.append(password)
        time.sleep(0.05)  # hold each check open so the tries overlap
        return original(self, request, username=username, password=password, **kwargs)

    monkeypatch.setattr(ModelBackend, "authenticate", counting)
    start = threading.Barrier(30)

    def attempt(number):
        try:
            start.wait()
            fail_login_from(Client(REMOTE_ADDR="203.0.113.9"), "director@example.org")
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(checked) == 5
