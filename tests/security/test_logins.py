"""Password hashing and sign-in throttling."""

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.test import override_settings
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
    assert "Too many failed sign-ins" in response.content.decode()


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
    LoginThrottle.objects.update(locked_until=timezone.now() - timezone.timedelta(seconds=1))
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
