"""The members' live page of a club night: the round on the boards and the standings so
far, under the club's visibility and name rules, refreshed without JavaScript."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from clubs.models import Club, ClubRole, Event, PairingSystem, Player
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from directors.roster.players import add_player
from ladder.roster.rosters import load_roster
from members.pages.live_page import live_page
from tests.factories import make_club, make_event, make_user

pytestmark = pytest.mark.django_db

NAMES = ["Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood", "Eve Elm"]


def url(club: Club, suffix: str, secret: str | None = None) -> str:
    if secret is None:
        return reverse("club_page", args=[club.slug]) + suffix
    return reverse("club_page_secret", args=[club.slug, secret]) + suffix


def night(club: Club, *, junior: str | None = None) -> Event:
    players = [
        add_player(club, name, junior=name == junior, start_rating=None, user=None)
        for name in NAMES
    ]
    return evening.start_event(
        club, name="Tuesday night", date=dt.date(2026, 12, 1), system=PairingSystem.SWISS,
        rounds=3, players=players, user=None,
    )  # fmt: skip


@pytest.fixture
def public() -> Club:
    return make_club(slug="knights", visibility=Club.Visibility.PUBLIC)


def test_members_follow_the_round_as_results_come_in(client, public):
    event = night(public)
    before = client.get(url(public, f"events/{event.pk}/live/"))
    assert before.status_code == 200
    assert "The first round is not paired yet." in before.content.decode()
    night_rounds.pair_next_round(event.pk, None)
    playing = client.get(url(public, f"events/{event.pk}/live/")).content.decode()
    assert playing.count(">playing<") == 2  # two boards, no result yet
    # It reloads itself only for a visitor who asked, who can stop it.
    assert 'http-equiv="refresh"' not in playing and "?follow=1" in playing
    following = client.get(url(public, f"events/{event.pk}/live/?follow=1"))
    assert '<meta http-equiv="refresh" content="30">' in following.content.decode()
    assert "Stop reloading" in following.content.decode()
    assert following.get("Cache-Control", "").startswith("public")
    # No cache keeps it past the next ask: a result confirmed at a board shows at once.
    assert "max-age=0" in following["Cache-Control"] and "no-cache" in following["Cache-Control"]
    assert "Round 1 of 3 is being played." in playing
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    after = client.get(url(public, f"events/{event.pk}/live/")).content.decode()
    assert after.count(">playing<") == 1  # the kept page was replaced by the door
    assert "1–0" in after
    board_one = event.round_boards(1)[0]
    winner = Player.objects.get(pk=board_one.white.player_id)
    assert f'players/{winner.pk}/">{winner.name}</a>' in after
    assert "Rating change" not in after  # a draft moves no rating yet


def test_the_events_list_points_to_the_night_being_played(client, public):
    event = night(public)
    listed = client.get(url(public, "events/")).content.decode()
    assert f'events/{event.pk}/live/">Tuesday night</a>' in listed
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.DRAW, Result.DRAW], None)
    night_rounds.publish_night(event.pk, None)
    assert "Being played now" not in client.get(url(public, "events/")).content.decode()
    live = client.get(url(public, f"events/{event.pk}/live/"))
    assert live.status_code == 302 and live["Location"].endswith(f"events/{event.pk}/")


def test_a_junior_is_initials_on_the_live_page(client, public):
    event = night(public, junior="Bob Birch")
    night_rounds.pair_next_round(event.pk, None)
    html = client.get(url(public, f"events/{event.pk}/live/")).content.decode()
    assert "Bob Birch" not in html and "B. B." in html


def test_a_director_only_club_shows_its_night_to_no_visitor(client):
    owner = make_user("owner@example.org")
    club = make_club(slug="private", owner=owner, visibility=Club.Visibility.DIRECTOR)
    event = night(club)
    assert client.get(url(club, f"events/{event.pk}/live/")).status_code == 404
    client.force_login(owner)
    assert client.get(url(club, f"events/{event.pk}/live/")).status_code == 200


def test_an_unlisted_clubs_night_needs_the_secret_and_is_never_indexed(client):
    club = make_club(slug="hidden", visibility=Club.Visibility.UNLISTED)
    event = night(club)
    assert client.get(url(club, f"events/{event.pk}/live/")).status_code == 404
    response = client.get(url(club, f"events/{event.pk}/live/", club.secret))
    assert response.status_code == 200
    assert "noindex" in response["X-Robots-Tag"]
    assert "public" not in response.get("Cache-Control", "")


def test_only_a_night_of_this_club_has_a_live_page(client, public):
    other = make_club(slug="rooks", visibility=Club.Visibility.PUBLIC)
    theirs = night(other)
    uploaded = make_event(public, published=False)
    mine = night(public)
    assert client.get(url(public, f"events/{theirs.pk}/live/")).status_code == 404
    assert client.get(url(public, f"events/{uploaded.pk}/live/")).status_code == 404
    Event.objects.filter(pk=mine.pk).update(deleted_at=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    assert client.get(url(public, f"events/{mine.pk}/live/")).status_code == 404


def test_a_round_robin_night_ranks_alike_for_members_and_the_director(public):
    """Half-way through a round robin not every pair has met, yet it is one: the live page's
    standings must break ties as the director's do (a forfeit counts as a game there)."""
    players = [
        add_player(public, name, junior=False, start_rating=None, user=None) for name in NAMES
    ]
    event = evening.start_event(
        public, name="Robin", date=dt.date(2026, 12, 1), system=PairingSystem.ROUND_ROBIN,
        rounds=None, players=players, user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_FORFEIT_WIN, Result.DRAW], None)
    night_rounds.pair_next_round(event.pk, None)
    director = [
        (v.player, v.rank, v.buchholz, v.sonneborn_berger) for v in night_rounds.standings(event)
    ]
    page = live_page(event, load_roster(public, viewer_is_director=False), "?")
    members = [(s.entry_id, s.rank, *s.tiebreak_values[1:3]) for s in page.results.standings]
    assert members == director


def test_a_withdrawn_player_is_marked_in_the_live_standings(client, public):
    event = night(public)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.DRAW, Result.DRAW], None)
    gone = event.entries.select_related("player").get(player__name="Dee Dogwood")
    evening.withdraw(event.pk, gone.pk, None)
    html = client.get(url(public, f"events/{event.pk}/live/")).content.decode()
    assert f'{gone.player.name}</a> <span class="tag">withdrawn</span>' in html
    assert html.count(">withdrawn<") == 1
    # Back in the pairing, the mark goes.
    evening.withdraw(event.pk, gone.pk, None, back=True)
    assert ">withdrawn<" not in client.get(url(public, f"events/{event.pk}/live/")).content.decode()


def body_rows(html: str, after: str) -> list[str]:
    """The rows of the first table body after `after`, each from its first cell."""
    body = html.split(after, 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [row.strip() for row in body.split("<tr>")[1:]]


def test_the_bye_is_numbered_last_alike_on_the_sheet_the_live_page_and_the_event_page(
    client, public
):
    director = make_user("director@example.org")
    ClubRole.objects.create(club=public, user=director, role=ClubRole.Role.OWNER)
    event = night(public)  # five players: two boards and the bye, board 3
    night_rounds.pair_next_round(event.pk, None)
    bye = next(board for board in event.round_boards(1) if board.is_bye)
    name = bye.white.player.name
    assert bye.number == 3
    client.force_login(director)
    sheet = client.get(reverse("night_sheet", args=[public.slug, event.pk, 1])).content.decode()
    assert '<td class="board bye-label">3</td>' in sheet and sheet.index("bye-label") > sheet.index(
        '<td class="board">2</td>'
    )
    client.logout()
    live = client.get(url(public, f"events/{event.pk}/live/")).content.decode()
    rows = body_rows(live, "live-boards")
    assert [row.split("</td>", 1)[0] for row in rows] == [
        '<td class="num">1',
        '<td class="num">2',
        '<td class="num">3',
    ]
    assert name in rows[-1]
    night_rounds.enter_round_results(event.pk, 1, [Result.DRAW, Result.WHITE_WIN], None)
    night_rounds.publish_night(event.pk, None)
    page = client.get(url(public, f"events/{event.pk}/rounds/")).content.decode()
    first_round = body_rows(page, 'id="round-1"')
    assert len(first_round) == 3 and name in first_round[-1]
    assert first_round[-1].startswith('<td class="num">3</td>')


def test_a_correction_of_an_earlier_round_shows_at_once_on_the_live_page(public):
    event = night(public)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.WHITE_WIN], None)
    night_rounds.pair_next_round(event.pk, None)
    first = event.round_boards(1)[0]
    roster = load_roster(public, viewer_is_director=False)

    def points() -> dict[int, float]:
        return {s.entry_id: s.points for s in live_page(event, roster, "?").results.standings}

    before = points()
    night_rounds.enter_result(event.pk, 1, 1, Result.BLACK_WIN, None)
    after = points()
    assert after[first.white_id] == before[first.white_id] - 1
    assert after[first.black_id] == before[first.black_id] + 1
