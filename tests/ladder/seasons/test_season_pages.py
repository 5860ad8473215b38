"""The season pages: what they show, to whom, under which names, from the page cache; and the
directors' setting of the month the season starts."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import AuditEntry, Club, Event, Player
from clubs.results import Result
from directors.audit.sentences import sentences
from ladder.replay import replay_ladder
from ladder.roster.rosters import load_roster
from ladder.seasons.dates import season_of
from members.pages.events.event_pages import event_page
from tests.factories import make_club, make_event, make_players, rated_players
from tests.members.pages.test_pages import table

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def page(club: Club, suffix: str = "") -> str:
    """A season page as a visitor reaches it: with the secret unless the club is public."""
    if club.visibility == Club.Visibility.PUBLIC:
        return reverse("club_seasons", args=[club.slug]) + suffix
    return reverse("club_seasons_secret", args=[club.slug, club.secret]) + suffix


def round_robin(club, players, day, name, results=None):
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    games = [(n + 1, a, b, (results or [W, D, B])[n % 3]) for n, (a, b) in enumerate(pairs)]
    return make_event(club, games, date=day, name=name)


@pytest.fixture
def march(owner, director):
    """A public club whose seasons start in March, with events either side of 1 March 2022: the
    last day of season 2021-22 and the first of 2022-23, and a draft and a deleted event."""
    club = make_club(
        slug="knights", owner=owner, directors=[director], visibility=Club.Visibility.PUBLIC,
        season_start_month=3,
    )  # fmt: skip
    players = make_players(club, ["Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood"])
    round_robin(club, players, dt.date(2021, 3, 1), "Spring open")
    round_robin(club, players, dt.date(2022, 2, 28), "Last of the season", [B, W, D])
    round_robin(club, players, dt.date(2022, 3, 1), "First of the next")
    draft = round_robin(club, players, dt.date(2021, 6, 1), "A draft")
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)
    gone = round_robin(club, players, dt.date(2021, 7, 1), "A deleted one")
    Event.objects.filter(pk=gone.pk).update(deleted_at=timezone.now())
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return club


def current_label(club: Club) -> str:
    return season_of(timezone.localdate(), club.season_start_month).label


def test_the_list_has_every_season_with_events_newest_first_and_the_current_one(client, march):
    response = client.get(page(march))
    assert response.status_code == 200
    rows = table(response, "seasons")
    current = current_label(march)
    assert [row[0] for row in rows] == [f"{current} current season", "2022-23", "2021-22"]
    assert [row[3] for row in rows] == ["0", "1", "2"]  # the draft and the deleted do not count
    assert 'href="/c/knights/seasons/2021-22/"' in response.content.decode()


def test_each_event_falls_in_the_season_of_its_date_at_the_boundaries(client, march):
    first = client.get(page(march, "2021-22/"))
    events = [row[1] for row in table(first, "events")]
    assert events == ["Last of the season", "Spring open"]
    second = client.get(page(march, "2022-23/"))
    assert [row[1] for row in table(second, "events")] == ["First of the next"]
    html = first.content.decode()
    assert "A draft" not in html and "A deleted one" not in html


def test_the_events_winners_are_the_event_pages_first_places(client, march):
    roster = load_roster(march, viewer_is_director=False)
    response = client.get(page(march, "2021-22/"))
    for row in table(response, "events"):
        event = Event.objects.get(club=march, name=row[1])
        firsts = [s.name for s in event_page(event, roster, "?").standings if s.rank == 1]
        shared = " (shared first place)" if len(firsts) > 1 else ""
        assert firsts and row[3] == ", ".join(firsts) + shared, row


def test_a_past_seasons_ladder_is_the_ladder_at_its_end_not_today(client, march):
    response = client.get(page(march, "2021-22/"))
    # The ladder after the 28 February event, from its stored results.
    end = {}
    for player in Player.objects.filter(club=march):
        last = player.event_results.filter(event_date__lte=dt.date(2022, 2, 28)).last()
        end[player.name] = round(last.post_rating)
    ladder = table(response, "ladder")
    assert {row[1].split(" provisional")[0]: int(row[2]) for row in ladder} == end
    today = {p.name: round(p.rating) for p in rated_players().filter(club=march)}
    assert end != today  # the March event moved it on


def test_a_malformed_or_unknown_season_is_a_404(client, march):
    for label in ["2021-23", "2021", "2021-2022", "2030-31", "1990-91", "x"]:
        assert client.get(page(march, f"{label}/")).status_code == 404, label
    assert client.get(page(march, f"{current_label(march)}/")).status_code == 200


def test_a_january_club_names_its_seasons_by_the_year(client, march):
    Club.objects.filter(pk=march.pk).update(season_start_month=1)
    march.refresh_from_db()
    rows = table(client.get(page(march)), "seasons")
    assert [row[0] for row in rows][1:] == ["2022", "2021"]
    assert client.get(page(march, "2022/")).status_code == 200
    assert client.get(page(march, "2021-22/")).status_code == 404


def test_the_club_pages_link_the_seasons(client, march):
    html = client.get(reverse("club_page", args=[march.slug])).content.decode()
    assert 'href="/c/knights/seasons/"' in html


# --- visibility, tenancy and names ------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["", "2021-22/"])
def test_a_directors_only_club_is_a_404_to_outsiders_and_visitors(
    client, march, director, outsider, suffix
):
    Club.objects.filter(pk=march.pk).update(visibility=Club.Visibility.DIRECTOR)
    url = reverse("club_seasons", args=[march.slug]) + suffix
    assert client.get(url).status_code == 404
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    client.force_login(director)
    response = client.get(url)
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"


@pytest.mark.parametrize("suffix", ["", "2021-22/"])
def test_an_unlisted_club_needs_its_secret_and_is_never_indexed(client, march, suffix):
    Club.objects.filter(pk=march.pk).update(visibility=Club.Visibility.UNLISTED)
    march.refresh_from_db()
    assert client.get(reverse("club_seasons", args=[march.slug]) + suffix).status_code == 404
    response = client.get(page(march, suffix))
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert '<meta name="robots" content="noindex">' in response.content.decode()
    assert march.secret in response.content.decode()  # its links keep the secret


def test_a_public_clubs_season_page_may_be_indexed(client, march):
    response = client.get(page(march, "2021-22/"))
    assert "X-Robots-Tag" not in response
    assert 'name="robots"' not in response.content.decode()


def test_juniors_are_initials_on_the_season_page_unless_their_family_agreed(
    client, march, director
):
    Player.objects.filter(club=march, name="Ann Alder").update(junior=True)
    Player.objects.filter(club=march, name="Bob Birch").update(junior=True, full_name_consent=True)
    Club.objects.filter(pk=march.pk).update(pages_version=march.pages_version + 1)
    html = client.get(page(march, "2021-22/")).content.decode()
    assert "Ann Alder" not in html and "A. A." in html
    assert "Bob Birch" in html
    client.force_login(director)
    assert "Ann Alder" in client.get(page(march, "2021-22/")).content.decode()


def test_another_clubs_players_and_events_never_show(client, march):
    other = make_club(slug="pawns", visibility=Club.Visibility.PUBLIC, season_start_month=3)
    strangers = make_players(other, ["Zed Zebra", "Yan Yew", "Xia Xu"])
    round_robin(other, strangers, dt.date(2021, 5, 1), "Pawns open")
    replay_ladder(other.pk, full=True)
    html = client.get(page(march, "2021-22/")).content.decode()
    assert "Zed Zebra" not in html and "Pawns open" not in html


# --- the page cache ---------------------------------------------------------------------------


def test_a_season_page_is_kept_and_a_new_start_month_is_never_answered_from_it(march):
    visitor = Client()
    first = visitor.get(page(march, "2021-22/"))
    again = visitor.get(page(march, "2021-22/"))
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    assert again.content == first.content
    Club.objects.filter(pk=march.pk).update(season_start_month=1)
    assert visitor.get(page(march, "2021-22/")).status_code == 404
    listed = visitor.get(page(march))
    assert "2021-22" not in listed.content.decode()


def test_a_renamed_event_moves_the_season_page_on(march):
    visitor = Client()
    before = visitor.get(page(march, "2021-22/")).content.decode()
    event = Event.objects.get(club=march, name="Spring open")
    Event.objects.filter(pk=event.pk).update(name="Spring open, renamed")
    Club.objects.filter(pk=march.pk).update(pages_version=march.pages_version + 1)
    after = visitor.get(page(march, "2021-22/"))
    assert after["X-Page-Cache"] == "miss"
    assert "Spring open, renamed" in after.content.decode() and "renamed" not in before


# --- the setting ------------------------------------------------------------------------------


def settings_form(club: Club, **changed) -> dict[str, object]:
    form = {"visibility": club.visibility, "name_display": club.name_display, "language": "en"}
    return {**form, **changed}


def test_a_director_sets_the_month_the_season_starts_and_it_is_logged(client, march, director):
    client.force_login(director)
    url = reverse("club_settings", args=[march.slug])
    assert "The club&#x27;s season starts in" in client.get(url).content.decode()
    response = client.post(url, settings_form(march, season_start_month="1"))
    assert response.status_code == 302
    march.refresh_from_db()
    assert march.season_start_month == 1
    entry = AuditEntry.objects.get(club=march, action="page_settings.changed")
    assert entry.user == director
    assert entry.details["changes"] == {"season_start_month": [3, 1]}
    [(_entry, text)] = sentences([entry])
    assert "month the season starts from March to January" in text


@pytest.mark.parametrize("month", ["13", "0", "March", "-1"])
def test_a_month_outside_the_year_is_refused_and_nothing_changes(client, march, director, month):
    client.force_login(director)
    url = reverse("club_settings", args=[march.slug])
    response = client.post(url, settings_form(march, season_start_month=month))
    assert response.status_code == 200
    assert "season_start_month" in response.context["form"].errors
    march.refresh_from_db()
    assert march.season_start_month == 3
    assert not AuditEntry.objects.filter(club=march).exists()


def test_a_form_without_the_month_keeps_the_clubs(client, march, director):
    client.force_login(director)
    client.post(reverse("club_settings", args=[march.slug]), settings_form(march, language="nl"))
    march.refresh_from_db()
    assert (march.season_start_month, march.language) == (3, "nl")


def test_a_new_club_starts_its_seasons_in_september(db):
    assert make_club(slug="fresh").season_start_month == 9


@pytest.mark.parametrize(
    ("language", "heading", "champion", "month"),
    [
        ("nl", "Seizoen 2021-22", "Kampioen", "maart"),
        ("de", "Saison 2021-22", "Meister", "März"),
        ("hi", "सीज़न 2021-22", "चैंपियन", "मार्च"),
    ],
)
def test_the_season_pages_speak_the_visitors_language(
    client, march, language, heading, champion, month
):
    season = client.get(page(march, "2021-22/"), headers={"accept-language": language}).content
    html = season.decode()
    assert f'lang="{language}"' in html
    assert heading in html and champion in html
    assert "Most improved" not in html and "Best event performances" not in html
    listed = client.get(page(march), headers={"accept-language": language}).content.decode()
    assert month in listed and "current season" not in listed


def test_each_ladder_has_its_season_page_with_its_own_events_and_ladder(client, march):
    """With a blitz ladder, the season page of each ladder shows only that ladder's events
    and its ladder at the season's end, read from that ladder's stored results."""
    from clubs.models import Ladder
    from directors.ladders.changes import add_ladder
    from ladder.models import PlayerEventResult

    Event.objects.filter(club=march, name="Last of the season").update(kind="blitz")
    add_ladder(march, slug="blitz", name="Blitz", policy="ladder", kinds=["blitz"], user=None)
    replay_ladder(march.pk)  # queued for a commit the test's transaction never makes
    blitz = Ladder.objects.get(club=march, slug="blitz")
    assert blitz.is_current
    main = page(march, "2021-22/")
    on_blitz = page(march, "2021-22/blitz/")
    shown_main, shown_blitz = client.get(main), client.get(on_blitz)
    assert shown_main.status_code == shown_blitz.status_code == 200
    names = {
        url: {" ".join(row) for row in table(response, "events")}
        for url, response in ((main, shown_main), (on_blitz, shown_blitz))
    }
    assert any("Last of the season" in n for n in names[on_blitz])
    assert not any("Last of the season" in n for n in names[main])
    assert any("Spring open" in n for n in names[main])
    assert not any("Spring open" in n for n in names[on_blitz])
    # The blitz ladder at the season's end is its stored results after its one event.
    stored = {
        r.player.name: round(r.post_rating)
        for r in PlayerEventResult.objects.filter(ladder=blitz).select_related("player")
    }
    ladder = table(shown_blitz, "ladder")
    assert {row[1].split(" provisional")[0]: int(row[2]) for row in ladder} == stored
    # Tabs link both; the first ladder's own address leads to the season's page; an unknown
    # ladder is a 404.
    assert f'href="{on_blitz}"' in shown_main.content.decode()
    assert client.get(page(march, "2021-22/main/"))["Location"].endswith("/seasons/2021-22/")
    assert client.get(page(march, "2021-22/nope/")).status_code == 404
