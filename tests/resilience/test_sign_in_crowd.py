"""Sign-in under a crowd, with the limits as shipped: many addresses failing on one account
never lock its owner out, and one busy address of people who know their passwords is never
blocked."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from clubs.models import Club
from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db

OWNER = "director@example.org"
CROWD = 60
SCHOOL = "192.0.2.50"


def sign_in(client, email, password=PASSWORD):
    return client.post(reverse("login"), {"username": email, "password": password})


def from_address(address):
    return Client(REMOTE_ADDR=address)


def ipv6_crowd(size=CROWD):
    """One browser in each of `size` IPv6 /64s: what one rented server can hand out."""
    return [from_address(f"2001:db8:{number:x}::1") for number in range(size)]


def crowd_fails(email, tries_each=2):
    for stranger in ipv6_crowd():
        for _ in range(tries_each):
            sign_in(stranger, email, "wrong-password")


def signed_in(client):
    return "_auth_user_id" in client.session


def owner_with_a_known_browser():
    make_user(OWNER)
    own = from_address("198.51.100.10")
    assert sign_in(own, OWNER).status_code == 302
    own.post(reverse("logout"))
    return own


def test_the_limits_as_shipped_let_a_crowd_of_sixty_pass_the_account_limit():
    assert CROWD * 2 > settings.LOGIN_ACCOUNT_FAILURE_LIMIT


def test_a_crowd_of_sixty_addresses_failing_never_locks_the_owners_known_browser():
    own = owner_with_a_known_browser()
    crowd_fails(OWNER)
    assert sign_in(own, OWNER).status_code == 302
    assert signed_in(own)


def test_after_a_crowd_a_new_browser_of_the_owner_signs_in_by_the_mailed_link_once():
    make_user(OWNER)
    crowd_fails(OWNER)
    new = from_address("198.51.100.11")
    refused = sign_in(new, OWNER)
    assert "needs a one-time link" in refused.content.decode()
    assert not signed_in(new)
    # The crowd's own tries over the limit spent the account's mail allowance, which is
    # why any mailed link signs in whichever browser follows it: the newest one is fresh.
    assert 1 <= len(mail.outbox) <= settings.ACCOUNT_MAIL_LIMIT
    path = re.search(r"https?://[^/\s]+(/\S+)", mail.outbox[-1].body).group(1)
    assert new.post(path).status_code == 302
    assert signed_in(new)
    new.post(reverse("logout"))
    assert sign_in(new, OWNER).status_code == 302  # known now, despite the crowd
    late = from_address("198.51.100.12")
    assert "no longer valid" in late.post(path).content.decode()
    assert not signed_in(late)


def test_twenty_pupils_signing_in_from_one_school_address_block_nobody():
    pupils = [make_user(f"pupil{number}@school.example") for number in range(21)]
    for pupil in pupils[: settings.ADDRESS_RATE_LIMIT]:
        browser = from_address(SCHOOL)
        assert sign_in(browser, pupil.email).status_code == 302
        browser.post(reverse("logout"))
    latecomer = from_address(SCHOOL)
    assert sign_in(latecomer, pupils[20].email).status_code == 302
    assert signed_in(latecomer)


def test_one_pupil_signing_in_again_and_again_is_never_blocked():
    make_user("pupil@school.example")
    for _ in range(settings.ADDRESS_RATE_LIMIT + 5):
        browser = from_address(SCHOOL)  # a shared computer that keeps no cookie
        assert sign_in(browser, "pupil@school.example").status_code == 302


def test_failures_from_one_address_are_still_limited():
    accounts = [make_user(f"director{number}@example.org") for number in range(25)]
    attacker = from_address(SCHOOL)
    for account in accounts[: settings.ADDRESS_RATE_LIMIT]:
        sign_in(attacker, account.email, "wrong-password")
    refused = sign_in(from_address(SCHOOL), accounts[24].email)
    assert "Too many attempts from your network" in refused.content.decode()
    assert sign_in(from_address("198.51.100.20"), accounts[24].email).status_code == 302


def test_a_known_browser_behind_a_blocked_school_address_still_signs_in():
    make_user("teacher@school.example")
    own = from_address(SCHOOL)
    assert sign_in(own, "teacher@school.example").status_code == 302
    own.post(reverse("logout"))
    others = [make_user(f"pupil{number}@school.example") for number in range(25)]
    for pupil in others:
        sign_in(from_address(SCHOOL), pupil.email, "wrong-password")
    assert "Too many attempts" in sign_in(from_address(SCHOOL), others[0].email).content.decode()
    assert sign_in(own, "teacher@school.example").status_code == 302


def test_sign_ins_leave_the_other_address_limits_as_they_were():
    """Sign-up and club creation still count every request from an address, apart from
    sign-ins: a school's sign-ins do not use up its sign-ups, nor the reverse."""
    for number in range(settings.ADDRESS_RATE_LIMIT):
        make_user(f"pupil{number}@school.example")
        assert sign_in(from_address(SCHOOL), f"pupil{number}@school.example").status_code == 302
    for number in range(settings.ADDRESS_RATE_LIMIT):
        signup = {"email": f"new{number}@school.example", "name": "New"}
        assert from_address(SCHOOL).post(reverse("signup"), signup).status_code == 302
    one_more = {"email": "extra@school.example", "name": "X"}
    refused = from_address(SCHOOL).post(reverse("signup"), one_more)
    assert refused.status_code == 429
    teacher = make_user("teacher@school.example")
    creator = from_address(SCHOOL)
    creator.force_login(teacher)
    for number in range(settings.ADDRESS_RATE_LIMIT):
        new_club = {"name": "K", "slug": f"k{number}", "language": "en"}
        creator.post(reverse("club_create"), new_club)
    assert Club.objects.count() == settings.ADDRESS_RATE_LIMIT
    over = creator.post(reverse("club_create"), {"name": "K", "slug": "k99", "language": "en"})
    assert over.status_code == 429
    assert sign_in(from_address(SCHOOL), "pupil0@school.example").status_code == 302
