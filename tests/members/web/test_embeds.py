"""Embeds for the club's own website (issue 37): the pages' walls (visibility, juniors'
initials, nothing unpublished), the framing headers (the club's sites and no one else's,
every other page still forbidding frames), the top N of the ladder, CORS on the read API
for the sites the club lists, and the settings screen that lists them."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from clubs.embed_origins import BadOrigin, normal_origin, parse_origins
from clubs.models import AuditEntry, Club, Player
from clubs.results import Result
from directors.schedule import save_entry
from ladder.replay import replay_ladder
from members.api.routes import api_path
from tests.factories import make_club, make_event

pytestmark = pytest.mark.django_db

SITE = "https://www.rooks-chess.example"
W, D = Result.WHITE_WIN, Result.DRAW


@pytest.fixture(autouse=True)
def _jobs_in_process(settings):
    settings.REDIS_URL = None


def populate(club: Club) -> dict:
    jasper = Player.objects.create(club=club, name="Jasper Bakker", junior=True)
    lotte = Player.objects.create(club=club, name="Lotte Smit", junior=True, full_name_consent=True)
    henk, ingrid, kees = (
        Player.objects.create(club=club, name=name)
        for name in ("Henk Bos", "Ingrid Dekker", "Kees Jansen")
    )
    event = make_event(
        club,
        [(1, jasper, henk, W), (1, lotte, ingrid, D), (2, kees, jasper, W), (2, henk, lotte, D)],
        date=dt.date(2026, 1, 10),
        name="January night",
    )
    draft = make_event(
        club, [(1, ingrid, kees, W)], date=dt.date(2026, 3, 1), name="Secret draft", published=False
    )
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return {"club": club, "event": event, "draft": draft}


@pytest.fixture
def public(owner):
    club = make_club(slug="rooks", owner=owner, visibility="public", embed_origins=[SITE])
    return populate(club)


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(p.strip() for p in policy.split(";") if p.strip().startswith("frame-ancestors"))


# --- the origins a club may list (pure) --------------------------------------------------


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("https://example.org", "https://example.org"),
        ("  HTTPS://Example.ORG/ ", "https://example.org"),
        ("https://example.org:443", "https://example.org"),
        ("https://example.org:8443", "https://example.org:8443"),
        ("http://localhost:8000", "http://localhost:8000"),
        ("http://127.0.0.1", "http://127.0.0.1"),
        ("https://xn--schach-bcd.example", "https://xn--schach-bcd.example"),
    ],
)
def test_an_origin_is_kept_as_a_browser_writes_it(text, origin):
    assert normal_origin(text) == origin


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("http://example.org", "scheme"),
        ("ftp://example.org", "scheme"),
        ("example.org", "scheme"),
        ("https://example.org/chess", "path"),
        ("https://example.org/?x=1", "path"),
        ("https://example.org#top", "path"),
        ("https://*.example.org", "host"),
        ("https://user@example.org", "host"),
        ("https://exa;mple.org", "host"),
        ("https://example.org:99999", "port"),
        ("https://example.org:http", "port"),
    ],
)
def test_anything_but_an_origin_is_refused_with_its_reason(text, reason):
    with pytest.raises(BadOrigin) as raised:
        normal_origin(text)
    assert raised.value.reason == reason


def test_a_directors_lines_become_a_list_once_each_in_order():
    text = "https://b.example\nhttps://a.example, https://B.example/\n\n"
    assert parse_origins(text) == ["https://b.example", "https://a.example"]
    assert parse_origins("  ") == []
    with pytest.raises(BadOrigin):
        parse_origins(" ".join(f"https://s{n}.example" for n in range(11)))


# --- the embeds --------------------------------------------------------------------------


def test_the_ladder_embed_shows_initials_for_a_junior_and_links_out_in_a_new_tab(public):
    page = Client().get("/c/rooks/embed/ladder/").content.decode()
    assert "Jasper" not in page and "Bakker" not in page
    assert "Lotte Smit" in page and "Henk Bos" in page
    assert 'target="_blank" rel="noopener"' in page
    assert 'href="/c/rooks/"' in page  # the whole ladder on the club page
    assert "site-header" not in page  # no site chrome
    assert "<script" not in page and "style=" not in page  # nothing the CSP refuses


def test_top_n_shows_the_first_n_and_says_how_many_more(public):
    whole = Client().get("/c/rooks/embed/ladder/").content.decode()
    rows = whole.count("<tr>") - 1
    assert rows >= 4
    top = Client().get("/c/rooks/embed/ladder/?top=2").content.decode()
    assert top.count("<tr>") - 1 == 2
    assert f"And {rows - 2} more players." in top
    # A number out of range (or not a number) is the whole ladder.
    for odd in ("0", "abc", "9999"):
        assert (
            Client().get(f"/c/rooks/embed/ladder/?top={odd}").content.decode().count("<tr>")
            == rows + 1
        )


def test_the_event_embed_shows_standings_of_a_published_event_only(public):
    event, draft = public["event"], public["draft"]
    response = Client().get(f"/c/rooks/embed/events/{event.pk}/")
    page = response.content.decode()
    assert response.status_code == 200
    assert "January night" in page and "Kees Jansen" in page
    assert "Jasper" not in page
    assert f'href="/c/rooks/events/{event.pk}/" target="_blank" rel="noopener"' in page
    assert Client().get(f"/c/rooks/embed/events/{draft.pk}/").status_code == 404


def test_the_schedule_embed_lists_the_upcoming_dates(public):
    today = dt.date.today()
    save_entry(
        public["club"],
        entry=None,
        name="Club night",
        date=today + dt.timedelta(days=1),
        start_time=dt.time(19, 30),
        place="Church hall",
        kind="rapid",
        notes="",
        weekly_until=None,
        user=None,
    )
    page = Client().get("/c/rooks/embed/schedule/").content.decode()
    assert "Club night" in page and "Church hall" in page and "19:30" in page
    assert 'href="/c/rooks/schedule/" target="_blank" rel="noopener"' in page


def test_embeds_obey_visibility(owner):
    unlisted = populate(make_club(slug="knights", owner=owner, visibility="unlisted"))["club"]
    hidden = populate(make_club(slug="bishops", owner=owner, visibility="director"))["club"]
    for suffix in ("embed/ladder/", "embed/schedule/"):
        assert Client().get(f"/c/knights/{suffix}").status_code == 404
        assert Client().get(f"/c/knights/s/{unlisted.secret}/{suffix}").status_code == 200
        assert Client().get(f"/c/knights/s/wrong-secret/{suffix}").status_code == 404
        assert Client().get(f"/c/bishops/{suffix}").status_code == 404
        assert Client().get(f"/c/bishops/s/{hidden.secret}/{suffix}").status_code == 404
    director = Client()
    director.force_login(owner)
    assert director.get("/c/bishops/embed/ladder/").status_code == 200


# --- framing ------------------------------------------------------------------------------


def test_an_embed_may_be_framed_by_the_clubs_sites_only(public):
    for path in ("/c/rooks/embed/ladder/", "/c/rooks/embed/schedule/"):
        for _twice in range(2):  # built, then kept: the header is on both
            response = Client().get(path)
            assert frame_ancestors(response) == f"frame-ancestors 'self' {SITE}"
            assert "X-Frame-Options" not in response
    # The rest of the policy is the site's.
    assert "script-src 'self'" in Client().get("/c/rooks/embed/ladder/")["Content-Security-Policy"]


def test_a_club_listing_no_site_lets_only_this_site_frame_its_embeds(owner):
    populate(make_club(slug="knights", owner=owner, visibility="public"))
    response = Client().get("/c/knights/embed/ladder/")
    assert frame_ancestors(response) == "frame-ancestors 'self'"


def test_every_other_page_still_forbids_frames(public):
    event = public["event"]
    for path in ("/c/rooks/", "/c/rooks/schedule/", f"/c/rooks/events/{event.pk}/", "/"):
        response = Client().get(path)
        assert response.status_code == 200, path
        assert response["X-Frame-Options"] == "DENY", path
        assert frame_ancestors(response) == "frame-ancestors 'none'", path


def test_a_changed_list_reaches_a_kept_embed_at_once(public):
    Client().get("/c/rooks/embed/ladder/")  # kept
    Club.objects.filter(slug="rooks").update(embed_origins=["https://new.example"])
    response = Client().get("/c/rooks/embed/ladder/")
    assert frame_ancestors(response) == "frame-ancestors 'self' https://new.example"


# --- CORS on the read API -----------------------------------------------------------------


def test_the_api_lets_a_listed_site_read_and_no_other(public):
    club = public["club"]
    path = api_path("ladder", slug=club.slug, ladder=club.first_ladder().slug)
    allowed = Client().get(path, headers={"Origin": SITE})
    assert allowed.status_code == 200
    assert allowed["Access-Control-Allow-Origin"] == SITE
    assert "Origin" in allowed["Vary"]
    assert "ETag" in allowed["Access-Control-Expose-Headers"]
    other = Client().get(path, headers={"Origin": "https://evil.example"})
    assert other.status_code == 200
    assert "Access-Control-Allow-Origin" not in other
    assert "Origin" in other["Vary"]
    assert "Access-Control-Allow-Origin" not in Client().get(path)
    # A 304 for the listed site says so too.
    again = Client().get(path, headers={"Origin": SITE, "If-None-Match": allowed["ETag"]})
    assert again.status_code == 304
    assert again["Access-Control-Allow-Origin"] == SITE


def test_a_site_listed_by_one_club_reads_no_other_club(public, owner):
    populate(make_club(slug="knights", owner=owner, visibility="public"))
    response = Client().get(api_path("club", slug="knights"), headers={"Origin": SITE})
    assert "Access-Control-Allow-Origin" not in response
    assert "Origin" not in response.get("Vary", "")


def test_no_cors_on_a_404(public):
    response = Client().get(api_path("club", slug="nosuch"), headers={"Origin": SITE})
    assert response.status_code == 404
    assert "Access-Control-Allow-Origin" not in response


# --- the settings screen ------------------------------------------------------------------


def test_a_director_lists_the_sites_and_copies_a_snippet(client, owner, public):
    client.force_login(owner)
    response = client.post(
        "/manage/rooks/settings/embeds/",
        {"origins": "https://club.example/\nhttp://localhost:8000"},
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="rooks")
    assert club.embed_origins == ["https://club.example", "http://localhost:8000"]
    assert club.pages_version > public["club"].pages_version
    entry = AuditEntry.objects.filter(club=club, action="embed_origins.changed").get()
    assert entry.details["new"] == club.embed_origins
    page = client.get("/manage/rooks/settings/").content.decode()
    assert "https://club.example\nhttp://localhost:8000" in page
    assert "&lt;iframe src=&quot;http://testserver/c/rooks/embed/ladder/?top=10&quot;" in page
    assert "loading=&quot;lazy&quot;" in page


def test_a_bad_site_is_refused_and_nothing_is_stored(client, owner, public):
    client.force_login(owner)
    response = client.post(
        "/manage/rooks/settings/embeds/", {"origins": "https://club.example/chess"}, follow=True
    )
    assert "without a path" in response.content.decode()
    assert Club.objects.get(slug="rooks").embed_origins == [SITE]


def test_an_unlisted_clubs_snippet_holds_its_secret_link(client, owner):
    club = make_club(slug="knights", owner=owner, visibility="unlisted")
    client.force_login(owner)
    page = client.get("/manage/knights/settings/").content.decode()
    assert f"http://testserver/c/knights/s/{club.secret}/embed/ladder/?top=10" in page


def test_another_clubs_director_may_not_change_the_list(client, outsider, public):
    client.force_login(outsider)
    response = client.post("/manage/rooks/settings/embeds/", {"origins": "https://evil.example"})
    assert response.status_code == 404
    assert Club.objects.get(slug="rooks").embed_origins == [SITE]
