import pytest
from django.db import IntegrityError, transaction

from clubs.models import Club, ClubRole, Entry, Game, Player
from ladder.results import Result
from tests.factories import make_club, make_event, make_players, make_user

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
        Club.objects.filter(pk=club.pk).update(built_version=club.data_version + 1)


def test_a_bye_has_no_opponent_and_a_game_has_one(club):
    ann, bob = make_players(club, ["Ann", "Bob"])
    event = make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    white, black = event.entries.all()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=2, white=white, black=None, result=Result.DRAW)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=2, white=white, black=black, result=Result.BYE_FULL)
    Game.objects.create(event=event, round=2, white=white, result=Result.BYE_HALF)


def test_nobody_plays_themselves_or_round_zero(club):
    (ann,) = make_players(club, ["Ann"])
    event = make_event(club)
    entry = Entry.objects.create(event=event, typed_name="Ann", player=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=1, white=entry, black=entry, result=Result.DRAW)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=0, white=entry, result=Result.BYE_FULL)


def test_a_player_cannot_be_merged_into_itself(club):
    (ann,) = make_players(club, ["Ann"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=ann.pk).update(merged_into=ann)


def test_a_starting_estimate_must_be_a_plausible_rating(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(club=club, name="X", start_rating=-5)


def test_player_records_hold_no_contact_or_birth_data():
    forbidden = {"birth", "dob", "address", "phone", "email", "mail"}
    names = {f.name.lower() for f in Player._meta.get_fields()}
    assert not {n for n in names if any(word in n for word in forbidden)}
