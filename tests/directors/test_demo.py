import pytest
from django.core.management import call_command

from clubs.models import Club
from ladder.models import LadderReplay
from ladder.replay import verify_ladder

pytestmark = pytest.mark.django_db


def test_the_demo_club_has_a_ladder_built_by_the_real_replay(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=None)
    club = Club.objects.get(slug="demo")
    assert club.ladder_is_current
    assert LadderReplay.objects.filter(club=club).exists()
    assert club.players.rated_on(club.first_ladder()).on_ladder().count() >= 20
    assert club.events.published().filter(kind="bughouse").exists()
    assert verify_ladder(club) == []


def test_loading_the_demo_twice_changes_nothing(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
        call_command("load_demo")
    assert Club.objects.filter(slug="demo").count() == 1


def test_the_demo_ladder_page_is_public(client, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
    response = client.get("/c/demo/")
    assert response.status_code == 200
    assert "Demo Chess Club" in response.content.decode()
    assert "X-Robots-Tag" not in response
