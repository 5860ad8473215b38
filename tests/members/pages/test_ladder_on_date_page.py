"""The ladder on a date, /c/<slug>/?on=YYYY-MM-DD, and `export_ladder --on`: the rows the
page showed right after that day's last event, under today's names, visibility and cache."""

import datetime as dt
import io
import json

import pytest
from django.core.management import ManagementUtility, call_command
from django.core.management.base import CommandError
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Player
from clubs.results import Result
from ladder.changes import LadderInput, club_changed
from ladder.page_texts import half_up
from ladder.replay import replay_ladder
from members.web import page_cache
from tests.factories import make_club, make_event, new_player
from tests.members.pages.test_pages import table, tables

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
DAYS = [dt.date(2024, 1, 10), dt.date(2024, 2, 10), dt.date(2025, 3, 10)]


def replayed(club: Club) -> None:
    """A ladder change committed as views commit one, and its replay."""
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    club.refresh_from_db()


def url(club: Club, query: str = "", page: str = "") -> str:
    if club.visibility == Club.Visibility.PUBLIC:
        base = reverse("club_page", args=[club.slug])
    else:
        base = reverse("club_page_secret", args=[club.slug, club.secret])
    return f"{base}{page}{'?' if query else ''}{query}"


def get(club: Club, query: str = "", *, client: Client | None = None, **headers):
    return (client or Client()).get(url(club, query), **headers)


def table_rows(response) -> list:
    """The body rows of the ladder table; none if the page has no table."""
    found = tables(response, "ladder")
    return found[0][1:] if found else []


@pytest.fixture
def season(owner):
    """A public club whose three club nights were played a day each, the ladder page's table
    captured by a visitor and by a director right after each: {day: (visitor's, director's)}."""
    club = make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)
    ann, bob = (Player.objects.create(club=club, name=n) for n in ("Ann Alder", "Bob Birch"))
    jasper = Player.objects.create(club=club, name="Jasper Bakker", junior=True)
    kim = Player.objects.create(club=club, name="Kim Kok", junior=True, full_name_consent=True)
    nights = [
        [(1, ann, bob, W), (1, jasper, kim, D), (2, ann, kim, D), (2, bob, jasper, B)],
        [(1, ann, jasper, B), (1, bob, kim, W), (2, kim, ann, W)],
        [(1, ann, kim, W)],
    ]
    director = Client()
    director.force_login(owner)
    captured = {}
    for day, games in zip(DAYS, nights, strict=True):
        make_event(club, games, date=day, name=f"Night {day}")
        replayed(club)
        club.refresh_from_db()
        captured[day] = (table(get(club), "ladder"), table(get(club, client=director), "ladder"))
    return club, captured, director


def test_the_ladder_on_a_date_shows_the_rows_the_page_had_right_after_that_day(season):
    club, captured, director = season
    for day in DAYS:
        for query in (f"on={day}", f"on={day + dt.timedelta(days=20)}"):
            assert table(get(club, query), "ladder") == captured[day][0], query
            assert table(get(club, query, client=director), "ladder") == captured[day][1], query
    # Each day's ladder differs: the page is not showing one ladder for every date.
    assert len({str(rows) for rows, _ in captured.values()}) == 3


def test_the_page_says_which_date_it_shows_and_links_back_to_today(season):
    club, *_ = season
    html = get(club, "on=2024-02-10").content.decode()
    assert "<h1>Ladder on 10 Feb 2024</h1>" in html
    assert "<title>Ladder on 10 Feb 2024 · Knights</title>" in html
    assert "The ladder as it stood at the end of 10 Feb 2024." in html
    assert f'<a href="{url(club)}">Back to today\'s ladder</a>' in html
    assert 'name="on" value="2024-02-10"' in html  # the date form shows it
    assert "Back to today" not in get(club).content.decode()


def test_juniors_are_initials_on_a_date_as_today_unless_their_family_consented(season):
    club, _captured, director = season
    visitor = get(club, "on=2024-01-10").content.decode()
    assert "J. B." in visitor and "Jasper Bakker" not in visitor
    assert "Kim Kok" in visitor  # consent
    assert "Jasper Bakker" in get(club, "on=2024-01-10", client=director).content.decode()


def test_a_date_before_the_first_event_is_an_empty_ladder_that_says_so(season):
    club, *_ = season
    response = get(club, "on=2023-12-31")
    html = response.content.decode()
    assert response.status_code == 200
    assert not table_rows(response)
    assert "No event had been played by this date: the club's first was on 10 Jan 2024." in html


def test_brought_players_stand_on_the_ladder_before_the_first_event(season):
    club, *_ = season
    new_player(club=club, name="Val Veteran", start_rating=1900, start_games=40)
    replayed(club)
    club.refresh_from_db()
    rows = table(get(club, "on=2023-12-31"), "ladder")
    assert [row[:4] for row in rows] == [["1", "Val Veteran", "1900", "40"]]


def test_a_future_date_shows_todays_ladder_and_says_so(season):
    club, captured, _ = season
    later = timezone.localdate() + dt.timedelta(days=3)
    response = get(club, f"on={later}")
    html = response.content.decode()
    assert table(response, "ladder") == table(get(club), "ladder") == captured[DAYS[-1]][0]
    assert "is still to come: this is today's ladder." in html
    assert "<h1>Ladder</h1>" in html


@pytest.mark.parametrize("bad", ["2026-02-30", "yesterday", "20260210", "2026-W07-2", "10-02-2026"])
def test_a_malformed_date_is_a_400_with_a_message(season, bad):
    club, *_ = season
    response = get(club, f"on={bad}")
    assert response.status_code == 400
    html = response.content.decode()
    assert "That is not a date: give it as YYYY-MM-DD, for example 2026-03-01." in html
    assert not table_rows(response)
    assert response.get(page_cache.STATUS_HEADER) is None  # never kept
    download = Client().get(url(club, f"on={bad}", "ladder.csv"))
    assert download.status_code == 400
    assert download["Content-Type"].startswith("text/plain")


def test_the_malformed_date_message_is_translated(season):
    club, *_ = season
    nl = get(club, "on=gisteren", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    de = get(club, "on=gestern", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Dat is geen datum" in nl
    assert "Das ist kein Datum" in de


def test_sorting_searching_and_the_active_filter_keep_the_date(season):
    club, captured, _ = season
    html = get(club, "on=2024-02-10").content.decode()
    assert 'href="?on=2024-02-10&amp;sort=rating&amp;dir=desc"' in html  # the sort heads
    assert 'href="?active=1&amp;on=2024-02-10' not in html  # the filter link is its own
    assert f'href="{url(club)}?active=1&amp;on=2024-02-10"' in html
    assert '<input type="hidden" name="on" value="2024-02-10">' in html  # the search keeps it
    by_name = table(get(club, "on=2024-02-10&sort=name&dir=asc"), "ladder")
    assert sorted(r[1] for r in captured[DAYS[1]][0]) == [r[1] for r in by_name]
    found = table(get(club, "on=2024-02-10&q=kim"), "ladder")
    assert [r for r in captured[DAYS[1]][0] if r[1].startswith("Kim Kok")] == found


def test_the_active_filter_on_a_date_counts_the_year_before_that_date(season):
    club, *_ = season
    later = DAYS[2] + dt.timedelta(days=10)  # over a year after the second night
    active = table(get(club, f"on={later}&active=1"), "ladder")
    everyone = table(get(club, f"on={later}"), "ladder")
    assert {r[1].split(" provisional")[0] for r in active} == {"Ann Alder", "Kim Kok"}
    assert len(everyone) == 4
    html = get(club, f"on={DAYS[2] + dt.timedelta(days=400)}&active=1").content.decode()
    assert "Nobody had played in the 12 months before this date." in html


def test_the_downloads_of_a_dated_page_are_that_dates_ladder(season):
    club, captured, _ = season
    html = get(club, "on=2024-01-10").content.decode()
    assert f'href="{url(club, "on=2024-01-10", "ladder.json")}"' in html
    data = json.loads(Client().get(url(club, "on=2024-01-10", "ladder.json")).content)
    assert data["on"] == "2024-01-10"
    assert [(p["rank"], p["name"], str(p["rating"])) for p in data["players"]] == [
        (int(r[0]), r[1].split(" provisional")[0], r[2]) for r in captured[DAYS[0]][0]
    ]
    assert "on" not in json.loads(Client().get(url(club, page="ladder.json")).content)


# Visibility and the cache ---------------------------------------------------------------------


def test_a_private_clubs_dated_ladder_is_404_for_outsiders_and_visitors(season, outsider):
    club, _captured, director = season
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.DIRECTOR)
    club.refresh_from_db()
    path = reverse("club_page", args=[club.slug]) + "?on=2024-02-10"
    assert Client().get(path).status_code == 404
    stranger = Client()
    stranger.force_login(outsider)
    assert stranger.get(path).status_code == 404
    assert stranger.get(reverse("club_page", args=[club.slug]) + "?on=nonsense").status_code == 404
    mine = director.get(path)
    assert mine.status_code == 200
    assert mine["X-Robots-Tag"] == "noindex, nofollow"


def test_an_unlisted_clubs_dated_ladder_needs_the_secret_and_is_noindex(season):
    club, *_ = season
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.UNLISTED)
    club.refresh_from_db()
    without_secret = reverse("club_page", args=[club.slug]) + "?on=2024-02-10"
    assert Client().get(without_secret).status_code == 404
    response = get(club, "on=2024-02-10")
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "noindex" in response.content.decode()


def test_a_public_clubs_dated_ladder_is_indexable_as_its_ladder_is(season):
    club, *_ = season
    assert "X-Robots-Tag" not in get(club, "on=2024-02-10")
    assert "X-Robots-Tag" not in get(club)


def test_each_date_is_a_kept_page_of_its_own(season):
    club, *_ = season
    first = get(club, "on=2024-01-10")
    assert first[page_cache.STATUS_HEADER] == "miss"
    with CaptureQueriesContext(connection) as queries:
        again = get(club, "on=2024-01-10")
    assert again[page_cache.STATUS_HEADER] == "hit"
    assert len(queries) == 1  # the club's row
    assert again.content == first.content
    other = get(club, "on=2024-02-10")
    assert other[page_cache.STATUS_HEADER] == "miss"
    assert table(other, "ladder") != table(first, "ladder")


def test_a_replay_retires_the_kept_dated_pages(season):
    club, captured, _ = season
    assert table(get(club, "on=2024-02-10"), "ladder") == captured[DAYS[1]][0]
    ann, bob = Player.objects.get(name="Ann Alder"), Player.objects.get(name="Bob Birch")
    make_event(club, [(1, bob, ann, W)], date=dt.date(2024, 2, 1))  # a late upload, in the past
    replayed(club)
    club.refresh_from_db()
    now = get(club, "on=2024-02-10")
    assert now[page_cache.STATUS_HEADER] == "miss"
    assert table(now, "ladder") != captured[DAYS[1]][0]
    assert table(get(club, "on=2024-01-10"), "ladder") == captured[DAYS[0]][0]  # before it


def test_a_search_on_a_date_is_never_kept(season):
    club, *_ = season
    assert page_cache.STATUS_HEADER not in get(club, "on=2024-01-10&q=ann")


# export_ladder --on ---------------------------------------------------------------------------


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    call_command("export_ladder", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.mark.parametrize("day", [*DAYS, dt.date(2024, 2, 20), dt.date(2023, 1, 1)])
def test_export_ladder_on_a_date_gives_the_rows_of_that_dates_page(season, day):
    club, _captured, director = season
    out, err = run(club.slug, "--on", day.isoformat())
    rows = json.loads(out)
    assert err == ""
    assert [set(r) for r in rows] == [{"rank", "name", "rating", "games", "provisional"}] * len(
        rows
    )
    page = table_rows(get(club, f"on={day}", client=director))  # full names, as the export
    assert [
        (str(r["rank"]), r["name"], str(half_up(r["rating"])), str(r["games"]), r["provisional"])
        for r in rows
    ] == [(p[0], p[1].split(" provisional")[0], p[2], p[3], "provisional" in p[1]) for p in page]


def test_export_ladder_on_the_last_day_is_todays_export(season):
    club, *_ = season
    assert run(club.slug, "--on", DAYS[-1].isoformat()) == run(club.slug)
    csv_on, _ = run(club.slug, "--on", DAYS[0].isoformat(), "--format", "csv")
    assert csv_on.splitlines()[0] == "rank,name,rating,games,provisional"
    assert csv_on != run(club.slug, "--format", "csv")[0]


def test_export_ladder_on_a_future_date_is_todays_and_says_so(season):
    club, *_ = season
    later = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    out, err = run(club.slug, "--on", later)
    assert out == run(club.slug)[0]
    assert "is still to come" in err


@pytest.mark.parametrize("bad", ["2026-02-30", "tomorrow", "20260210", ""])
def test_export_ladder_refuses_a_malformed_date(season, bad):
    club, *_ = season
    with pytest.raises(CommandError, match=r"--on: .* is not a date in the form YYYY-MM-DD"):
        run(club.slug, "--on", bad)


def test_a_malformed_date_on_the_command_line_is_exit_status_1_and_a_message(
    season, monkeypatch, capsys
):
    club, *_ = season
    monkeypatch.setattr(connections, "close_all", lambda: None)
    with pytest.raises(SystemExit) as exit_:
        ManagementUtility(["manage.py", "export_ladder", club.slug, "--on", "2026-13-01"]).execute()
    captured = capsys.readouterr()
    assert exit_.value.code == 1
    assert captured.err.startswith("CommandError: --on: '2026-13-01' is not a date")
    assert captured.out == ""


def test_a_held_player_is_on_no_dated_page_nor_in_the_dated_export(season):
    """Held (first met in a draft, no published event): off every club page and export,
    even with games brought from an old ladder that put them on the ladder before the first
    event."""
    club, *_ = season
    new_player(club=club, name="Hal Held", held=True, start_rating=2000, start_games=50)
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    for day in ("2023-12-31", "2024-02-10"):
        assert "Hal Held" not in get(club, f"on={day}").content.decode(), day
        assert "Hal Held" not in run(club.slug, "--on", day)[0], day
    Player.objects.filter(name="Hal Held").update(held=False)  # a director added them
    club.refresh_from_db()
    assert "Hal Held" in run(club.slug, "--on", "2023-12-31")[0]
