"""Every number on every page of a club with two ladders recomputes from the page (issue 33).

The pages tests of issue 13 (tests/members/pages/test_explanations.py) read one ladder's player
and event pages. Here a club keeps two: standard games on one, blitz on the other, one rated
by the club ladder (Elo) and the other by HSB (both ways round), the HSB ratings carrying
decimals (a start rating of 812.25) so that a page prints them rounded. Generated events of
both kinds run over three seasons; the blitz ladder's last event is a season ago, so its
current season holds none of its events yet. Then, as a tester reads them:

- every season page of each ladder (each past season and the current one): each "most
  improved" gain is the printed rating after less the printed rating before, the list falls
  by that gain, and the season's ladder is that ladder's own list (today's for the current
  season, the list on the season's last day for a past one): the same players, ratings,
  rated games and established players; the champion is its first established player;
- every player page: each written sum, each HSB share from the printed rating and average;
- every event's rating changes: each written sum, each expected score (games x p under HSB).
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Event, Ladder, Player
from directors.ladders.changes import add_ladder
from ladder.models import PlayerEventResult
from ladder.replay import replay_ladder
from ladder.seasons.dates import parse_season, season_of
from tests.factories import make_club, make_history
from tests.members.pages.test_explanations import (
    CHANGES_TABLE,
    ELO,
    FACTS,
    HSB,
    breakdowns,
    check_ratings,
    check_worked_sum,
    decimals,
    hsb_share,
    number,
    table_rows,
    text,
)

pytestmark = pytest.mark.django_db

HSB_SETTINGS = {"bonus": 5, "start_rating": 812.25}
ELO_SETTINGS = {"k_low": 17.5, "k_threshold": 12}


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def two_ladders(standard: str, blitz: str) -> Club:
    """A public club whose standard games go to a ladder rated by `standard` and whose blitz
    games go to one rated by `blitz`: 48 events a fortnight apart up to two months ago, every
    other one of the first 32 a blitz event (the last of them some nine months ago)."""
    settings = {"hsb": HSB_SETTINGS, "ladder": ELO_SETTINGS}
    club = make_club(
        slug=f"two-{standard}-{blitz}",
        visibility=Club.Visibility.PUBLIC,
        rating_policy=standard,
        rating_settings=settings[standard],
    )
    today = timezone.localdate()
    made = make_history(
        club, events=48, players=16, per_event=8, rounds=4, seed=33,
        start=today - dt.timedelta(days=720), days_apart=14,
    )  # fmt: skip
    Event.objects.filter(pk__in=[e.pk for e in made[1:32:2]]).update(kind="blitz")
    add_ladder(club, slug="blitz", name="Blitz", policy=blitz, kinds=["blitz"], user=None)
    Ladder.objects.filter(club=club, slug="blitz").update(rating_settings=settings[blitz])
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    assert all(ladder.is_current for ladder in club.ladders.all())
    return club


ARRANGEMENTS = [("ladder", "hsb"), ("hsb", "ladder")]
IDS = ["standard-elo-blitz-hsb", "standard-hsb-blitz-elo"]


def ladders_of(club: Club) -> list[Ladder]:
    return list(Ladder.objects.filter(club=club).order_by("position", "id"))


def ladder_url(club: Club, ladder: Ladder, query: str) -> str:
    first = ladders_of(club)[0]
    if ladder == first:
        return reverse("club_page", args=[club.slug]) + query
    return reverse("club_ladder", args=[club.slug, ladder.slug]) + query


def season_url(club: Club, label: str, ladder: Ladder) -> str:
    suffix = "" if ladder == ladders_of(club)[0] else f"{ladder.slug}/"
    return reverse("club_season", args=[club.slug, label]) + suffix


SECTION = re.compile(r'<h2 id="(?P<id>[a-z]+)-heading">.*?</section>', re.S)
ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def sections(html: str) -> dict[str, str]:
    return {m["id"]: m.group(0) for m in SECTION.finditer(html)}


def body_rows(html: str) -> list[list[str]]:
    tbody = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0] if "<tbody>" in html else ""
    return [[text(cell) for cell in CELL.findall(row)] for row in ROW.findall(tbody)]


def listed(rows: list[list[str]]) -> list[tuple[str, int, int, bool]]:
    """(name, rating, rated games, provisional) of a ladder table's rows, in ladder order."""
    return [
        (row[1].split(" provisional")[0], int(row[2]), int(row[3]), "provisional" in row[1])
        for row in rows
    ]


@pytest.mark.parametrize(("standard", "blitz"), ARRANGEMENTS, ids=IDS)
def test_every_season_page_of_each_ladder_recomputes_and_agrees_with_its_list(
    client, standard, blitz
):
    club = two_ladders(standard, blitz)
    today = timezone.localdate()
    listing = client.get(reverse("club_seasons", args=[club.slug])).content.decode()
    labels = sorted(set(re.findall(rf'href="/c/{club.slug}/seasons/([^"/]+)/"', listing)))
    current = season_of(today, club.season_start_month)
    assert current.label in labels and len(labels) >= 3
    gains = 0
    with_established: set[tuple[str, str]] = set()
    for ladder in ladders_of(club):
        for label in labels:
            response = client.get(season_url(club, label, ladder))
            assert response.status_code == 200, (ladder.slug, label)
            html = response.content.decode()
            parts = sections(html)
            # Most improved: after − before = the printed gain, row by row, falling.
            shown_gains = []
            for name, before, after, change, games in body_rows(parts["improved"]):
                assert number(after) - number(before) == number(change), (label, name)
                assert decimals(number(before)) >= 1 <= decimals(number(after)), (label, name)
                assert int(games) >= 10
                shown_gains.append(number(change))
                gains += 1
            assert shown_gains == sorted(shown_gains, reverse=True), (label, shown_gains)
            # The season's ladder is the ladder's own list on the season's last day (today
            # for the current season).
            query = "?active=all"
            if label != current.label:
                query += f"&on={past_last_day(club, label)}"
            on_list_page = client.get(ladder_url(club, ladder, query)).content.decode()
            on_list = listed(body_rows(on_list_page.split('<table class="ladder', 1)[1]))
            on_season = listed(body_rows(parts["ladder"]))
            assert on_season == on_list, (ladder.slug, label)
            established = [row for row in on_list if not row[3]]
            champion = text(parts["champion"])
            if established:
                assert "No established player" not in champion, (ladder.slug, label)
                assert established[0][0] in champion, (ladder.slug, label)
                # Nowhere on the page, not even in a season without this ladder's games.
                assert "No rated games yet" not in html, (ladder.slug, label)
                with_established.add((ladder.slug, label))
    assert gains > 20
    # The blitz ladder's current season holds none of its events, and still shows its
    # established players, as every other season page of both ladders does.
    blitz_now = client.get(season_url(club, current.label, ladders_of(club)[1])).content.decode()
    assert "No events in this season yet." in blitz_now
    assert with_established == {(la.slug, label) for la in ladders_of(club) for label in labels}


def past_last_day(club: Club, label: str) -> str:
    """The last day of the season `label` (a past one), as ?on= takes it."""
    season = parse_season(label, club.season_start_month)
    assert season is not None
    return season.last_day.isoformat()


@pytest.mark.parametrize(("standard", "blitz"), ARRANGEMENTS, ids=IDS)
def test_every_sum_on_the_player_and_event_pages_of_both_ladders_recomputes(
    client, standard, blitz
):
    club = two_ladders(standard, blitz)
    policy_of = {
        ladder.pk: ladder.rating_policy for ladder in ladders_of(club)
    }  # ladder id -> policy
    found = {"ladder": 0, "hsb": 0}
    for player in Player.objects.filter(club=club).order_by("id"):
        count = 0
        for summary, why in breakdowns(client, club, player):
            facts = FACTS.search(why)
            if facts is None:
                continue
            elo, hsb = ELO.search(why, facts.end()), HSB.search(why, facts.end())
            if elo is not None and elo.start() == facts.end():
                k, score = number(elo["k"]), number(elo["score"])
                change = number(elo["change"])
                exact = k * (score - number(elo["expected"]))
                digits = Decimal(1).scaleb(-decimals(change))
                assert exact.quantize(digits, ROUND_HALF_UP) == change, why
                found["ladder"] += 1
            else:
                assert hsb is not None and hsb.start() == facts.end(), why
                p, score, games = number(hsb["p"]), number(hsb["score"]), int(hsb["games"])
                # The share from the printed rating and average, as a reader works it out.
                assert hsb_share(facts["before"], hsb["average"], p, hsb["cut"]) == p, why
                exact = 20 * (score - games * p) + int(hsb["bonus"])
                change = number(hsb["change"])
                if hsb["exact"] is not None:
                    assert number(hsb["exact"]) == exact, why
                assert math.floor(exact + Decimal("0.5")) == change, why
                found["hsb"] += 1
            check_ratings(facts, change, summary)
            count += 1
        stored = PlayerEventResult.objects.filter(
            player=player, games_counted__gt=0, event__rated=True
        ).count()
        assert count == stored, player.name
    assert found["ladder"] > 100 and found["hsb"] > 100, found
    # Every event's rating changes, under its own ladder's policy.
    rows_checked = 0
    for event in club.events.filter(rated=True):
        ladder_id = (
            PlayerEventResult.objects.filter(event=event)
            .values_list("ladder_id", flat=True)
            .first()
        )
        policy = policy_of[ladder_id]
        ratings = reverse("club_event_ratings", args=[club.slug, event.pk])
        page = client.get(reverse("club_event", args=[club.slug, event.pk])).content.decode()
        html = page if CHANGES_TABLE.search(page) else client.get(ratings).content.decode()
        for _name, before, games, score, expected, change, after, worked in table_rows(
            CHANGES_TABLE, html
        ):
            assert number(before) + number(change) == number(after), (event.name, worked)
            check_worked_sum(policy, worked, games, score, expected, number(change))
            rows_checked += 1
    assert rows_checked > 300
