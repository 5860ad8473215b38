"""clubs.models.club: users sign in by e-mail, clubs keep their secret, roles and versions."""

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, ClubRole, Ladder
from tests.factories import first_ladder, make_club, make_user

pytestmark = pytest.mark.django_db


def test_users_sign_in_with_email_and_have_no_username():
    user = make_user("Someone@Example.org")
    assert user.email == "someone@example.org"
    assert not hasattr(user, "username")


def test_a_new_club_is_unlisted_with_a_long_random_secret(club):
    assert club.visibility == Club.Visibility.UNLISTED
    assert len(club.secret) >= 22  # 128 bits in URL-safe base64
    other = make_club(slug="other")
    assert other.secret != club.secret


def test_rotating_the_secret_changes_it(club):
    old = club.secret
    club.rotate_secret()
    club.refresh_from_db()
    assert club.secret != old


def test_a_club_has_at_most_one_owner(club, director):
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubRole.objects.filter(club=club, user=director).update(role=ClubRole.Role.OWNER)


def test_a_user_has_one_role_per_club(club, director):
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.DIRECTOR)


def test_a_user_may_direct_several_clubs(director):
    make_club(slug="a", directors=[director])
    make_club(slug="b", directors=[director])
    assert Club.objects.directed_by(director).count() == 2


def test_built_version_can_never_run_ahead_of_data_version(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Ladder.objects.filter(club_id=club.pk).update(
            built_version=first_ladder(club).data_version + 1
        )
