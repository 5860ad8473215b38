"""The list of events a page at a time (issue 34): newest first as before, every event on
exactly one page, plain links between pages, and a line saying which events a page shows."""

import datetime as dt
import re

import pytest
from django.db import transaction

from clubs.models import Club, Event, Game, Player
from clubs.results import Result
from ladder.changes import LadderInput, OnPages, club_changed
from members.pages.events import event_list
from tests.factories import make_club, make_event
from tests.members.pages.test_pages import replay, table, tables, url

pytestmark = pytest.mark.django_db

PER_PAGE = 3
DAY = dt.date(2026, 1, 1)


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def small_pages(monkeypatch):
    monkeypatch.setattr(event_list, "EVENTS_PER_PAGE", PER_PAGE)


@pytest.fixture
def seven(public):
    """Seven events a day apart, the odd ones blitz; each won by a different player."""
    players = [Player.objects.create(club=public, name=f"Player {n}") for n in range(8)]
    for n in range(7):
        make_event(
            public,
            [(1, players[n], players[n + 1], Result.WHITE_WIN)],
            name=f"Night {n}",
            date=DAY + dt.timedelta(days=n),
            kind="blitz" if n % 2 else "standard",
        )
    replay(public)
    return players


def names(response) -> list[str]:
    return [row[1] for row in table(response, "events")]


def shown_line(response) -> str | None:
    found = re.search(r'<p id="events-shown">([^<]*)</p>', response.content.decode())
    return found.group(1) if found else None


def page_links(response) -> dict[str, str]:
    """The pager's links: label -> href (the current page is not a link)."""
    nav = re.search(
        r'<nav class="filters" aria-label="Events, page by page">(.*?)</nav>',
        response.content.decode(),
        re.S,
    )
    assert nav is not None
    links = re.findall(r'<a href="([^"]*)">([^<]*)</a>', nav[1])
    return {label: href for href, label in links}


def test_each_event_is_on_exactly_one_page_newest_first(client, public, seven, small_pages):
    pages = [client.get(url(public, "events/"), {"page": n} if n > 1 else {}) for n in (1, 2, 3)]
    assert [names(page) for page in pages] == [
        ["Night 6", "Night 5", "Night 4"],
        ["Night 3", "Night 2", "Night 1"],
        ["Night 0"],
    ]
    assert [shown_line(page) for page in pages] == [
        "Events 1–3 of 7, newest first: 7 Jan 2026 back to 5 Jan 2026.",
        "Events 4–6 of 7, newest first: 4 Jan 2026 back to 2 Jan 2026.",
        "Events 7–7 of 7, newest first: 1 Jan 2026 back to 1 Jan 2026.",
    ]


def test_the_pages_link_to_each_other_with_plain_links(client, public, seven, small_pages):
    response = client.get(url(public, "events/"), {"page": 2})
    assert page_links(response) == {"1": "?", "3": "?page=3"}
    html = response.content.decode()
    assert '<strong aria-current="page">2</strong>' in html
    # Following every link of the first page reaches every event once.
    first = client.get(url(public, "events/"))
    seen = names(first)
    for href in page_links(first).values():
        seen += names(client.get(url(public, "events/") + href))
    assert sorted(seen) == sorted(f"Night {n}" for n in range(7))


def test_a_later_page_names_its_winners(client, public, seven, small_pages):
    rows = table(client.get(url(public, "events/"), {"page": 3}), "events")
    assert rows[0][1] == "Night 0" and rows[0][3] == "Player 0"
    html = client.get(url(public, "events/"), {"page": 2}).content.decode()
    assert f'<a href="/c/knights/players/{seven[3].pk}/">Player 3</a>' in html


def test_the_kind_filter_is_paged_and_its_pages_keep_it(client, public, seven, small_pages):
    blitz = client.get(url(public, "events/"), {"kind": "blitz"})
    assert names(blitz) == ["Night 5", "Night 3", "Night 1"]
    assert shown_line(blitz) is None  # three blitz events: one page, said by the table itself
    standard = client.get(url(public, "events/"), {"kind": "standard", "page": 2})
    assert names(standard) == ["Night 0"]
    assert shown_line(standard) == "Events 4–4 of 4, newest first: 1 Jan 2026 back to 1 Jan 2026."
    assert page_links(standard) == {"1": "?kind=standard"}
    # Choosing a kind starts again at its first page.
    assert 'href="?kind=blitz"' in standard.content.decode()


@pytest.mark.parametrize("asked", ["0", "4", "99", "abc", "-1", " 2", "٢", "2.0", "1e1"])
def test_a_page_that_is_not_there_is_the_first(client, public, seven, small_pages, asked):
    response = client.get(url(public, "events/"), {"page": asked})
    assert response.status_code == 200
    assert names(response) == ["Night 6", "Night 5", "Night 4"]


def test_a_list_that_fits_one_page_is_as_before(client, public, seven):
    response = client.get(url(public, "events/"))
    assert names(response) == [f"Night {n}" for n in range(6, -1, -1)]
    assert shown_line(response) is None
    assert "page by page" not in response.content.decode()


def test_no_events_and_no_events_of_a_kind_say_so(client, public, small_pages):
    assert "No events published yet." in client.get(url(public, "events/")).content.decode()
    response = client.get(url(public, "events/"), {"kind": "rapid", "page": 2})
    assert "No events of this kind." in response.content.decode()
    assert tables(response, "events") == []


def test_a_club_of_250_events_shows_100_a_page(client, public):
    # Made without games: the pages' length is what is asked here, not the winners.
    Event.objects.bulk_create(
        Event(
            club=public,
            name=f"Evening {n:03d}",
            date=DAY + dt.timedelta(days=n),
            status=Event.Status.PUBLISHED,
        )
        for n in range(250)
    )
    first = client.get(url(public, "events/"))
    last = client.get(url(public, "events/"), {"page": 3})
    assert len(names(first)) == event_list.EVENTS_PER_PAGE == 100
    assert names(first)[0] == "Evening 249" and names(last)[-1] == "Evening 000"
    assert len(names(last)) == 50
    said = "Events 201–250 of 250, newest first: 19 Feb 2026 back to 1 Jan 2026."
    assert shown_line(last) == said
    assert list(page_links(first)) == ["2", "3"]


def test_the_unpaged_summaries_still_list_every_event(public, seven, small_pages):
    # The season report reads the whole list (members.seasons).
    listed = event_list.event_summaries(public)
    assert [e.name for e in listed] == [f"Night {n}" for n in range(6, -1, -1)]
    assert [e.kind for e in event_list.event_summaries(public, "blitz")] == ["Blitz"] * 3


# --- the winners, kept per process by the club's versions --------------------------------------


def corrected(club: Club, event_name: str, kind: str) -> None:
    """The event's one game won by black instead, as a correction writes it (through the
    door), and the replay the commit queues (a test's transaction never commits)."""
    with transaction.atomic():
        Game.objects.filter(event__name=event_name).update(result=Result.BLACK_WIN)
        club_changed(club.pk, LadderInput(kinds=frozenset({kind})))
    replay(club)


def winner_of(client, club: Club, event_name: str) -> str:
    rows = table(client.get(url(club, "events/")), "events")
    return next(row[3] for row in rows if row[1] == event_name)


def test_a_corrected_result_names_the_new_winner_on_the_next_page(client, public, seven):
    assert winner_of(client, public, "Night 6") == "Player 6"
    corrected(public, "Night 6", "standard")
    assert winner_of(client, public, "Night 6") == "Player 7"


def test_a_directors_list_names_the_new_winner_before_the_replay(client, owner, public, seven):
    # A director's pages are never kept whole: only the first places' versions are asked.
    client.force_login(owner)
    assert winner_of(client, public, "Night 6") == "Player 6"
    with transaction.atomic():
        Game.objects.filter(event__name="Night 6").update(result=Result.BLACK_WIN)
        club_changed(public.pk, LadderInput(kinds=frozenset({"standard"})))
    assert winner_of(client, public, "Night 6") == "Player 7"


def test_so_does_a_change_that_moves_no_ladder(client, owner, public, seven):
    client.force_login(owner)
    assert winner_of(client, public, "Night 5") == "Player 5"
    ladder = public.ladders.get()
    ladder.kinds = ["standard"]  # no ladder rates blitz now
    ladder.save(update_fields=["kinds"])
    with transaction.atomic():
        Game.objects.filter(event__name="Night 5").update(result=Result.BLACK_WIN)
        club_changed(public.pk, LadderInput(kinds=frozenset({"blitz"})))  # the club's pages_version
    assert winner_of(client, public, "Night 5") == "Player 6"


def test_a_renamed_winner_is_listed_under_the_new_name(client, public, seven):
    assert winner_of(client, public, "Night 2") == "Player 2"
    with transaction.atomic():
        Player.objects.filter(pk=seven[2].pk).update(name="Renamed Two")
        club_changed(public.pk, OnPages())
    assert winner_of(client, public, "Night 2") == "Renamed Two"


def test_each_events_first_place_is_computed_once_for_the_same_versions(
    client, public, seven, small_pages, monkeypatch
):
    asked: list[list[int]] = []
    first_players = event_list.first_players

    def counting(events, order):
        found = first_players(events, order)
        asked.append(sorted(events.values_list("name", flat=True)))
        return found

    monkeypatch.setattr(event_list, "first_players", counting)
    for _ in range(2):
        client.get(url(public, "events/"))
        client.get(url(public, "events/"), {"page": 2})
    assert asked == [["Night 4", "Night 5", "Night 6"], ["Night 1", "Night 2", "Night 3"]]
