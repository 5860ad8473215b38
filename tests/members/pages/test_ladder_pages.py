"""The club pages of a club with two ladders: the front page and the tabs, each ladder's page
and downloads, a player's page per ladder, and the line of an event page that names its
ladder. Who may see them, the names they show and the page cache, as for one ladder."""

import csv
import datetime as dt
import io
import json
import re
from itertools import pairwise

import pytest
from django.core.cache import caches
from django.urls import reverse

from clubs.models import Club, Event, Ladder, Player
from clubs.results import Result
from directors.ladders.changes import rename_ladder
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, PlayerEventResult
from ladder.page_texts import half_up
from ladder.replay import replay_ladder
from ladder.roster.ladders import set_kinds
from members.web import page_cache
from tests.factories import make_club, make_event

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def url(club: Club, suffix: str = "") -> str:
    """A club page as a visitor reaches it: with the secret unless the club is public."""
    if club.visibility == Club.Visibility.PUBLIC:
        return reverse("club_page", args=[club.slug]) + suffix
    return reverse("club_page_secret", args=[club.slug, club.secret]) + suffix


def add_blitz(club: Club) -> Ladder:
    """A second ladder, Blitz, that takes the blitz nights from the first."""
    blitz = Ladder.objects.create(club=club, slug="blitz", name="Blitz", position=1, kinds=[])
    set_kinds(blitz, ["blitz"], take=True)
    return blitz


def two_ladders(club: Club) -> tuple[list[Player], dict[str, Event]]:
    """Four players (the first a junior without consent), two standard events and two blitz
    nights in which the results go the other way, replayed onto the two ladders."""
    add_blitz(club)
    players = [
        Player.objects.create(club=club, name="Jasper Bakker", junior=True),
        Player.objects.create(club=club, name="Henk Bos"),
        Player.objects.create(club=club, name="Ingrid Dekker"),
        Player.objects.create(club=club, name="Lotte Smit"),
    ]
    jasper, henk, ingrid, lotte = players
    events = {
        "standard": make_event(
            club, [(1, jasper, henk, W), (1, ingrid, lotte, W), (2, jasper, ingrid, D)],
            name="Spring league", date=dt.date(2026, 1, 10), kind="standard",
        ),
        "standard2": make_event(
            club, [(1, henk, lotte, D), (1, jasper, ingrid, W)],
            name="Summer league", date=dt.date(2026, 2, 10), kind="standard",
        ),
        "blitz": make_event(
            club, [(1, jasper, henk, B), (1, ingrid, lotte, B), (2, henk, lotte, W)],
            name="Blitz night", date=dt.date(2026, 1, 20), kind="blitz",
        ),
        "blitz2": make_event(
            club, [(1, henk, ingrid, W), (1, lotte, jasper, D)],
            name="Second blitz night", date=dt.date(2026, 2, 20), kind="blitz",
        ),
    }  # fmt: skip
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return players, events


def ladder_of(club: Club, slug: str) -> Ladder:
    return Ladder.objects.get(club=club, slug=slug)


def standings(club: Club, slug: str) -> list[tuple[int, int]]:
    """(player id, whole rating) of everyone rated on the ladder, best first, from its rows."""
    rows = LadderRating.objects.filter(
        ladder=ladder_of(club, slug), rated_games__gt=0, rating__isnull=False
    )
    return [(r.player_id, half_up(r.rating)) for r in sorted(rows, key=lambda r: -r.rating)]


def ladder_rows(html: str) -> list[tuple[int, int]]:
    """(player id, rating) of each row of the ladder table, in the page's order."""
    body = re.search(r'<table class="ladder">.*?</table>', html, re.S).group(0)
    return [
        (int(pid), int(rating))
        for pid, rating in re.findall(
            r'players/(\d+)/">.*?</td><td class="num">(\d+)</td>', body, re.S
        )
    ]


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def unlisted(owner):
    return make_club(slug="bishops", owner=owner, visibility=Club.Visibility.UNLISTED)


# --- the front page, the tabs and each ladder's page -------------------------------------------


def test_the_front_page_shows_the_first_ladder_with_a_tab_to_the_other(client, public):
    two_ladders(public)
    html = client.get(url(public)).content.decode()
    assert ladder_rows(html) == standings(public, "main")
    tabs = re.search(r'<nav class="filters ladder-tabs".*?</nav>', html, re.S).group(0)
    assert f'href="{url(public, "ladders/blitz/")}">Blitz</a>' in tabs
    assert '<strong aria-current="page">Ladder</strong>' in tabs


def test_each_ladder_has_its_page_with_its_own_numbers_and_name(client, public):
    two_ladders(public)
    response = client.get(url(public, "ladders/blitz/"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "<h1>Blitz</h1>" in html and "<title>Blitz · Knights</title>" in html
    assert ladder_rows(html) == standings(public, "blitz")
    assert standings(public, "blitz") != standings(public, "main")  # the test can tell them apart
    assert f'<a href="{url(public)}">Ladder</a>' in html  # the tab back to the first
    # Its filter and downloads stay on this ladder.
    for link in ["?active=1", "ladder.csv", "ladder.json", "seeding.trf", "seeding.csv"]:
        assert f'href="{url(public, "ladders/blitz/")}{link}' in html, link


def test_a_club_with_one_ladder_shows_no_tabs(client, public):
    henk, ingrid = (
        Player.objects.create(club=public, name="Henk Bos"),
        Player.objects.create(club=public, name="Ingrid Dekker"),
    )
    make_event(public, [(1, henk, ingrid, W)], kind="blitz")
    replay_ladder(public.pk, full=True)
    html = client.get(url(public)).content.decode()
    assert "ladder-tabs" not in html and "<h1>Ladder</h1>" in html


def test_an_unknown_ladder_is_a_404_and_the_first_ladders_own_address_leads_to_the_front_page(
    client, public
):
    two_ladders(public)
    for suffix in ["ladders/nope/", "ladders/nope/ladder.csv", "ladders/nope/ladder.json"]:
        assert client.get(url(public, suffix)).status_code == 404, suffix
    response = client.get(url(public, "ladders/main/?sort=rating&dir=asc"))
    assert response.status_code == 302
    assert response["Location"] == url(public, "?sort=rating&dir=asc")


def test_sort_search_and_the_active_filter_work_on_every_ladder(client, public):
    (_jasper, _henk, ingrid, _lotte), _events = two_ladders(public)
    blitz = url(public, "ladders/blitz/")
    by_rating_up = ladder_rows(client.get(blitz + "?sort=rating&dir=asc").content.decode())
    assert by_rating_up == sorted(standings(public, "blitz"), key=lambda row: row[1])
    found = ladder_rows(client.get(blitz + "?q=dekker").content.decode())
    assert [pid for pid, _r in found] == [ingrid.pk]
    # Nobody has played in the last 12 months of the server's today? Then ?active=1 is empty
    # on both; either way it keeps to the ladder asked for.
    active = client.get(blitz + "?active=1").content.decode()
    assert 'href="' + blitz + '">Show everyone' in active


def test_each_ladders_downloads_hold_that_ladders_numbers(client, public):
    two_ladders(public)
    for slug, prefix in [("main", ""), ("blitz", "ladders/blitz/")]:
        data = json.loads(client.get(url(public, prefix + "ladder.json")).content)
        assert data["ladder"] == slug
        expected = [rating for _pid, rating in standings(public, slug)]
        assert [p["rating"] for p in data["players"]] == expected, slug
        response = client.get(url(public, prefix + "ladder.csv"))
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [int(r["rating"]) for r in rows] == expected, slug
        assert response["X-Ladder-Status"] == "current"
    blitz_csv = client.get(url(public, "ladders/blitz/ladder.csv"))
    assert 'filename="knights-blitz-ladder.csv"' in blitz_csv["Content-Disposition"]


# --- who may see them, and the names they show -------------------------------------------------

LADDER_PAGES = [
    "ladders/blitz/",
    "ladders/blitz/ladder.csv",
    "ladders/blitz/ladder.json",
    "ladders/blitz/seeding.trf",
    "ladders/blitz/seeding.csv",
]


@pytest.mark.parametrize("persona", ["anonymous", "outsider"])
def test_an_outsider_gets_404_from_every_ladder_page_of_a_directors_only_club(
    client, club, outsider, persona
):
    two_ladders(club)
    assert club.visibility == Club.Visibility.UNLISTED
    club.visibility = Club.Visibility.DIRECTOR
    club.save()
    if persona == "outsider":
        client.force_login(outsider)
    base = reverse("club_page", args=[club.slug])
    secret = reverse("club_page_secret", args=[club.slug, club.secret])
    for suffix in LADDER_PAGES:
        for page in (base + suffix, secret + suffix):
            assert client.get(page).status_code == 404, page


def test_an_unlisted_clubs_ladder_pages_open_only_with_the_secret(client, unlisted):
    two_ladders(unlisted)
    base = reverse("club_page", args=[unlisted.slug])
    secret = reverse("club_page_secret", args=[unlisted.slug, unlisted.secret])
    wrong = reverse("club_page_secret", args=[unlisted.slug, "not-the-secret"])
    for suffix in LADDER_PAGES:
        assert client.get(base + suffix).status_code == 404, suffix
        assert client.get(wrong + suffix).status_code == 404, suffix
        response = client.get(secret + suffix)
        assert response.status_code == 200, suffix
        assert response["X-Robots-Tag"] == "noindex, nofollow", suffix
    html = client.get(secret + "ladders/blitz/").content.decode()
    # Its tabs keep the secret: a visitor never falls off onto the 404 of the plain address.
    assert f'href="{secret}">Ladder</a>' in html and 'name="robots" content="noindex' in html


def test_a_junior_is_shown_by_initials_on_each_ladder_and_its_downloads(client, public):
    two_ladders(public)
    for suffix in ["", *LADDER_PAGES]:
        content = client.get(url(public, suffix)).content.decode()
        assert "Jasper" not in content and "Bakker" not in content, suffix
    html = client.get(url(public, "ladders/blitz/")).content.decode()
    assert "J. B." in html and "Henk Bos" in html


def test_the_sitemap_lists_a_public_clubs_other_ladders_and_no_hidden_ones(
    client, public, unlisted
):
    two_ladders(public)
    two_ladders(unlisted)
    sitemap = client.get("/sitemap.xml").content.decode()
    assert "/c/knights/ladders/blitz/</loc>" in sitemap
    assert "/c/knights/ladders/main/" not in sitemap  # the first is the club's page itself
    assert "bishops" not in sitemap


# --- the page cache ----------------------------------------------------------------------------


def test_a_replay_of_one_ladder_never_leaves_its_page_stale_and_each_ladder_is_kept_apart(
    client, public
):
    (jasper, _henk, _ingrid, _lotte), events = two_ladders(public)
    front, blitz = url(public), url(public, "ladders/blitz/")
    assert client.get(blitz)["X-Page-Cache"] == "miss"
    assert client.get(blitz)["X-Page-Cache"] == "hit"
    first = client.get(front)
    assert first["X-Page-Cache"] == "miss"  # its own key, not the blitz page's copy
    assert ladder_rows(first.content.decode()) == standings(public, "main")
    # A correction to a blitz night, replayed: the blitz page shows the new numbers at once.
    game = events["blitz"].games.get(round=1, white__player=jasper)
    game.result = W
    game.save()
    club_changed(public.pk, LadderInput(kinds=frozenset({"blitz"}), from_date=events["blitz"].date))
    replay_ladder(public.pk)
    after = client.get(blitz)
    assert ladder_rows(after.content.decode()) == standings(public, "blitz")
    assert after["X-Page-Cache"] == "miss"
    assert ladder_rows(client.get(front).content.decode()) == standings(public, "main")


NOTICE = "The ladder is being recalculated."


def test_the_recalculating_notice_is_on_the_page_of_the_ladder_that_is_behind(client, public):
    _players, events = two_ladders(public)
    front, blitz = url(public), url(public, "ladders/blitz/")
    assert NOTICE not in client.get(front).content.decode()
    assert NOTICE not in client.get(blitz).content.decode()
    # A change to a blitz night, not replayed yet (no job runs inside the test's transaction).
    club_changed(public.pk, LadderInput(kinds=frozenset({"blitz"}), from_date=events["blitz"].date))
    assert not ladder_of(public, "blitz").is_current and ladder_of(public, "main").is_current
    kept_blitz, kept_front = client.get(blitz), client.get(front)
    assert kept_blitz["X-Page-Cache"] == kept_front["X-Page-Cache"] == "hit"
    assert NOTICE in kept_blitz.content.decode()
    assert NOTICE not in kept_front.content.decode()
    caches[page_cache.CACHE_ALIAS].clear()  # and as built afresh
    assert NOTICE in client.get(blitz).content.decode()
    assert NOTICE not in client.get(front).content.decode()
    assert client.get(url(public, "ladders/blitz/ladder.csv"))["X-Ladder-Status"] == "recalculating"
    assert client.get(url(public, "ladder.csv"))["X-Ladder-Status"] == "current"


# --- a player's page, per ladder ---------------------------------------------------------------


def part_of(html: str, slug: str) -> str:
    """The part of a player's page about one ladder."""
    start = html.index(f'<section class="ladder-part" aria-labelledby="ladder-{slug}">')
    rest = html[start + 1 :]
    marks = ('<section class="ladder-part"', 'id="record-title"')
    ends = [rest.index(m) for m in marks if m in rest]
    return rest[: min(ends)]


def chart_points(part: str) -> list[str]:
    """The written value of each marked event point of the part's chart (not the start)."""
    svg = re.search(r"<svg .*?</svg>", part, re.S).group(0)
    return re.findall(r'<circle class="rated"[^>]*><title>[^<]*: ([^<]*)</title>', svg)


def test_a_players_page_has_a_rating_and_a_chart_per_ladder_first_ladder_first(client, public):
    (_jasper, henk, _ingrid, _lotte), _events = two_ladders(public)
    html = client.get(url(public, f"players/{henk.pk}/")).content.decode()
    assert html.index('ladder-part" aria-labelledby="ladder-main') < html.index(
        'aria-labelledby="ladder-blitz'
    )
    for slug in ["main", "blitz"]:
        ladder = ladder_of(public, slug)
        row = LadderRating.objects.get(ladder=ladder, player=henk)
        part = part_of(html, slug)
        rating = re.search(r"<dt>Rating</dt><dd>(\d+)</dd>", part).group(1)
        games = re.search(r"<dt>Rated games</dt><dd>(\d+)</dd>", part).group(1)
        assert (int(rating), int(games)) == (half_up(row.rating), row.rated_games), slug
        stored = PlayerEventResult.objects.filter(ladder=ladder, player=henk).order_by("position")
        assert chart_points(part) == [str(half_up(r.post_rating)) for r in stored], slug
        assert len(stored) == 2
        # Each worked sum starts from the rating before that event on this ladder, and ends
        # where the next one on this ladder starts: the sums chain per ladder.
        screen = part.split('<div class="print-only">')[0]
        sums = re.findall(r"Rating ([\d.]+) before the event, ([\d.]+) after it", screen)
        oldest_first = [(float(a), float(b)) for a, b in reversed(sums)]
        assert [a for a, _b in oldest_first] == [round(r.pre_rating, 1) for r in stored], slug
        assert [b for _a, b in oldest_first] == [round(r.post_rating, 1) for r in stored], slug
        assert all(b == a for (_x, b), (a, _y) in pairwise(oldest_first)), slug
    # One lifetime record, of every game.
    assert html.count('id="record-title"') == 1
    assert len(set(re.findall(r' id="([^"]+)"', html))) == len(re.findall(r' id="([^"]+)"', html))


def test_a_player_on_one_ladder_has_the_page_they_always_had(client, public):
    add_blitz(public)
    henk, ingrid = (
        Player.objects.create(club=public, name="Henk Bos"),
        Player.objects.create(club=public, name="Ingrid Dekker"),
    )
    make_event(public, [(1, henk, ingrid, W)], kind="standard")
    replay_ladder(public.pk, full=True)
    html = client.get(url(public, f"players/{henk.pk}/")).content.decode()
    assert "ladder-part" not in html
    assert '<title id="chart-title">' in html and 'id="events"' in html
    row = LadderRating.objects.get(ladder=ladder_of(public, "main"), player=henk)
    assert f"<dt>Rating</dt><dd>{half_up(row.rating)}</dd>" in html


def test_a_player_only_on_the_second_ladder_sees_its_name_over_their_numbers(client, public):
    add_blitz(public)
    henk, ingrid = (
        Player.objects.create(club=public, name="Henk Bos"),
        Player.objects.create(club=public, name="Ingrid Dekker"),
    )
    make_event(public, [(1, henk, ingrid, W)], kind="blitz", name="Blitz night")
    replay_ladder(public.pk, full=True)
    html = client.get(url(public, f"players/{henk.pk}/")).content.decode()
    assert '<h2 id="ladder-blitz">Blitz</h2>' in html and "ladder-main" not in html
    row = LadderRating.objects.get(ladder=ladder_of(public, "blitz"), player=henk)
    assert f"<dt>Rating</dt><dd>{half_up(row.rating)}</dd>" in part_of(html, "blitz")


def test_a_year_page_shows_only_the_ladders_played_on_that_year(client, public):
    (_jasper, henk, ingrid, _lotte), _events = two_ladders(public)
    make_event(public, [(1, henk, ingrid, W)], kind="blitz", date=dt.date(2025, 6, 1))
    replay_ladder(public.pk, full=True)
    html = client.get(url(public, f"players/{henk.pk}/?year=2025")).content.decode()
    assert '<h2 id="ladder-blitz">Blitz</h2>' in html and "ladder-main" not in html
    both = client.get(url(public, f"players/{henk.pk}/?year=2026")).content.decode()
    assert "ladder-main" in both and "ladder-blitz" in both


# --- the event page says which ladder it fed ---------------------------------------------------


def fed_line(client, club: Club, event: Event) -> str:
    html = client.get(url(club, f"events/{event.pk}/")).content.decode()
    found = re.search(r'<p class="fed-ladder">(.*?)</p>', html, re.S)
    return found.group(1).strip() if found else ""


def test_an_event_page_names_the_ladder_it_fed(client, public):
    _players, events = two_ladders(public)
    blitz_link = f'<a href="{url(public, "ladders/blitz/")}">Blitz</a>'
    assert fed_line(client, public, events["blitz"]) == f"Rated on the {blitz_link} ladder."
    # The first ladder's own name, "Ladder", is not followed by the word again.
    main_link = f'<a href="{url(public)}">Ladder</a>'
    assert fed_line(client, public, events["standard"]) == f"Rated on the {main_link}."


def test_a_ladder_named_as_a_ladder_is_not_called_a_ladder_twice(client, public, unlisted):
    _players, events = two_ladders(public)
    blitz = Ladder.objects.get(club=public, slug="blitz")
    rename_ladder(blitz, "Blitz ladder", user=None)
    blitz_link = f'<a href="{url(public, "ladders/blitz/")}">Blitz ladder</a>'
    assert fed_line(client, public, events["blitz"]) == f"Rated on the {blitz_link}."
    # A name that merely holds the word elsewhere keeps the sentence's own.
    rename_ladder(blitz, "Ladders of blitz", user=None)
    assert "</a> ladder." in fed_line(client, public, events["blitz"])
    _players, events = two_ladders(unlisted)
    rename_ladder(Ladder.objects.get(club=unlisted, slug="blitz"), "Blitz Ladder", user=None)
    shared = reverse("shared_event", args=[events["blitz"].share_token])
    html = client.get(shared).content.decode()
    assert '<p class="fed-ladder">Rated on the Blitz Ladder.</p>' in html


def test_an_events_own_link_names_its_ladder_without_a_way_into_the_club(client, unlisted):
    _players, events = two_ladders(unlisted)
    html = client.get(reverse("shared_event", args=[events["blitz"].share_token])).content.decode()
    assert '<p class="fed-ladder">Rated on the Blitz ladder.</p>' in html
    assert unlisted.secret not in html and "ladders/blitz/" not in html


def test_an_event_page_says_why_it_fed_no_ladder(client, public):
    (jasper, henk, _ingrid, _lotte), _events = two_ladders(public)
    unrated = make_event(public, [(1, jasper, henk, W)], kind="standard", rated=False)
    bughouse = make_event(public, [(1, jasper, henk, W)], kind="bughouse")
    set_kinds(ladder_of(public, "main"), ["standard", "other"])  # nobody rates rapid now
    rapid = make_event(public, [(1, jasper, henk, W)], kind="rapid")
    replay_ladder(public.pk, full=True)
    assert fed_line(client, public, unrated) == "Not rated: the club entered this event as unrated."
    assert fed_line(client, public, bughouse) == "Not rated: bughouse is never rated."
    assert fed_line(client, public, rapid) == (
        "Not rated: no ladder of the club rates this kind of event (Rapid)."
    )
    assert not PlayerEventResult.objects.filter(event=rapid).exclude(change=0).exists()
    html = client.get(url(public, f"events/{rapid.pk}/")).content.decode()
    assert " · not rated</p>" in html
    listed = client.get(url(public, "events/")).content.decode()
    rows = re.findall(r'events/(\d+)/">[^<]*</a></td>.*?<td>([^<]*)</td></tr>', listed, re.S)
    shown = {int(pk): ladder for pk, ladder in rows}
    assert shown[rapid.pk] == shown[bughouse.pk] == shown[unrated.pk] == "not rated"


def test_the_events_list_names_each_events_ladder(client, public):
    _players, events = two_ladders(public)
    html = client.get(url(public, "events/")).content.decode()
    rows = re.findall(r'events/(\d+)/">[^<]*</a></td>.*?<td>([^<]*)</td></tr>', html, re.S)
    shown = {int(pk): ladder for pk, ladder in rows}
    assert shown[events["blitz"].pk] == "Blitz" and shown[events["standard"].pk] == "Ladder"


# --- what the pages cost ----------------------------------------------------------------------

# An anonymous visitor of a club with two ladders, the page cache empty: the club (with its
# ladders' versions and first ladder), the club's ladders, then what the page reads.
QUERIES = {
    # The club and its ladders are one query (ClubQuerySet.with_ladders).
    "ladders/blitz/": 2,  # club with its ladders, the blitz roster
    "ladders/blitz/ladder.json": 2,
    # club with its ladders, stored lifetime, shown results with their games, each ladder's
    # results (its part's outline), one roster per ladder
    "players/{player}/": 6,
    # club with its ladders, event with its kept standings, roster, entries, games, results,
    # its ladder
    "events/{event}/": 7,
    "events/": 5,  # club with its ladders, events, roster, games (winners), club nights
}


@pytest.mark.parametrize("more", [0, 6], ids=["small", "larger"])
@pytest.mark.parametrize("page", QUERIES)
def test_each_ladder_page_runs_a_fixed_number_of_queries(
    client, public, page, more, django_assert_num_queries
):
    """However many events and players: the same queries."""
    (_jasper, henk, _ingrid, _lotte), events = two_ladders(public)
    others = [Player.objects.create(club=public, name=f"Extra {n}") for n in range(more)]
    for n, (white, black) in enumerate(zip(others[::2], others[1::2], strict=True)):
        day = dt.date(2026, 3, 1 + n)
        make_event(public, [(1, white, black, D), (2, henk, white, W)], kind="blitz", date=day)
        make_event(public, [(1, black, henk, B)], kind="standard", date=day)
    replay_ladder(public.pk, full=True)
    path = url(public, page.format(player=henk.pk, event=events["blitz"].pk))
    with django_assert_num_queries(QUERIES[page]):
        assert client.get(path).status_code == 200
