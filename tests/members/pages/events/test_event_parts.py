"""The event page's rounds and wall chart on pages of their own, and a large event's rows in
pages (issue 27): nothing of the event is lost, every board and every entrant is on exactly
one page, and the links lead there."""

import re

import pytest
from django.test import Client

from clubs.models import Club, Player
from clubs.results import Result
from members.pages.events import event_pages, event_rounds
from tests.factories import make_club, make_event, new_player
from tests.members.pages.events.test_event_pages import event_url
from tests.members.pages.test_pages import replay, table, tables

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def open_event(public):
    """A Swiss of eight players and three rounds: twelve boards, every one played, nobody
    meeting anyone twice."""
    players = [
        new_player(club=public, name=f"Player {n}", start_rating=1200 + 25 * n, start_games=30)
        for n in range(8)
    ]
    results = [W, D, B, W]
    games = []
    pairings = [[0, 1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4, 5, 6, 7, 0], [0, 2, 1, 3, 4, 6, 5, 7]]
    for round_no, order in enumerate(pairings, start=1):
        pairs = zip(order[0::2], order[1::2], strict=True)
        for board, (white, black) in enumerate(pairs):
            games.append(
                (round_no, players[white], players[black], results[(board + round_no) % 4])
            )
    event = make_event(public, games, name="Winter Open", pairing_system="swiss")
    replay(public)
    return event


def boards(response) -> list[tuple[str, str, str]]:
    """Every board of every round table: white, result, black."""
    return [(row[1], row[2], row[3]) for rows in tables(response, "round") for row in rows[1:]]


def test_the_event_page_links_every_round_and_the_wall_chart(client, public, open_event):
    html = client.get(event_url(public, open_event)).content.decode()
    assert 'class="round"' not in html and 'class="wallchart"' not in html
    links = re.findall(r'href="((?:rounds|wallchart)/[^"]*)"', html)
    assert links == [
        "rounds/?round=1",
        "rounds/?round=2",
        "rounds/?round=3",
        "rounds/",
        "wallchart/",
    ]
    every = client.get(event_url(public, open_event, "rounds/"))
    assert len(boards(every)) == 12
    # Each round's own page shows that round's boards, and together they are every board.
    by_round = [
        boards(client.get(event_url(public, open_event, f"rounds/?round={n}"))) for n in (1, 2, 3)
    ]
    assert [len(b) for b in by_round] == [4, 4, 4]
    assert sorted(b for page in by_round for b in page) == sorted(boards(every))
    assert client.get(event_url(public, open_event, "wallchart/")).status_code == 200


def test_an_event_with_too_many_boards_shows_its_rounds_one_at_a_time(
    client, public, open_event, monkeypatch
):
    monkeypatch.setattr(event_rounds, "BOARDS_ON_ONE_PAGE", 5)
    monkeypatch.setattr(event_pages, "BOARDS_ON_ONE_PAGE", 5)
    html = client.get(event_url(public, open_event)).content.decode()
    assert re.findall(r'href="(rounds/[^"]*)"', html) == [
        "rounds/?round=1",
        "rounds/?round=2",
        "rounds/?round=3",
    ]  # no "All rounds": that page would be too long
    first = client.get(event_url(public, open_event, "rounds/"))
    assert len(tables(first, "round")) == 1 and len(boards(first)) == 4
    text = first.content.decode()
    assert '<strong aria-current="page">Round 1</strong>' in text
    assert 'href="?round=2"' in text and 'href="?round=3"' in text and "All rounds" not in text
    seen = [
        boards(client.get(event_url(public, open_event, f"rounds/?round={n}"))) for n in (1, 2, 3)
    ]
    flat = [b for page in seen for b in page]
    assert len(flat) == len(set(flat)) == 12  # every board on exactly one page


def test_a_round_robin_has_its_crosstable_on_the_event_page_and_no_wall_chart(client, public):
    a, b, c = (Player.objects.create(club=public, name=n) for n in ["Ann", "Bob", "Cid"])
    event = make_event(public, [(1, a, b, W), (2, b, c, D), (3, c, a, B)])
    html = client.get(event_url(public, event)).content.decode()
    assert 'class="crosstable"' in html and 'href="wallchart/"' not in html
    assert client.get(event_url(public, event, "wallchart/")).status_code == 404
    assert len(tables(client.get(event_url(public, event, "rounds/")), "round")) == 3


def test_a_large_events_standings_rating_changes_and_wall_chart_come_in_pages(
    client, public, open_event, monkeypatch
):
    monkeypatch.setattr(event_pages, "ROWS_PER_PAGE", 3)
    whole = {"standings": [], "rating-changes": [], "wallchart": []}
    for number in (1, 2, 3):
        page = client.get(event_url(public, open_event, f"?page={number}"))
        chart = client.get(event_url(public, open_event, f"wallchart/?page={number}"))
        whole["standings"] += table(page, "standings")
        whole["rating-changes"] += table(page, "rating-changes")
        whole["wallchart"] += table(chart, "wallchart")
        text = page.content.decode()
        first, last = 3 * number - 2, min(3 * number, 8)
        assert f'<strong aria-current="page">{first}–{last}</strong>' in text
    # Eight entrants in three pages: each once, in rank order, as on one page.
    names = [f"Player {n}" for n in range(8)]
    assert sorted(row[1] for row in whole["standings"]) == names
    assert sorted(row[0] for row in whole["rating-changes"]) == names
    assert [row[0] for row in whole["wallchart"]] == [str(rank) for rank in range(1, 9)]
    ranks = [int(row[0]) for row in whole["standings"]]
    assert ranks == sorted(ranks)
    # The standings after a round keep their round from page to page.
    after = client.get(event_url(public, open_event, "?after=1&page=2")).content.decode()
    assert 'href="?after=1&amp;page=3"' in after and "Standings after round 1 of 3" in after
    # A page that does not exist is the first.
    assert table(client.get(event_url(public, open_event, "?page=9")), "standings") == table(
        client.get(event_url(public, open_event, "?page=1")), "standings"
    )


def test_an_event_of_one_page_has_no_pager(client, public, open_event):
    html = client.get(event_url(public, open_event)).content.decode()
    assert "Players, page by page" not in html
    assert len(table(client.get(event_url(public, open_event)), "standings")) == 8


def test_the_events_pages_are_kept_like_the_event_page_each_apart(public, open_event):
    """The page cache keeps each of them (the same rules as the event page), and one
    round's page, one page of rows or the wall chart is never served for another."""
    kept = {}
    for part in ["", "?page=1", "rounds/", "rounds/?round=2", "rounds/?round=3", "wallchart/"]:
        first = Client().get(event_url(public, open_event, part))
        again = Client().get(event_url(public, open_event, part))
        assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit"), part
        assert again.content == first.content, part
        kept[part] = first.content
    assert len({kept[p] for p in ["rounds/", "rounds/?round=2", "rounds/?round=3"]}) == 3
    assert kept["rounds/"] != kept["wallchart/"] != kept[""]


def changes(response) -> list[list[str]]:
    """The rating-changes table's rows: name, before, games, score, expected, change, after,
    worked out."""
    return table(response, "rating-changes")


def test_a_small_events_rating_changes_are_on_its_page_and_their_own(client, public, open_event):
    page = client.get(event_url(public, open_event))
    assert 'href="ratings/"' not in page.content.decode()
    own = client.get(event_url(public, open_event, "ratings/"))
    assert own.status_code == 200
    assert len(changes(page)) == 8 and changes(own) == changes(page)
    assert 'href="../"' in own.content.decode()  # back to the standings


def test_a_large_events_rating_changes_are_on_their_own_page(
    client, public, open_event, monkeypatch
):
    monkeypatch.setattr(event_pages, "CHANGES_ON_EVENT_PAGE", 7)
    page = client.get(event_url(public, open_event))
    assert not tables(page, "rating-changes")
    assert 'href="ratings/"' in page.content.decode()
    rows = changes(client.get(event_url(public, open_event, "ratings/")))
    assert sorted(row[0] for row in rows) == [f"Player {n}" for n in range(8)]
    # Each row adds up, and the standings print the row's change beside the player.
    shown = {row[1]: row[-1] for row in table(page, "standings")}
    for name, before, _games, _score, _expected, change, after, _worked in rows:
        signed = float(change.replace("−", "-").replace("+", ""))
        assert round(float(before) + signed, 3) == float(after), name
        assert shown[name] == change, name
    # In pages of ROWS_PER_PAGE, every rated entrant on exactly one.
    monkeypatch.setattr(event_pages, "ROWS_PER_PAGE", 3)
    paged = [
        row[0]
        for number in (1, 2, 3)
        for row in changes(client.get(event_url(public, open_event, f"ratings/?page={number}")))
    ]
    assert sorted(paged) == sorted(row[0] for row in rows) and len(paged) == 8


def test_an_unrated_event_has_no_rating_changes_page(client, public):
    a, b = (new_player(club=public, name=n, start_rating=1500) for n in ["Ann", "Bob"])
    event = make_event(public, [(1, a, b, W)], name="Friendly", rated=False)
    replay(public)
    assert client.get(event_url(public, event)).status_code == 200
    assert client.get(event_url(public, event, "ratings/")).status_code == 404
