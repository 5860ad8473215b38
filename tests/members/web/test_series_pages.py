"""A Grand Prix series' pages (issue 38): who may see them, under which names, what the table
shows (every event's points, the discarded ones marked, each total as its sum), its CSV, the
season page's link and the "being recalculated" notice.

The season below is worked out by hand from its three events' final places, as a parent
would add it up from the event pages: points 10, 8, 6, 5 by place, the best 2 of 3 counted.

    event            1st   2nd   3rd   4th
    Autumn Rapid     Ann   Bob   Cid   Dee
    Winter Rapid     Bob   Ann   Dee   Cid
    December Rapid   Ann   Bob   Cid   Dee

    Ann 10, 8, 10 -> 10 + 10 = 20 (the 8 discarded)
    Bob 8, 10, 8  -> 8 + 10 = 18  (equal results: the earlier event counts, the later 8 not)
    Cid 6, 5, 6   -> 6 + 6 = 12   (the 5 discarded)
    Dee 5, 6, 5   -> 5 + 6 = 11   (the later 5 discarded)
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from fractions import Fraction

import pytest
from django.db.models import F
from django.urls import reverse

from clubs.models import Club, Event, Ladder, Series
from clubs.results import Result
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event, make_players
from tests.members.pages.test_pages import table

pytestmark = pytest.mark.django_db

W, B = Result.WHITE_WIN, Result.BLACK_WIN
DEE_INITIALS = "D. D."


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def ranked_event(club, order, day, name, published=True):
    """A round robin whose final places are `order`: each player beats everyone after them."""
    games = []
    for i, higher in enumerate(order):
        for lower in order[i + 1 :]:
            games.append((len(games) + 1, higher, lower, W))
    return make_event(club, games, date=day, name=name, published=published)


def build_season(club):
    ann, bob, cid, dee = make_players(club, ["Ann Archer", "Bob Baker", "Cid Carter", "Dee Dale"])
    dee.junior = True  # no consent: initials on every page but a director's
    dee.save()
    autumn = ranked_event(club, [ann, bob, cid, dee], dt.date(2025, 10, 4), "Autumn Rapid")
    winter = ranked_event(club, [bob, ann, dee, cid], dt.date(2025, 11, 1), "Winter Rapid")
    december = ranked_event(club, [ann, bob, cid, dee], dt.date(2025, 12, 6), "December Rapid")
    draft = ranked_event(club, [dee, cid, bob, ann], dt.date(2025, 12, 13), "Draft Rapid", False)
    replay_ladder(club.pk, full=True)
    series = Series.objects.create(
        club=club, slug="grand-prix", name="Rapid Grand Prix", points=[10, 8, 6, 5], best=2
    )
    # The draft is chosen too: it counts (and shows) only once published.
    series.events.set([autumn, winter, december, draft])
    return {"players": (ann, bob, cid, dee), "events": (autumn, winter, december), "draft": draft}


@pytest.fixture
def season(owner, director):
    club = make_club(slug="rooks", owner=owner, directors=[director], visibility="public")
    return club, build_season(club)


def series_url(club, suffix="grand-prix/"):
    if club.visibility == Club.Visibility.PUBLIC:
        return reverse("club_series_list", args=[club.slug]) + suffix
    return reverse("club_series_list_secret", args=[club.slug, club.secret]) + suffix


def points(text: str) -> Fraction:
    """ "6½" -> 13/2, "3 2/7" -> 23/7, "12" -> 12: the page's way of writing points."""
    text = text.strip()
    for char, value in (("½", "1/2"), ("⅓", "1/3"), ("⅔", "2/3"), ("¼", "1/4"), ("¾", "3/4")):
        if text.endswith(char):
            whole = text[: -len(char)]
            return Fraction(int(whole or 0)) + Fraction(value)
    if " " in text:
        whole, part = text.split(" ")
        return Fraction(int(whole)) + Fraction(part)
    return Fraction(text)


def standings_rows(response):
    """(rank, name, event cells, sum cell) of each player's line of the first group."""
    rows = [row for row in table(response, "series") if len(row) > 1]
    return [(row[0], row[1], row[2:-1], row[-1]) for row in rows]


def test_the_series_page_shows_every_events_points_and_each_total_as_its_sum(client, season):
    club, _world = season
    response = client.get(series_url(club))
    assert response.status_code == 200
    rows = standings_rows(response)
    assert [(rank, name) for rank, name, _cells, _sum in rows] == [
        ("1", "Ann Archer"),
        ("2", "Bob Baker"),
        ("3", "Cid Carter"),
        ("4", DEE_INITIALS),
    ]
    by_name = {name: (cells, total) for _rank, name, cells, total in rows}
    assert by_name["Ann Archer"] == (["10", "(8)", "10"], "10 + 10 = 20")
    assert by_name["Bob Baker"] == (["8", "10", "(8)"], "8 + 10 = 18")
    assert by_name["Cid Carter"] == (["6", "(5)", "6"], "6 + 6 = 12")
    assert by_name[DEE_INITIALS] == (["5", "6", "(5)"], "5 + 6 = 11")


def test_every_sum_adds_up_to_its_total_from_the_counted_cells(client, season):
    club, _world = season
    for _rank, name, cells, written in standings_rows(client.get(series_url(club))):
        terms, total = written.split("=")
        addends = sorted(points(term) for term in terms.split("+"))
        counted = sorted(points(cell) for cell in cells if cell and not cell.startswith("("))
        assert addends == counted, name
        assert sum(addends) == points(total), name
        discarded = [cell for cell in cells if cell.startswith("(")]
        assert len(counted) <= 2 and len(counted) + len(discarded) == len([c for c in cells if c])


def test_discarded_results_are_marked_and_explained(client, season):
    club, _world = season
    body = client.get(series_url(club)).content.decode()
    assert body.count('class="discarded"') == 4
    assert "Points in brackets are not counted" in body


def test_the_events_counted_are_linked_and_a_draft_is_not_among_them(client, season):
    club, world = season
    body = client.get(series_url(club)).content.decode()
    for event in world["events"]:
        assert f'href="/c/{club.slug}/events/{event.pk}/"' in body
    assert "Draft Rapid" not in body
    assert f"/events/{world['draft'].pk}/" not in body
    assert 'class="series-rules"' in body


def test_a_junior_without_consent_shows_as_initials_and_a_director_sees_the_full_name(
    client, season, director
):
    club, _world = season
    body = client.get(series_url(club)).content.decode()
    assert DEE_INITIALS in body and "Dee Dale" not in body
    client.force_login(director)
    assert "Dee Dale" in client.get(series_url(club)).content.decode()


def test_names_link_to_the_players_pages(client, season):
    club, world = season
    body = client.get(series_url(club)).content.decode()
    for player in world["players"]:
        assert f'href="/c/{club.slug}/players/{player.pk}/"' in body


def test_a_series_still_waiting_for_an_event_names_no_winner(client, season):
    club, _world = season
    assert "Winner:" not in client.get(series_url(club)).content.decode()


def test_a_finished_series_names_its_winner(client, season):
    club, world = season
    # Every chosen event published and past: the series is over.
    Series.objects.get(club=club).events.remove(world["draft"])
    body = client.get(series_url(club)).content.decode()
    assert re.search(r"Winner:</strong>\s*Ann Archer", body)


def test_the_csv_has_every_players_line_with_the_same_names_and_marks(client, season):
    club, world = season
    response = client.get(series_url(club, "grand-prix.csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{club.slug}-grand-prix.csv"'
    assert response["X-Ladder-Status"] == "current"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [(row["rank"], row["name"], row["total"], row["sum"]) for row in rows] == [
        ("1", "Ann Archer", "20", "10 + 10 = 20"),
        ("2", "Bob Baker", "18", "8 + 10 = 18"),
        ("3", "Cid Carter", "12", "6 + 6 = 12"),
        ("4", DEE_INITIALS, "11", "5 + 6 = 11"),
    ]
    winter = world["events"][1]
    assert rows[0][f"{winter.date.isoformat()} {winter.name}"] == "(8)"
    assert "Dee Dale" not in response.content.decode()


def test_the_club_menu_and_the_list_link_the_series(client, season):
    club, _world = season
    front = client.get(reverse("club_page", args=[club.slug])).content.decode()
    assert f'href="/c/{club.slug}/series/"' in front
    listed = client.get(series_url(club, "")).content.decode()
    assert f'href="/c/{club.slug}/series/grand-prix/"' in listed


def test_a_club_without_a_series_has_no_menu_link(client, owner):
    club = make_club(slug="bishops", owner=owner, visibility="public")
    front = client.get(reverse("club_page", args=[club.slug])).content.decode()
    assert "/series/" not in front


def test_the_season_page_links_the_seasons_series_only(client, season):
    club, _world = season
    Series.objects.create(
        club=club, slug="old-blitz", name="Old Blitz", kinds=["blitz"],
        date_from=dt.date(2023, 9, 1), date_to=dt.date(2024, 6, 30),
    )  # fmt: skip
    body = client.get(reverse("club_season", args=[club.slug, "2025-26"])).content.decode()
    assert f'href="/c/{club.slug}/series/grand-prix/"' in body
    assert "old-blitz" not in body


def test_a_series_by_kinds_and_dates_is_linked_from_its_season(client, season):
    club, _world = season
    Series.objects.create(
        club=club, slug="summer", name="Summer Rapid", kinds=["standard"],
        date_from=dt.date(2026, 6, 1), date_to=dt.date(2026, 8, 31),
    )  # fmt: skip
    body = client.get(reverse("club_season", args=[club.slug, "2025-26"])).content.decode()
    assert f'href="/c/{club.slug}/series/summer/"' in body


def test_the_page_says_the_ladder_is_being_recalculated_while_it_is_behind(client, season):
    club, _world = season
    client.get(series_url(club))  # kept while current
    Ladder.objects.filter(club=club).update(data_version=F("data_version") + 1)
    body = client.get(series_url(club)).content.decode()
    assert "The ladder is being recalculated" in body
    csv_file = client.get(series_url(club, "grand-prix.csv"))
    assert csv_file["X-Ladder-Status"] == "recalculating"


def test_a_deleted_event_leaves_the_series_at_once(client, season, director):
    from directors.events.publishing import delete_event

    club, world = season
    client.get(series_url(club))  # kept
    winter = Event.objects.get(pk=world["events"][1].pk)
    delete_event(winter.pk, winter.edit_version, director)
    replay_ladder(club.pk)
    rows = standings_rows(client.get(series_url(club)))
    by_name = {name: total for _rank, name, _cells, total in rows}
    assert by_name["Ann Archer"] == "10 + 10 = 20"
    assert by_name["Bob Baker"] == "8 + 8 = 16"
    assert "Winter Rapid" not in client.get(series_url(club)).content.decode()


def test_the_table_scrolls_inside_its_own_region_on_a_phone(client, season):
    club, _world = season
    body = client.get(series_url(club)).content.decode()
    assert re.search(
        r'<div class="scroll" role="region"[^>]*tabindex="0"><table class="standings', body
    )


# --- who may see it ----------------------------------------------------------------------------


@pytest.fixture
def unlisted(owner, director):
    club = make_club(slug="pawns", owner=owner, directors=[director], visibility="unlisted")
    build_season(club)
    return club


def test_an_unlisted_clubs_series_opens_with_the_secret_only(client, unlisted, outsider):
    plain = reverse("club_series", args=[unlisted.slug, "grand-prix"])
    assert client.get(plain).status_code == 404
    assert client.get(plain.replace("grand-prix/", "grand-prix.csv")).status_code == 404
    assert client.get(series_url(unlisted)).status_code == 200
    assert client.get(series_url(unlisted, "grand-prix.csv")).status_code == 200
    client.force_login(outsider)
    assert client.get(plain).status_code == 404


def test_a_director_only_club_hides_its_series_from_everyone_else(client, owner, outsider):
    club = make_club(slug="kings", owner=owner, visibility="director")
    build_season(club)
    secret = reverse("club_series_secret", args=[club.slug, club.secret, "grand-prix"])
    assert client.get(secret).status_code == 404
    client.force_login(outsider)
    assert client.get(secret).status_code == 404
    client.force_login(owner)
    assert client.get(reverse("club_series", args=[club.slug, "grand-prix"])).status_code == 200


def test_an_unknown_series_or_another_clubs_is_404(client, season, owner):
    club, _world = season
    other = make_club(slug="bishops", owner=owner, visibility="public")
    Series.objects.create(club=other, slug="theirs", name="Theirs")
    assert client.get(series_url(club, "nope/")).status_code == 404
    assert client.get(series_url(club, "theirs/")).status_code == 404
    assert client.get(series_url(club, "theirs.csv")).status_code == 404
    assert client.get(series_url(other, "theirs/")).status_code == 200
