"""The read API (members/api/): each answer against the page that shows the same numbers,
the pages' walls (visibility, juniors' initials, publication, subscription), ETags and 304s,
pagination and bad input."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from clubs.models import Club, Event, Ladder, Player, ScheduleDate, ScheduleEntry
from clubs.results import Result
from ladder.changes import OnPages, club_changed
from ladder.replay import replay_ladder
from ladder.roster import rosters
from members.api.routes import api_path
from members.pages.events import event_pages
from members.pages.player_page import player_page
from tests.factories import make_club, make_event, make_user

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def populate(club: Club) -> dict:
    """A junior without consent, a junior with consent, three adults; two rated events and
    one draft."""
    jasper = Player.objects.create(club=club, name="Jasper Bakker", junior=True)
    lotte = Player.objects.create(club=club, name="Lotte Smit", junior=True, full_name_consent=True)
    henk, ingrid, kees = (
        Player.objects.create(club=club, name=name)
        for name in ("Henk Bos", "Ingrid Dekker", "Kees Jansen")
    )
    first = make_event(
        club,
        [(1, jasper, henk, W), (1, lotte, ingrid, D), (2, jasper, lotte, D), (2, henk, ingrid, B)],
        date=dt.date(2026, 1, 10),
        name="January night",
    )
    second = make_event(
        club,
        [(1, kees, jasper, W), (1, henk, lotte, D), (2, kees, henk, W)],
        date=dt.date(2026, 2, 14),
        name="February night",
    )
    draft = make_event(
        club, [(1, ingrid, kees, W)], date=dt.date(2026, 3, 1), name="Secret draft", published=False
    )
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return {
        "club": club,
        "jasper": jasper,
        "lotte": lotte,
        "henk": henk,
        "kees": kees,
        "first": first,
        "second": second,
        "draft": draft,
    }


@pytest.fixture
def public(owner):
    return populate(make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC))


@pytest.fixture
def unlisted(owner):
    return populate(make_club(slug="rooks", owner=owner, visibility=Club.Visibility.UNLISTED))


def get(client: Client, name: str, **kwargs):
    query = kwargs.pop("query", "")
    return client.get(api_path(name, **kwargs) + query)


# --- content: the same numbers as the pages ----------------------------------------------------


def test_the_club_answer_names_the_club_and_its_ladders(client, public):
    club = public["club"]
    Ladder.objects.create(club=club, slug="blitz", name="Blitz", position=1, kinds=["blitz"])
    answer = get(client, "club", slug=club.slug).json()
    assert answer["slug"] == "knights" and answer["name"] == club.name
    assert answer["visibility"] == "public" and answer["page"] == "/c/knights/"
    assert [la["slug"] for la in answer["ladders"]] == [club.first_ladder().slug, "blitz"]
    assert all(la["current"] for la in answer["ladders"])
    start = dt.date.fromisoformat(answer["season_start"])
    assert start.month == club.season_start_month and start.day == 1
    assert dt.date.fromisoformat(answer["season_end"]) > start


def test_the_ladder_is_ladder_json_row_for_row(client, public):
    club = public["club"]
    ladder = club.first_ladder()
    api = get(client, "ladder", slug=club.slug, ladder=ladder.slug).json()
    page = client.get(f"/c/{club.slug}/ladder.json").json()
    assert api["count"] == len(page["players"]) == 5
    assert [{k: v for k, v in row.items() if k != "player_id"} for row in api["items"]] == page[
        "players"
    ]
    # Each row names its player: the roster's shown name for that id.
    names = rosters.load_roster(club, False, ladder).names
    assert all(names[row["player_id"]] == row["name"] for row in api["items"])
    assert api["current"] is True and api["on"] is None


def test_the_ladder_on_a_day_is_the_ladder_page_on_that_day(client, public):
    club = public["club"]
    ladder = club.first_ladder()
    query = "?on=2026-01-31"
    api = get(client, "ladder", slug=club.slug, ladder=ladder.slug, query=query).json()
    page = client.get(f"/c/{club.slug}/ladder.json{query}").json()
    assert [{k: v for k, v in r.items() if k != "player_id"} for r in api["items"]] == page[
        "players"
    ]
    # Kees played only in February: not on the ladder at the end of January.
    assert public["kees"].pk not in {r["player_id"] for r in api["items"]}
    assert api["on"] == api["shown_day"] == "2026-01-31"


def test_the_players_are_the_roster_page_s(client, public):
    club = public["club"]
    answer = get(client, "players", slug=club.slug).json()
    roster = rosters.load_roster(club, False)
    assert [p["id"] for p in answer["items"]] == [p.id for p in roster.by_name()]
    ranks = {row.player.id: row.rank for row in roster.ladder()}
    assert {p["id"]: p["rank"] for p in answer["items"]} == {
        p.id: ranks.get(p.id) for p in roster.players
    }
    page = client.get(f"/c/{club.slug}/players/").content.decode()
    assert all(p["name"] in page for p in answer["items"])


def test_one_player_has_the_player_page_s_lifetime(client, public):
    club, henk = public["club"], public["henk"]
    answer = get(client, "player", slug=club.slug, player_id=henk.pk).json()
    page = player_page(club, rosters.load_roster(club, False), henk.pk)
    assert answer["name"] == "Henk Bos" and answer["rank"] == page.rank
    assert answer["rating"] == page.player.rating_whole
    record = answer["record"]
    assert (record["played"], record["won"], record["drawn"], record["lost"]) == (
        page.record.played,
        page.record.won,
        page.record.drawn,
        page.record.lost,
    )
    assert record["played"] == 4 and answer["events"] == 2


def test_a_merged_player_leads_to_the_kept_one_as_the_page_does(client, public):
    club, henk, kees = public["club"], public["henk"], public["kees"]
    Player.objects.filter(pk=kees.pk).update(merged_into=henk)
    club_changed(club.pk, OnPages())
    response = get(client, "player", slug=club.slug, player_id=kees.pk)
    page = client.get(f"/c/{club.slug}/players/{kees.pk}/")
    assert page.status_code == response.status_code == 302
    assert response["Location"] == api_path("player", slug=club.slug, player_id=henk.pk)


def test_the_events_are_published_ones_newest_first(client, public):
    club = public["club"]
    answer = get(client, "events", slug=club.slug).json()
    assert [e["id"] for e in answer["items"]] == [public["second"].pk, public["first"].pk]
    assert answer["count"] == 2
    assert "Secret draft" not in str(answer)
    first = answer["items"][1]
    assert first["kind"] == "standard" and first["rated"] and first["players"] == 4
    assert [w["name"] for w in answer["items"][0]["winners"]] == ["Kees Jansen"]


def test_an_event_s_standings_are_its_page_s(client, public):
    club, event = public["club"], public["first"]
    answer = get(client, "event", slug=club.slug, event_id=event.pk).json()
    page = event_pages.event_page(
        Event.objects.get(pk=event.pk), rosters.load_roster(club, False), "unconfirmed player"
    )
    assert [(s["rank"], s["name"], s["points"]) for s in answer["standings"]] == [
        (s.rank, s.name, s.points) for s in page.standings
    ]
    # Before, change and after as the page prints them, adding up.
    assert [s["rating"]["change"] for s in answer["standings"]] == [
        float(s.rating.printed.change) for s in page.standings
    ]
    for row in answer["standings"]:
        line = row["rating"]
        assert round(line["before"] + line["change"], 6) == round(line["after"], 6)
    assert answer["tiebreak_order"] == [str(t) for t in page.order]
    html = client.get(f"/c/{club.slug}/events/{event.pk}/").content.decode()
    assert all(s["name"] in html for s in answer["standings"])


# --- the pages' walls ------------------------------------------------------------------------


def test_the_schedule_is_its_page_s_dates_in_the_club_s_time_zone(client, public):
    club = public["club"]
    club.time_zone = "Europe/Amsterdam"
    club.save(update_fields=["time_zone"])
    today = dt.date.today()
    night = ScheduleEntry.objects.create(
        club=club, name="Club night", date=today + dt.timedelta(days=1),
        start_time=dt.time(19, 30), place="Church hall",
        weekly_until=today + dt.timedelta(days=15),
    )  # fmt: skip
    ScheduleDate.objects.create(
        entry=night, date=today + dt.timedelta(days=8), cancelled=True, reason="Hall closed"
    )
    answer = get(client, "schedule", slug=club.slug).json()
    assert answer["count"] == 3 and [i["date"] for i in answer["items"]] == [
        str(today + dt.timedelta(days=days)) for days in (1, 8, 15)
    ]
    first, cancelled, _third = answer["items"]
    assert (first["name"], first["place"], first["cancelled"]) == (
        "Club night",
        "Church hall",
        False,
    )
    assert first["time_zone"] == "Europe/Amsterdam"
    assert first["starts_at"].startswith(f"{today + dt.timedelta(days=1)}T19:30:00+0")
    assert first["uid"] == f"{night.pk}-{today + dt.timedelta(days=1):%Y%m%d}"
    assert (cancelled["cancelled"], cancelled["reason"]) == (True, "Hall closed")
    page = client.get(f"/c/{club.slug}/schedule/").content.decode()
    assert "Hall closed" in page and "Church hall" in page
    paged = get(client, "schedule", slug=club.slug, query="?limit=1&offset=1").json()
    assert (paged["count"], [i["date"] for i in paged["items"]]) == (3, [cancelled["date"]])


def test_a_junior_without_consent_is_initials_as_on_the_pages(client, public):
    club = public["club"]
    paths = [
        api_path("ladder", slug=club.slug, ladder=club.first_ladder().slug),
        api_path("players", slug=club.slug),
        api_path("player", slug=club.slug, player_id=public["jasper"].pk),
        api_path("events", slug=club.slug),
        api_path("event", slug=club.slug, event_id=public["first"].pk),
    ]
    for path in paths:
        text = client.get(path).content.decode()
        assert "Jasper" not in text and "Bakker" not in text, path
    # A junior whose family consented is named, as on the pages.
    assert "Lotte Smit" in client.get(paths[0]).content.decode()


def test_a_director_reads_the_full_names_and_nothing_is_shared(client, public, owner):
    club = public["club"]
    client.force_login(owner)
    response = get(client, "players", slug=club.slug)
    assert "Jasper Bakker" in response.content.decode()
    assert "private" in response["Cache-Control"] and "ETag" not in response


def test_an_unlisted_club_answers_only_through_its_secret(client, unlisted):
    club = unlisted["club"]
    unknown = get(client, "club", slug="no-such-club")
    assert unknown.status_code == 404 and unknown.json() == {"detail": "Not found."}
    plain = get(client, "club", slug=club.slug)
    wrong = get(client, "club_secret", slug=club.slug, secret="not-the-secret")
    for response in (plain, wrong):
        assert response.status_code == 404 and response.content == unknown.content
    right = get(client, "club_secret", slug=club.slug, secret=club.secret)
    assert right.status_code == 200
    assert right.json()["page"] == f"/c/rooks/s/{club.secret}/"
    assert right["X-Robots-Tag"] == "noindex, nofollow"
    assert right["Referrer-Policy"] == "no-referrer"
    # Its secret must stay out of shared caches, as its pages do.
    assert "private" in right["Cache-Control"] and "public" not in right["Cache-Control"]
    for name, ids in (
        ("players_secret", {}),
        ("events_secret", {}),
        ("event_secret", {"event_id": unlisted["first"].pk}),
        ("player_secret", {"player_id": unlisted["henk"].pk}),
        ("schedule_secret", {}),
    ):
        assert get(client, name, slug=club.slug, secret=club.secret, **ids).status_code == 200
        assert get(client, name, slug=club.slug, secret="x", **ids).status_code == 404


def test_a_public_club_is_not_read_at_a_secret_address(client, public):
    club = public["club"]
    assert get(client, "club_secret", slug=club.slug, secret=club.secret).status_code == 404


def test_a_directors_only_club_is_a_404_but_to_its_directors(client, owner):
    found = populate(make_club(slug="bishops", owner=owner, visibility=Club.Visibility.DIRECTOR))
    club = found["club"]
    for secret_route in (False, True):
        kwargs = {"slug": club.slug} | ({"secret": club.secret} if secret_route else {})
        response = get(client, "club_secret" if secret_route else "club", **kwargs)
        assert response.status_code == 404 and response.json() == {"detail": "Not found."}
    outsider = Client()
    outsider.force_login(make_user("someone@example.org"))
    assert get(outsider, "club", slug=club.slug).status_code == 404
    client.force_login(owner)
    assert get(client, "club", slug=club.slug).status_code == 200


def test_an_unpublished_event_is_not_there(client, public):
    club = public["club"]
    response = get(client, "event", slug=club.slug, event_id=public["draft"].pk)
    assert response.status_code == 404 and response.json() == {"detail": "Not found."}


def test_an_inactive_subscription_closes_what_the_pages_close(client, public, settings):
    settings.BILLING_ENABLED = True
    club = public["club"]
    closed = [
        api_path("club", slug=club.slug),
        api_path("ladder", slug=club.slug, ladder=club.first_ladder().slug),
        api_path("players", slug=club.slug),
        api_path("player", slug=club.slug, player_id=public["henk"].pk),
        api_path("schedule", slug=club.slug),  # as its page and calendar
    ]
    for path in closed:
        response = client.get(path)
        assert response.status_code == 402, path
        assert "not active" in response.json()["detail"]
        assert "no-cache" in response["Cache-Control"]
    # An event's page stays open: so do the events.
    assert get(client, "events", slug=club.slug).status_code == 200
    assert get(client, "event", slug=club.slug, event_id=public["first"].pk).status_code == 200


# --- caching -----------------------------------------------------------------------------------


def test_an_answer_held_already_is_a_304_until_the_club_changes(client, public):
    club = public["club"]
    path = api_path("ladder", slug=club.slug, ladder=club.first_ladder().slug)
    first = client.get(path)
    tag = first["ETag"]
    assert tag.startswith('W/"')
    assert "public" in first["Cache-Control"] and "max-age=60" in first["Cache-Control"]
    again = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == tag
    # Another query is another answer.
    assert client.get(path + "?limit=2", HTTP_IF_NONE_MATCH=tag).status_code == 200
    club_changed(club.pk, OnPages())  # a name, a consent: the pages' version moves
    after = client.get(path, HTTP_IF_NONE_MATCH=tag)
    assert after.status_code == 200 and after["ETag"] != tag


def test_any_version_asked_of_a_missing_thing_is_a_404(client, public):
    club = public["club"]
    path = api_path("event", slug=club.slug, event_id=public["draft"].pk)
    assert client.get(path, HTTP_IF_NONE_MATCH="*").status_code == 404


def test_a_ladder_being_recalculated_says_so(client, public):
    club = public["club"]
    ladder = club.first_ladder()
    Ladder.objects.filter(pk=ladder.pk).update(data_version=ladder.data_version + 1)
    response = get(client, "ladder", slug=club.slug, ladder=ladder.slug)
    assert response["X-Ladder-Status"] == "recalculating"
    assert response.json()["current"] is False
    assert get(client, "club", slug=club.slug).json()["ladders"][0]["current"] is False
    event = get(client, "event", slug=club.slug, event_id=public["first"].pk)
    assert event.json()["current"] is False


# --- pagination and bad input ------------------------------------------------------------------


def test_lists_are_cut_by_limit_and_offset_and_count_the_whole(client, public):
    club = public["club"]
    everyone = get(client, "players", slug=club.slug).json()["items"]
    page = get(client, "players", slug=club.slug, query="?limit=2&offset=1").json()
    assert page["count"] == 5 and page["limit"] == 2 and page["offset"] == 1
    assert page["items"] == everyone[1:3]
    ladder = club.first_ladder().slug
    past = get(client, "ladder", slug=club.slug, ladder=ladder, query="?offset=50").json()
    assert past["items"] == [] and past["count"] == 5
    events = get(client, "events", slug=club.slug, query="?limit=1&offset=1").json()
    assert [e["id"] for e in events["items"]] == [public["first"].pk]
    assert get(client, "events", slug=club.slug, query="?kind=blitz").json()["count"] == 0


@pytest.mark.parametrize(
    ("name", "query", "status"),
    [
        ("ladder", "?on=yesterday", 400),
        ("ladder", "?on=2026-02-30", 400),
        ("ladder", "?limit=-1", 422),
        ("ladder", "?limit=0", 422),
        ("players", "?limit=501", 422),
        ("players", "?offset=-3", 422),
        ("events", "?kind=chess960", 422),
        ("events", "?limit=ten", 422),
    ],
)
def test_bad_input_is_a_4xx_in_json(client, public, name, query, status):
    club = public["club"]
    kwargs = {"ladder": club.first_ladder().slug} if name == "ladder" else {}
    response = get(client, name, slug=club.slug, query=query, **kwargs)
    assert response.status_code == status
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["detail"]


def test_an_unknown_ladder_and_ids_are_404(client, public):
    club = public["club"]
    assert get(client, "ladder", slug=club.slug, ladder="nope").json() == {"detail": "Not found."}
    assert get(client, "player", slug=club.slug, player_id=999999).status_code == 404
    assert get(client, "event", slug=club.slug, event_id=999999).status_code == 404
    assert get(client, "player", slug=club.slug, player_id=0).status_code == 422


def test_the_schema_is_served(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["info"]["version"] == "1"
    assert "/api/v1/clubs/{slug}/ladders/{ladder}/" in schema["paths"]
    assert "/api/v1/clubs/{slug}/s/{secret}/events/{event_id}/" in schema["paths"]


def test_an_address_no_operation_holds_is_the_api_s_json_404(client):
    for path in ("/api/v1/nothing/", "/api/v1/clubs/a%01b/", "/api/v1/clubs/x/ladders/"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json() == {"detail": "Not found."}, path
