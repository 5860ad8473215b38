"""Each ladder of a club with two on a date (`?on=YYYY-MM-DD`): its page and its ladder
downloads show that ladder as it stood then, read apart from the other ladder's."""

import csv
import datetime as dt
import io
import json

import pytest

from clubs.models import Club
from ladder.models import PlayerEventResult
from ladder.page_texts import half_up
from tests.factories import make_club
from tests.members.pages.test_ladder_pages import ladder_of, ladder_rows, two_ladders, url

pytestmark = pytest.mark.django_db

# Before every event, after the first standard one, after the first blitz night, between
# the second standard and second blitz nights, and after them all (two_ladders' dates).
DAYS = [
    dt.date(2026, 1, 5),
    dt.date(2026, 1, 15),
    dt.date(2026, 1, 25),
    dt.date(2026, 2, 15),
    dt.date(2026, 3, 1),
]
PREFIXES = {"main": "", "blitz": "ladders/blitz/"}


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


def stood(club: Club, slug: str, day: dt.date) -> dict[int, int]:
    """{player: whole rating} after each player's last stored result on the ladder dated
    `day` or before: the ladder at the end of that day, from the stored rows alone."""
    results = PlayerEventResult.objects.filter(
        ladder=ladder_of(club, slug), event_date__lte=day
    ).order_by("event_date", "position")
    return {r.player_id: half_up(r.post_rating) for r in results}


@pytest.mark.parametrize("slug", PREFIXES)
def test_each_ladders_page_on_a_date_shows_that_ladder_as_it_stood(client, public, slug):
    two_ladders(public)
    for day in DAYS:
        response = client.get(url(public, PREFIXES[slug]), {"on": day.isoformat()})
        assert response.status_code == 200, day
        html = response.content.decode()
        shown = dict(ladder_rows(html)) if '<table class="ladder">' in html else {}
        assert shown == stood(public, slug, day), day
    # The two ladders stood apart on a day both had played by: the test can tell them apart.
    assert stood(public, "main", DAYS[2]) != stood(public, "blitz", DAYS[2])


@pytest.mark.parametrize("slug", PREFIXES)
def test_each_ladders_downloads_on_a_date_hold_that_ladders_numbers_then(client, public, slug):
    two_ladders(public)
    for day in DAYS[1:]:
        expected = sorted(stood(public, slug, day).values())
        query = {"on": day.isoformat()}
        data = json.loads(client.get(url(public, PREFIXES[slug] + "ladder.json"), query).content)
        assert (data["ladder"], data["on"]) == (slug, day.isoformat())
        assert sorted(p["rating"] for p in data["players"]) == expected, day
        text = client.get(url(public, PREFIXES[slug] + "ladder.csv"), query).content.decode()
        assert sorted(int(r["rating"]) for r in csv.DictReader(io.StringIO(text))) == expected


def test_a_dated_ladder_page_keeps_its_date_and_its_ladder_in_its_links(client, public):
    two_ladders(public)
    here = url(public, "ladders/blitz/")
    html = client.get(here, {"on": "2026-01-25"}).content.decode()
    assert f'href="{here}ladder.csv?on=2026-01-25"' in html
    assert f'href="{here}?active=1&amp;on=2026-01-25"' in html
    # The first ladder's own address leads to the front page with the date kept.
    response = client.get(url(public, "ladders/main/"), {"on": "2026-01-25"})
    assert response.status_code == 302
    assert response["Location"] == url(public) + "?on=2026-01-25"


def test_a_malformed_date_on_a_ladder_page_or_its_download_is_a_400(client, public):
    two_ladders(public)
    here = url(public, "ladders/blitz/")
    response = client.get(here, {"on": "25-01-2026"})
    assert response.status_code == 400
    assert 'id="on-error"' in response.content.decode()
    download = client.get(here + "ladder.json", {"on": "yesterday"})
    assert download.status_code == 400
