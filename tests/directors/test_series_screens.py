"""The directors' Grand Prix series screens (issue 38): a series made, changed and deleted
through the form; every refusal shown on the form with nothing stored; another club's
director and a forged event id get nowhere."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from clubs.models import AuditEntry, Club, Series
from clubs.results import Result
from tests.factories import make_club, make_event, make_players
from tests.security.routes import database_checksum

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


@pytest.fixture
def world(club):
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    first = make_event(club, [(1, ann, bob, Result.WHITE_WIN)], date=dt.date(2025, 10, 4))
    second = make_event(club, [(1, bob, ann, Result.DRAW)], date=dt.date(2025, 11, 1))
    draft = make_event(club, [(1, ann, bob, Result.DRAW)], name="Draft", published=False)
    return {"club": club, "events": (first, second), "draft": draft}


def form(**changes):
    data = {
        "name": "Rapid Grand Prix",
        "slug": "rapid-gp",
        "scoring": "places",
        "points": "10, 8, 6",
        "best": "",
        "ties": "share",
        "min_events": "0",
        "rating_bands": "",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def new_url(club):
    return reverse("series_new", args=[club.slug])


def test_a_director_creates_a_series_of_chosen_events(client, director, world):
    club = world["club"]
    first, second = world["events"]
    client.force_login(director)
    assert client.get(new_url(club)).status_code == 200
    response = client.post(
        new_url(club), form(events=[first.pk, second.pk], best="1", members_only="on")
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("series_list", args=[club.slug])
    series = Series.objects.get(club=club)
    assert (series.slug, series.name, series.points, series.best) == (
        "rapid-gp", "Rapid Grand Prix", [10, 8, 6], 1,
    )  # fmt: skip
    assert series.members_only and series.kinds == []
    assert set(series.events.values_list("pk", flat=True)) == {first.pk, second.pk}
    listed = client.get(reverse("series_list", args=[club.slug])).content.decode()
    assert "Rapid Grand Prix" in listed
    assert reverse("club_series", args=[club.slug, "rapid-gp"]) in listed
    assert AuditEntry.objects.filter(club=club, action="series.created").exists()


def test_the_form_offers_only_the_clubs_published_events(client, director, world, owner):
    club = world["club"]
    other = make_club(slug="bishops", owner=owner)
    cid, dan = make_players(other, ["Cid Carter", "Dan Dale"])
    theirs = make_event(other, [(1, cid, dan, Result.WHITE_WIN)], name="Their Open")
    client.force_login(director)
    body = client.get(new_url(club)).content.decode()
    for event in world["events"]:
        assert f'value="{event.pk}"' in body
    assert "Draft" not in body and "Their Open" not in body
    assert f'name="events" value="{theirs.pk}"' not in body


def test_a_series_by_kinds_and_dates_with_game_points_and_groups(client, director, world):
    club = world["club"]
    client.force_login(director)
    response = client.post(
        new_url(club),
        form(kinds=["standard"], date_from="2025-09-01", date_to="2026-08-31", scoring="game",
             points="", rating_bands="1200, 1600", ties="higher", min_events="2"),
    )  # fmt: skip
    assert response.status_code == 302
    series = Series.objects.get(club=club)
    assert series.points == [] and series.kinds == ["standard"]
    assert (series.date_from, series.date_to) == (dt.date(2025, 9, 1), dt.date(2026, 8, 31))
    assert (series.rating_bands, series.ties, series.min_events) == ([1200, 1600], "higher", 2)


def test_a_series_ranks_each_section_apart_when_the_director_says_so(client, director, world):
    club = world["club"]
    first, second = world["events"]
    client.force_login(director)
    response = client.post(new_url(club), form(events=[first.pk, second.pk], by_section="on"))
    assert response.status_code == 302
    series = Series.objects.get(club=club)
    assert series.by_section and series.rating_bands == []
    page = client.get(reverse("series_edit", args=[club.slug, series.slug])).content.decode()
    assert re.search(r'name="by_section"[^>]*checked', page)


def test_a_whole_season_stands_for_its_first_and_last_day(client, director, world):
    club = world["club"]  # seasons from September: the events are in 2025-26
    client.force_login(director)
    offered = client.get(new_url(club)).content.decode()
    assert '<option value="2025-26">2025-26</option>' in offered
    response = client.post(new_url(club), form(kinds=["standard"], season="2025-26"))
    assert response.status_code == 302
    series = Series.objects.get(club=club)
    assert (series.date_from, series.date_to) == (dt.date(2025, 9, 1), dt.date(2026, 8, 31))


def test_a_season_and_dates_together_are_refused(client, director, world):
    club = world["club"]
    client.force_login(director)
    response = client.post(
        new_url(club),
        form(kinds=["standard"], season="2025-26", date_from="2025-10-01", date_to="2025-12-31"),
    )
    assert response.status_code == 400
    assert "Give a season or the first and last day, not both." in response.content.decode()
    unknown = client.post(new_url(club), form(kinds=["standard"], season="1999-00"))
    assert unknown.status_code == 400  # not a season the form offers
    assert not Series.objects.filter(club=club).exists()


def test_a_director_edits_a_series_and_its_form_shows_what_is_stored(client, director, world):
    club = world["club"]
    first, second = world["events"]
    client.force_login(director)
    client.post(new_url(club), form(events=[first.pk]))
    edit = reverse("series_edit", args=[club.slug, "rapid-gp"])
    shown = client.get(edit).content.decode()
    assert 'value="10, 8, 6"' in shown and 'value="Rapid Grand Prix"' in shown
    response = client.post(edit, form(name="Winter GP", events=[first.pk, second.pk], best="1"))
    assert response.status_code == 302
    series = Series.objects.get(club=club)
    assert (series.name, series.best, series.events.count()) == ("Winter GP", 1, 2)
    assert Series.objects.count() == 1


def test_a_director_deletes_a_series_and_its_events_stay(client, director, world):
    club = world["club"]
    client.force_login(director)
    client.post(new_url(club), form(events=[world["events"][0].pk]))
    delete = reverse("series_delete", args=[club.slug, "rapid-gp"])
    assert client.get(delete).status_code == 405
    assert client.post(delete).status_code == 302
    assert not Series.objects.filter(club=club).exists()
    assert club.events.count() == 3
    assert client.get(reverse("club_series", args=[club.slug, "rapid-gp"])).status_code == 404


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"best": "3"}, None),  # best 3 of 2 events
        ({"points": ""}, None),  # by place with an empty list
        ({"kinds": ["standard"], "date_from": "2025-09-01", "date_to": "2026-08-31"}, None),
        ({"points": "10, eight"}, "points"),
        ({"rating_bands": "1600, 1200"}, None),
        ({"rating_bands": "12OO"}, "rating_bands"),
        ({"rating_bands": "1600", "by_section": "on"}, None),  # by rating or by section
        ({"slug": "Not A Slug"}, "slug"),
        ({"name": ""}, "name"),
        ({"best": "0"}, "best"),
    ],
)
def test_a_refused_series_is_shown_on_the_form_and_stores_nothing(
    client, director, world, changes, field
):
    club = world["club"]
    first, second = world["events"]
    client.force_login(director)
    before = database_checksum()
    response = client.post(new_url(club), form(events=[first.pk, second.pk], **changes))
    assert response.status_code == 400
    errors = response.context["form"].errors
    assert (field or "__all__") in errors, errors
    assert 'class="errorlist' in response.content.decode()
    assert database_checksum() == before


def test_a_taken_short_name_is_refused(client, director, world):
    club = world["club"]
    client.force_login(director)
    client.post(new_url(club), form(events=[world["events"][0].pk]))
    response = client.post(new_url(club), form(events=[world["events"][1].pk], name="Another"))
    assert response.status_code == 400
    assert Series.objects.filter(club=club).count() == 1


def test_a_forged_event_id_of_another_club_is_refused(client, director, world, owner):
    club = world["club"]
    other = make_club(slug="bishops", owner=owner)
    cid, dan = make_players(other, ["Cid Carter", "Dan Dale"])
    theirs = make_event(other, [(1, cid, dan, Result.WHITE_WIN)])
    client.force_login(director)
    before = database_checksum()
    for forged in ([world["events"][0].pk, theirs.pk], [world["draft"].pk]):
        response = client.post(new_url(club), form(events=forged))
        assert response.status_code == 400
        assert "events" in response.context["form"].errors
    assert database_checksum() == before


def test_another_clubs_director_gets_404_and_changes_nothing(client, director, world, outsider):
    club = world["club"]
    client.force_login(director)
    client.post(new_url(club), form(events=[world["events"][0].pk]))
    client.force_login(outsider)
    before = database_checksum()
    urls = [
        ("get", reverse("series_list", args=[club.slug])),
        ("get", new_url(club)),
        ("post", new_url(club)),
        ("get", reverse("series_edit", args=[club.slug, "rapid-gp"])),
        ("post", reverse("series_edit", args=[club.slug, "rapid-gp"])),
        ("post", reverse("series_delete", args=[club.slug, "rapid-gp"])),
    ]
    for method, url in urls:
        response = getattr(client, method)(url, form(events=[world["events"][0].pk]))
        assert response.status_code == 404, (method, url)
    # Under the outsider's own club, the series' slug names nothing.
    theirs = Club.objects.get(slug="elsewhere")
    assert client.get(reverse("series_edit", args=[theirs.slug, "rapid-gp"])).status_code == 404
    assert client.post(reverse("series_delete", args=[theirs.slug, "rapid-gp"])).status_code == 404
    assert database_checksum() == before


def test_the_manage_page_links_the_series_screen(client, director, world):
    club = world["club"]
    client.force_login(director)
    body = client.get(reverse("club_manage", args=[club.slug])).content.decode()
    assert reverse("series_list", args=[club.slug]) in body
