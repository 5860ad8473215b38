"""A player's page stays light as the history grows (issue 27): the last twelve months in
full, older years on pages of their own, the lifetime record still over everything."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Player
from clubs.results import Result
from ladder.replay import replay_ladder
from ladder.roster.display import initials
from members.pages.player_page import RECENT_LIMIT, EventLine, Shown, year_summaries
from tests.factories import make_club, make_event, make_history

BREAKDOWN = '<details class="event-breakdown"'
YEAR_LINK = re.compile(r'href="[^"]*/players/(\d+)/\?year=(\d{4})"')
EVENT_LINK = re.compile(r'<p><a href="[^"]*/events/(\d+)/">Event results</a></p>')
MARKERS = re.compile(r'<g class="points">(.*?)</g>', re.S)


def line(day: dt.date, rating: float = 1500) -> EventLine:
    return EventLine(day.toordinal(), "E", day, True, rating, 20, 0, 0, 0, rating, 0)


def test_the_player_page_picks_the_newest_of_the_last_twelve_months():
    days = [dt.date(2020, 1, 1) + dt.timedelta(days=10 * n) for n in range(100)]
    events = [line(day) for day in days]
    since = dt.date(2022, 1, 1)
    picked = Shown(since=since, limit=5).pick(events)
    assert [e.date for e in picked] == days[-5:]
    assert all(e.date >= since for e in Shown(since=since).pick(events))
    assert {e.date.year for e in Shown(year=2021).pick(events)} == {2021}


def test_each_year_is_summed_with_its_last_rating_newest_first():
    events = [
        line(dt.date(2020, 3, 1), 1500),
        line(dt.date(2020, 9, 1), 1510),
        line(dt.date(2022, 1, 1), 1490),
    ]
    assert [(y.year, y.events, y.rating_after) for y in year_summaries(events)] == [
        (2022, 1, 1490),
        (2020, 2, 1510),
    ]


def long_history(slug: str = "long", **fields) -> tuple[Club, Player]:
    """200 events over ten years up to last week; the first player plays every one."""
    club = make_club(slug=slug, visibility=Club.Visibility.PUBLIC, **fields)
    roster = Player.objects.bulk_create(
        Player(club=club, name=f"Member {n:02d} Long", junior=n == 1) for n in range(12)
    )
    today = timezone.localdate()
    make_history(
        club,
        events=200,
        players=0,
        per_event=6,
        rounds=3,
        roster=roster,
        start=today - dt.timedelta(days=7 + 18 * 199),
        days_apart=18,
        always=roster[:2],
    )
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return club, roster[0]


def player_url(club: Club, player: Player) -> str:
    return reverse("club_player", args=[club.slug, player.pk])


@pytest.mark.django_db
def test_the_page_of_a_ten_year_history_is_bounded(client):
    club, player = long_history()
    html = client.get(player_url(club, player)).content.decode()
    assert len(html.encode()) < 250_000
    written = html.count(BREAKDOWN)
    assert 0 < written <= RECENT_LIMIT
    # The lifetime record still counts every game: 200 events of 3 rounds.
    record = re.search(r'<tr class="record-row">\s*<td class="num">(\d+)</td>', html)
    assert record is not None and int(record[1]) == 600
    # Every year of the history is linked, and the chart marks only the events written out.
    years = {int(y) for _p, y in YEAR_LINK.findall(html)}
    first = player.event_results.order_by("event_date").first()
    assert years == set(range(first.event_date.year, timezone.localdate().year + 1))
    markers = MARKERS.search(html)[1]
    assert markers.count("<circle") + markers.count("<rect") == written


@pytest.mark.django_db
def test_the_year_pages_write_out_every_event_once_with_its_sums(client):
    club, player = long_history()
    url = player_url(club, player)
    main = client.get(url).content.decode()
    years = sorted({y for p, y in YEAR_LINK.findall(main) if p == str(player.pk)})
    seen: list[str] = []
    for year in years:
        html = client.get(f"{url}?year={year}").content.decode()
        events = EVENT_LINK.findall(html)
        in_db = player.event_results.filter(event_date__year=int(year)).count()
        # Each event written out on screen and once more for print, nothing of other years.
        assert html.count(BREAKDOWN) == in_db == len(events) // 2
        assert html.count('<p class="why">') == 2 * in_db
        assert "Change = K × (score − expected)" in html
        assert f'href="{url}"' in html  # back to the player's page
        linked = {y for p, y in YEAR_LINK.findall(html) if p == str(player.pk)}
        assert linked == set(years) - {year}  # the other years; this one is written
        seen += events[: len(events) // 2]
    assert len(seen) == len(set(seen)) == 200


@pytest.mark.django_db
def test_a_year_without_events_is_not_found_and_a_wrong_year_is_the_player_page(client):
    club, player = long_history()
    url = player_url(club, player)
    assert client.get(f"{url}?year=1990").status_code == 404
    plain = client.get(url).content.decode()
    for wrong in ("abc", "20211", "٢٠٢١"):
        response = client.get(url, {"year": wrong})
        assert response.status_code == 200
        assert response.content.decode().count(BREAKDOWN) == plain.count(BREAKDOWN)


@pytest.mark.django_db
def test_a_junior_is_shown_as_initials_on_every_year_page(client):
    club, player = long_history()
    url = player_url(club, player)
    years = {y for _p, y in YEAR_LINK.findall(client.get(url).content.decode())}
    assert years
    for year in years:
        html = client.get(f"{url}?year={year}").content.decode()
        assert "Member 01 Long" not in html
        assert initials("Member 01 Long") in html  # the junior played every event


@pytest.mark.django_db
def test_a_year_page_of_a_private_club_is_not_found_for_outsiders(owner, outsider):
    club = make_club(slug="hidden", owner=owner, visibility=Club.Visibility.UNLISTED)
    ann = Player.objects.create(club=club, name="Ann")
    bob = Player.objects.create(club=club, name="Bob")
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)], date=dt.date(2021, 5, 1))
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    plain = f"{player_url(club, ann)}?year=2021"
    secret = reverse("club_player_secret", args=[club.slug, club.secret, ann.pk]) + "?year=2021"
    anonymous, signed_in = Client(), Client()
    signed_in.force_login(outsider)
    for visitor in (anonymous, signed_in):
        assert visitor.get(plain).status_code == 404
        wrong = reverse("club_player_secret", args=[club.slug, "x" * 32, ann.pk]) + "?year=2021"
        assert visitor.get(wrong).status_code == 404
    response = anonymous.get(secret)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    director = Client()
    director.force_login(owner)
    assert director.get(plain).status_code == 200


@pytest.mark.django_db
def test_print_holds_the_events_the_page_writes_out(client):
    club, player = long_history()
    url = player_url(club, player)
    for page in (url, f"{url}?year={timezone.localdate().year - 5}"):
        html = client.get(page).content.decode()
        assert html.count('<section class="event-print">') == html.count(BREAKDOWN) > 0


@pytest.mark.django_db
def test_each_year_page_is_kept_apart_from_the_player_page():
    club, player = long_history()
    url = player_url(club, player)
    year = f"{url}?year={timezone.localdate().year - 5}"
    first, again = Client().get(year), Client().get(year)
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    assert again.content == first.content
    plain = Client().get(url)
    assert plain["X-Page-Cache"] == "miss"
    assert plain.content != first.content
