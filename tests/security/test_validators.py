"""A page's ETag tells only what that page shows: no activity elsewhere in the club moves
it, and `If-None-Match: *` does not confirm a page that does not exist."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Event
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from ladder.changes import OnPages, club_changed
from tests.directors.night.test_night_views import tap
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def knights(owner, director):
    """A public club with one published event and a club night being played."""
    club = make_club(
        slug="knights", owner=owner, directors=[director], visibility=Club.Visibility.PUBLIC
    )
    ann, bob, cid, dan = make_players(club, ["Ann Archer", "Bob Baker", "Cid Carter", "Dan Dale"])
    spring = make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Spring Open")
    tonight = evening.start_event(
        club,
        name="Tuesday night",
        date=dt.date(2026, 3, 3),
        system="swiss",
        rounds=3,
        players=[ann, bob, cid, dan],
        user=None,
    )
    night_rounds.pair_next_round(tonight.pk, None)
    return Club.objects.get(pk=club.pk), spring, tonight


def event_url(club: Club, event_id: int, suffix: str = "") -> str:
    return reverse("club_event", args=[club.slug, event_id]) + suffix


@pytest.mark.parametrize("suffix", ["", "results.trf", "results.csv"])
def test_a_result_entered_on_a_club_night_leaves_another_events_etag_as_it_was(
    client, knights, director, suffix
):
    club, spring, tonight = knights
    before = Client().get(event_url(club, spring.pk, suffix))
    assert before.status_code == 200
    client.force_login(director)
    entered = client.post(
        reverse("night_result", args=[club.slug, tonight.pk, 1, 1]),
        tap(Result.WHITE_WIN.value, tonight, 1, 1),  # the pair and pairing version shown
    )
    assert entered.status_code == 302
    assert Club.objects.get(pk=club.pk).pages_version > club.pages_version  # the key moved
    after = Client().get(event_url(club, spring.pk, suffix))
    assert after.content == before.content and after["ETag"] == before["ETag"]
    revalidated = Client().get(
        event_url(club, spring.pk, suffix), HTTP_IF_NONE_MATCH=before["ETag"]
    )
    assert revalidated.status_code == 304


def test_the_same_page_keeps_its_etag_across_every_club_wide_version(knights):
    club, spring, _tonight = knights
    tags = set()
    for _ in range(3):
        with transaction.atomic():
            club_changed(club.pk, OnPages())
        tags.add(Client().get(event_url(club, spring.pk))["ETag"])
    assert len(tags) == 1


def test_the_etag_is_the_pages_own_not_one_shared_by_the_clubs_pages(knights):
    club, spring, _tonight = knights
    paths = [event_url(club, spring.pk), reverse("club_page", args=[club.slug])]
    assert len({Client().get(path)["ETag"] for path in paths}) == 2


def test_if_none_match_star_on_a_deleted_event_is_a_404(knights):
    club, spring, _tonight = knights
    path = event_url(club, spring.pk)
    assert Client().get(path, HTTP_IF_NONE_MATCH="*").status_code == 304  # it exists
    # Deleted without the replay that would move the key: a kept copy must not answer.
    Event.objects.filter(pk=spring.pk).update(deleted_at=dt.datetime(2026, 3, 4, tzinfo=dt.UTC))
    assert Client().get(path, HTTP_IF_NONE_MATCH="*").status_code == 404


@pytest.mark.parametrize("suffix", ["", "results.trf", "results.csv"])
def test_if_none_match_star_on_an_event_that_never_existed_is_a_404(knights, suffix):
    club, _spring, _tonight = knights
    missing = Event.objects.order_by("-pk").first().pk + 100
    response = Client().get(event_url(club, missing, suffix), HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404


def test_if_none_match_star_on_a_player_who_never_existed_is_a_404(knights):
    club, _spring, _tonight = knights
    path = reverse("club_player", args=[club.slug, 999_999])
    assert Client().get(path, HTTP_IF_NONE_MATCH="*").status_code == 404
