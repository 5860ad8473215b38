"""The staff admin: new rating settings replay the ladder; impossible ones are refused."""

import pytest
from django.urls import reverse

from clubs.models import AuditEntry
from clubs.results import Result
from tests.factories import first_ladder, make_event, make_players, make_user, standing

pytestmark = pytest.mark.django_db


def admin_post(client, club, **changes):
    data = {
        "slug": club.slug,
        "name": club.name,
        "rating_policy": first_ladder(club).rating_policy,
        "rating_settings": "{}",
        "newcomer_start": club.newcomer_start,
        "visibility": club.visibility,
        "name_display": club.name_display,
        "language": club.language,
        "roles-TOTAL_FORMS": "0",
        "roles-INITIAL_FORMS": "0",
        **changes,
    }
    return client.post(reverse("admin:clubs_club_change", args=[club.pk]), data)


def test_changing_rating_settings_in_the_admin_replays_the_ladder(
    client, club, django_capture_on_commit_callbacks
):
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    client.force_login(make_user("staff@example.org", staff=True))
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_post(client, club, rating_settings='{"k_high": 60}')
    assert response.status_code == 302
    club.refresh_from_db()
    assert first_ladder(club).rating_settings["k_high"] == 60
    assert club.ladder_is_current and first_ladder(club).data_version == 1
    ann = standing(ann)
    assert ann.rating == pytest.approx(1230.0)
    assert AuditEntry.objects.filter(club=club, action="rating_settings.changed").exists()


def test_impossible_rating_settings_are_refused_in_the_admin(client, club):
    client.force_login(make_user("staff@example.org", staff=True))
    response = admin_post(client, club, rating_policy="hsb", rating_settings='{"bonus": 12}')
    assert response.status_code == 200
    assert "bonus" in response.content.decode()
    club.refresh_from_db()
    assert first_ladder(club).rating_policy == "ladder" and first_ladder(club).data_version == 0
    assert first_ladder(club.pk).rating_settings == {}


def test_a_starting_rating_changed_in_the_admin_replays_the_ladder(
    client, club, django_capture_on_commit_callbacks
):
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    client.force_login(make_user("staff@example.org", staff=True))
    # The estimate is per ladder: staff set it on the player's row of the club's first ladder.
    data = {"ladder": first_ladder(club).pk, "player": ann.pk, "start_rating": "1500",
            "start_games": "0"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("admin:ladder_ladderrating_add"), data)
    assert response.status_code == 302
    ann = standing(ann)
    club.refresh_from_db()
    assert club.ladder_is_current and first_ladder(club).data_version == 1
    assert ann.rating > 1500  # rated from the new start
