"""Search and sort on the ladder and roster, kind filter on the events list (issue 18)."""

import datetime as dt

import pytest
from django.core.cache import caches

from clubs.models import Club, Event, Ladder, Player
from members.pages.list_options import (
    LADDER_COLUMNS,
    folded,
    games_to_go,
    matches,
    read_options,
)
from tests.factories import make_club, make_event
from tests.members.pages.test_pages import rated, table, url

# --- pure rules -------------------------------------------------------------------------------


def test_unknown_sort_or_direction_falls_back_to_the_default():
    options = read_options({"sort": "password", "dir": "sideways"}, LADDER_COLUMNS)
    assert (options.sort, options.dir) == ("rank", "asc")
    assert read_options({"sort": "rating"}, LADDER_COLUMNS).dir == "desc"


@pytest.mark.parametrize(
    ("name", "typed"),
    [
        ("Jan Brühl", "Bruhl"),
        ("Jan Brühl", "bruehl"),
        ("Jan Bruehl", "Brühl"),
        ("Jan Bruhl", "Brühl"),
        ("Eva Groß", "gross"),
        ("Eva Gross", "Groß"),
        ("Ööli Äbi", "oeoeli aebi"),
    ],
)
def test_search_finds_an_umlaut_typed_without_it_and_the_reverse(name, typed):
    assert matches(name, typed)


@pytest.mark.parametrize(
    ("name", "typed"),
    [("Mette Sørensen", "sorensen"), ("Łukasz Wójcik", "lukasz wojcik"), ("Sven Åberg", "aberg")],
)
def test_search_finds_letters_without_a_decomposition_typed_plainly(name, typed):
    assert matches(name, typed)


def test_an_umlaut_spelt_out_is_no_wildcard():
    assert not matches("Jan Brühl", "brhl")
    assert not matches("Jan Bruhl", "bruehl ann")


def test_search_ignores_case_and_accents_and_needs_every_word():
    assert folded("Müller") == "muller"
    assert matches("Anna Müller", "MULLER an")
    assert not matches("Anna Müller", "anna smit")


def test_games_to_go_counts_down_to_the_threshold_and_is_none_without_one():
    assert games_to_go(2, 5) == 3
    assert games_to_go(7, 5) == 0
    assert games_to_go(2, None) is None


# --- pages ------------------------------------------------------------------------------------

pytestmark = pytest.mark.django_db


@pytest.fixture
def public(owner):
    return make_club(slug="rooks", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def ladder(public):
    today = dt.date(2026, 3, 1)
    rated(public, "Ann Alder", 1500, 30, last_played=today, last_change=12.26)
    rated(public, "Bob Birch", 1600, 12, last_played=today - dt.timedelta(days=9), last_change=-3)
    rated(public, "Cid Cedar", 1700, 2, last_played=today - dt.timedelta(days=20))
    rated(public, "Jasper Bakker", 1400, 10, junior=True, last_played=today)
    return public


def names(response, css_class="ladder"):
    return [
        row[1 if css_class == "ladder" else 0].split(" provisional")[0]
        for row in table(response, css_class)
    ]


@pytest.mark.parametrize(
    ("sort", "direction", "expected"),
    [
        ("rank", "asc", ["Bob Birch", "Ann Alder", "J. B.", "Cid Cedar"]),
        ("rank", "desc", ["Cid Cedar", "J. B.", "Ann Alder", "Bob Birch"]),
        ("name", "asc", ["Ann Alder", "Bob Birch", "Cid Cedar", "J. B."]),
        ("name", "desc", ["J. B.", "Cid Cedar", "Bob Birch", "Ann Alder"]),
        ("rating", "desc", ["Cid Cedar", "Bob Birch", "Ann Alder", "J. B."]),
        ("rating", "asc", ["J. B.", "Ann Alder", "Bob Birch", "Cid Cedar"]),
        ("games", "desc", ["Ann Alder", "Bob Birch", "J. B.", "Cid Cedar"]),
        ("games", "asc", ["Cid Cedar", "J. B.", "Bob Birch", "Ann Alder"]),
        ("played", "desc", ["Ann Alder", "J. B.", "Bob Birch", "Cid Cedar"]),
        ("played", "asc", ["Cid Cedar", "Bob Birch", "Ann Alder", "J. B."]),
        # players without a change come last in both directions
        ("change", "desc", ["Ann Alder", "Bob Birch", "J. B.", "Cid Cedar"]),
        ("change", "asc", ["Bob Birch", "Ann Alder", "J. B.", "Cid Cedar"]),
    ],
)
def test_the_ladder_sorts_by_each_column_both_ways(client, ladder, sort, direction, expected):
    response = client.get(url(ladder), {"sort": sort, "dir": direction})
    assert names(response) == expected
    assert response.status_code == 200


def test_sorting_keeps_each_players_ladder_rank(client, ladder):
    rows = table(client.get(url(ladder), {"sort": "name"}), "ladder")
    assert [row[0] for row in rows] == ["2", "1", "4", "3"]


def test_bad_sort_params_show_the_default_order_and_never_fail(client, ladder):
    for params in (
        {"sort": "x"},
        {"dir": "up"},
        {"sort": "rating", "dir": "<b>"},
        {"q": "x" * 999},
    ):
        assert client.get(url(ladder), params).status_code == 200
        assert client.get(url(ladder, "players/"), params).status_code == 200
    assert names(client.get(url(ladder), {"sort": "nope"})) == names(client.get(url(ladder)))


def test_sort_links_are_plain_links_that_flip_the_sorted_column(client, ladder):
    html = client.get(url(ladder), {"sort": "rating", "dir": "desc", "active": "1"}).content
    html = html.decode()
    assert 'aria-sort="descending"' in html
    assert 'href="?active=1&amp;sort=rating&amp;dir=asc"' in html
    assert 'href="?active=1&amp;sort=name&amp;dir=asc"' in html


def test_search_finds_players_by_the_name_the_page_shows(client, ladder):
    assert names(client.get(url(ladder), {"q": "birch"})) == ["Bob Birch"]
    assert names(client.get(url(ladder, "players/"), {"q": "ALDER"}), "roster") == ["Ann Alder"]


def test_a_junior_shown_as_initials_is_not_found_by_the_full_name(client, ladder):
    for path, css in (("", "ladder"), ("players/", "roster")):
        for q in ("Jasper", "Bakker", "jasper bakker"):
            response = client.get(url(ladder, path), {"q": q})
            assert f'class="{css}"' not in response.content.decode()  # no table: no match
            assert "matches this search" in response.content.decode()
        assert names(client.get(url(ladder, path), {"q": "J. B."}), css) == ["J. B."]


def test_the_roster_sorts_by_each_column_both_ways(client, ladder):
    Player.objects.create(club=ladder, name="Eve Elm")
    for sort in ("name", "rating", "status", "games", "played"):
        asc = names(client.get(url(ladder, "players/"), {"sort": sort, "dir": "asc"}), "roster")
        desc = names(client.get(url(ladder, "players/"), {"sort": sort, "dir": "desc"}), "roster")
        assert len(asc) == 5 and asc != desc
    by_rating = names(client.get(url(ladder, "players/"), {"sort": "rating"}), "roster")
    assert by_rating[0] == "Cid Cedar" and by_rating[-1] == "Eve Elm"  # unrated last


def test_provisional_players_see_how_many_rated_games_to_go(client, ladder):
    Ladder.objects.filter(club=ladder).update(rating_settings={"provisional_below": 8})
    rows = table(client.get(url(ladder, "players/")), "roster")
    cid = next(row for row in rows if row[0] == "Cid Cedar")
    assert "6 more rated games to be established" in cid[2]


def test_the_last_change_is_marked_up_or_down_in_words_not_colour_alone(client, ladder):
    html = client.get(url(ladder)).content.decode()
    assert '<span aria-hidden="true">▲</span><span class="visually-hidden">up</span> +12.3' in html
    assert '<span aria-hidden="true">▼</span><span class="visually-hidden">down</span> −3.0' in html


def test_both_pages_show_the_date_each_player_last_played(client, ladder):
    ladder_rows = table(client.get(url(ladder)), "ladder")
    roster_rows = table(client.get(url(ladder, "players/")), "roster")
    assert all(row[4] != "—" for row in ladder_rows)
    assert all(row[4] != "—" for row in roster_rows)


# --- page cache -------------------------------------------------------------------------------


def test_sorted_pages_are_kept_once_whatever_the_order_of_the_params(client, ladder):
    caches["pages"].clear()
    first = client.get(url(ladder), {"sort": "rating", "dir": "desc"})
    second = client.get(url(ladder) + "?dir=desc&sort=rating")
    other = client.get(url(ladder), {"sort": "rating", "dir": "asc"})
    assert first["X-Page-Cache"] == "miss"
    assert second["X-Page-Cache"] == "hit"
    assert other["X-Page-Cache"] == "miss"
    assert names(other) != names(second)


def test_searches_and_unknown_values_are_never_kept(client, ladder):
    caches["pages"].clear()
    for params in ({"q": "ann"}, {"sort": "secret"}, {"kind": "nope"}):
        for _ in range(2):
            assert "X-Page-Cache" not in client.get(url(ladder), params)


# --- events -----------------------------------------------------------------------------------


def test_the_events_list_filters_by_kind_and_an_unknown_kind_shows_all(client, public):
    a = Player.objects.create(club=public, name="Ann Alder")
    make_event(public, name="Rapid night", kind=Event.Kind.RAPID)
    make_event(public, name="Long game", kind=Event.Kind.STANDARD)
    del a

    def listed(params):
        return [row[1] for row in table(client.get(url(public, "events/"), params), "events")]

    assert listed({"kind": "rapid"}) == ["Rapid night"]
    assert sorted(listed({"kind": "bogus"})) == ["Long game", "Rapid night"]
    assert sorted(listed({})) == ["Long game", "Rapid night"]
