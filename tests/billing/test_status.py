"""The one question the rest of the app asks: is the club's page active?"""

import pytest

from billing.models import Subscription
from billing.status import current_subscription, page_is_active
from tests.factories import make_club, new_player

pytestmark = pytest.mark.django_db


def subscribe(club, subscription_id="sub_1", **fields):
    return Subscription.objects.create(
        club=club, stripe_subscription_id=subscription_id, **{"status": "active", **fields}
    )


def test_with_billing_off_every_club_is_active(club, billing_off):
    assert page_is_active(club)
    subscribe(club, status="canceled", ended=True)
    assert page_is_active(club)


@pytest.mark.usefixtures("billing_on")
@pytest.mark.parametrize(
    ("status", "ended", "active"),
    [
        ("active", False, True),
        ("trialing", False, True),
        ("past_due", False, False),
        ("unpaid", False, False),
        ("incomplete", False, False),
        ("paused", False, False),
        ("canceled", True, False),
        ("active", True, False),
    ],
)
def test_with_billing_on_only_a_live_subscription_makes_the_page_active(
    club, status, ended, active
):
    subscribe(club, status=status, ended=ended)
    assert page_is_active(club) is active


@pytest.mark.usefixtures("billing_on")
def test_with_billing_on_a_club_without_a_subscription_is_inactive(club):
    assert not page_is_active(club)


@pytest.mark.usefixtures("billing_on")
def test_another_clubs_subscription_does_not_count(club):
    subscribe(make_club(slug="bishops"))
    assert not page_is_active(club)


@pytest.mark.usefixtures("billing_on")
def test_the_owner_is_shown_the_live_subscription_before_a_newer_ended_one(club):
    live = subscribe(club, "sub_live")
    subscribe(club, "sub_newer", status="canceled", ended=True)
    assert current_subscription(club) == live


@pytest.mark.django_db
def test_visitors_see_an_inactive_club_page_and_directors_still_see_the_ladder(
    client, billing_on, club, director
):

    new_player(club=club, name="Canary Player", rating=1300, rated_games=7, provisional=False)
    url = f"/c/{club.slug}/s/{club.secret}/"
    visitor_page = client.get(url).content.decode()
    assert "not active" in visitor_page
    assert "Canary Player" not in visitor_page
    client.force_login(director)
    director_page = client.get(url).content.decode()
    assert "Canary Player" in director_page
    assert "Subscribe" in director_page


@pytest.mark.django_db
def test_without_stripe_keys_every_club_page_is_served(client, billing_off, club):

    new_player(club=club, name="Canary Player", rating=1300, rated_games=7, provisional=False)
    page = client.get(f"/c/{club.slug}/s/{club.secret}/").content.decode()
    assert "Canary Player" in page
