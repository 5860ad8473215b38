"""The director's pairing tools and the evening's printed pages through the views (issue
22, parts 5 and 6): pairing sheet, hand changes, never-pair lists, standings on a phone,
byes numbered last everywhere."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubs.models import AuditEntry, Board, Event, NeverPair, PairingSystem, Round
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from directors.roster.players import add_player
from ladder.roster.rosters import load_roster
from members.pages.events.event_rounds import rounds_page
from tests.factories import make_club, rated_players, set_standing

pytestmark = pytest.mark.django_db

NAMES = ["Ana Alves", "Ben Brook", "Cleo Cruz", "Dev Dutta", "Eva Engel"]


@pytest.fixture
def roster(club):
    players = [add_player(club, n, junior=False, start_rating=None, user=None) for n in NAMES]
    for rating, player in zip([1800, 1700, 1600, 1500, 1400], players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20, provisional=False)
    return list(rated_players().filter(pk__in=[p.pk for p in players]).order_by("-rating"))


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def night(club, players, rounds=3, **options) -> Event:
    return evening.start_event(
        club, name="Tuesday night", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=rounds, players=players, user=None, first_colour="white", **options,
    )  # fmt: skip


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def test_the_pairing_sheet_shows_club_round_of_rounds_ratings_and_the_bye_last(
    signed_in, club, roster
):
    event = night(club, roster)
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_sheet", event, 1)).content.decode()
    assert club.name in html
    assert "Round 1 of 3" in html
    assert '<span class="rating">1800</span>' in html
    body = html[html.index("<tbody>") : html.index("</tfoot>")]
    assert body.index('id="bye"') > body.rindex('<td class="board">2</td>')  # the bye last
    bye = body[body.index('id="bye"') :]
    assert '<span class="who">Eva Engel</span>' in bye
    assert '<td class="board bye-label">3</td>' in bye


def test_the_bye_is_numbered_last_on_the_event_page_too(signed_in, club, roster):
    event = night(club, roster)
    night_rounds.pair_next_round(event.pk, None)
    # Results come in board 2 first: the games are stored after the bye's, out of order.
    night_rounds.enter_result(event.pk, 1, 2, Result.DRAW, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.WHITE_WIN, None)
    # The rounds board by board are the event's rounds page since issue 27.
    page = rounds_page(event, load_roster(club, viewer_is_director=True), "?")
    ((_round, boards),) = page.rounds
    sheet = event.round_boards(1)
    assert [b.white.entry_id for b in boards] == [b.white_id for b in sheet]
    assert boards[-1].black is None


def test_a_swap_by_hand_through_the_sheet_and_its_mark(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    sheet = signed_in.get(url("night_sheet", event, 1)).content.decode()
    assert 'id="change"' in sheet
    board1, board2 = event.round_boards(1)
    response = signed_in.post(
        url("night_hand_change", event),
        {"first": board1.black_id, "second": board2.black_id, "pairing": shown_pairing(sheet)},
    )
    assert response.status_code == 302
    html = signed_in.get(url("night_sheet", event, 1)).content.decode()
    assert html.count("changed by the director") == 2
    assert Board.objects.get(pk=board1.pk).black_id == board2.black_id


def shown_pairing(sheet: str) -> int:
    """The round's pairing version the sheet's hand-change forms carry."""
    found = re.findall(r'name="pairing" value="(\d+)"', sheet)
    assert found and len(set(found)) == 1
    return int(found[0])


def test_a_hand_change_sent_twice_or_from_a_stale_tab_changes_nothing_more(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    sheet = signed_in.get(url("night_sheet", event, 1)).content.decode()
    exchange = {"board": 1, "confirmed": "1", "pairing": shown_pairing(sheet)}
    signed_in.post(url("night_hand_change", event), exchange)
    once = list(Board.objects.filter(event=event).order_by("number").values_list("white", "black"))
    # The same form again (a double tap, a second tab, the back button): refused, not undone.
    response = signed_in.post(url("night_hand_change", event), exchange)
    assert "changed since your screen showed it" in " ".join(said(response))
    after = list(Board.objects.filter(event=event).order_by("number").values_list("white", "black"))
    assert after == once
    assert AuditEntry.objects.filter(action="board.changed").count() == 1


def test_a_rematch_by_hand_asks_and_is_made_only_when_confirmed(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    night_rounds.pair_next_round(event.pk, None)
    round_one = {frozenset((b.white_id, b.black_id)) for b in event.round_boards(1)}
    first, second = event.round_boards(2)
    # Swapping the two blacks of round 2 gives back the round 1 pairs (or swapping whites).
    swap = {"first": first.black_id, "second": second.black_id}
    if frozenset((first.white_id, second.black_id)) not in round_one:
        swap = {"first": first.white_id, "second": second.black_id}
    before = [(b.white_id, b.black_id) for b in event.round_boards(2)]
    swap["pairing"] = Round.pairing_of(event.pk, 2)
    response = signed_in.post(url("night_hand_change", event), swap)
    assert "already played each other" in " ".join(said(response))
    assert [(b.white_id, b.black_id) for b in event.round_boards(2)] == before
    page = signed_in.get(response.url).content.decode()
    assert 'name="confirmed" value="1"' in page and "Make the change anyway" in page
    assert f'name="pairing" value="{swap["pairing"]}"' in page  # the confirm form carries it
    signed_in.post(url("night_hand_change", event), {**swap, "confirmed": "1"})
    assert [(b.white_id, b.black_id) for b in event.round_boards(2)] != before
    assert AuditEntry.objects.filter(action="board.changed").count() == 1


def test_a_forged_hand_change_changes_nothing(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    before = list(Board.objects.filter(event=event).values_list("white", "black"))
    pairing = Round.pairing_of(event.pk, 1)
    for posted in (
        {"first": "x", "pairing": pairing},
        {"board": 99, "pairing": pairing},
        {"first": 999_998, "second": 999_999, "pairing": pairing},
        {"board": 1},  # without the pairing version it was shown for
        {},
    ):
        response = signed_in.post(url("night_hand_change", event), posted)
        assert response.status_code == 302 and said(response)
    assert list(Board.objects.filter(event=event).values_list("white", "black")) == before


def test_the_evening_adds_its_own_never_pair_couple_and_says_the_first_colour(
    signed_in, club, roster
):
    event = night(club, roster[:4])
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "Seed 1 has white on board 1 in round 1." in html
    signed_in.post(url("night_never_pair", event), {"first": roster[0].pk, "second": roster[2].pk})
    pair = NeverPair.objects.get()
    assert pair.event_id == event.pk
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "this evening only" in html
    night_rounds.pair_next_round(event.pk, None)
    apart = {roster[0].pk, roster[2].pk}
    assert all({b.white.player_id, b.black.player_id} != apart for b in event.round_boards(1))


def test_an_impossible_couple_offers_pairing_without_the_list(signed_in, club, roster):
    event = night(club, roster[:2], rounds=1)
    signed_in.post(url("night_never_pair", event), {"first": roster[0].pk, "second": roster[1].pk})
    response = signed_in.post(url("night_pair", event), {"expected": 1})
    assert "never-pair" in " ".join(said(response))
    assert not Board.objects.filter(event=event).exists()
    page = signed_in.get(response.url).content.decode()
    assert 'name="without_never_pair" value="1"' in page
    signed_in.post(url("night_pair", event), {"expected": 1, "without_never_pair": "1"})
    assert Board.objects.filter(event=event).count() == 1


def test_the_roster_screen_keeps_the_clubs_never_pair_list(signed_in, club, roster):
    where = reverse("roster_never_pair", args=[club.slug])
    response = signed_in.post(where, {"name1": "ana alves", "name2": "Ben Brook"})
    assert response.url.endswith("#never-pair")
    pair = NeverPair.objects.get()
    assert pair.event_id is None and {pair.first_id, pair.second_id} == {roster[0].pk, roster[1].pk}
    html = signed_in.get(reverse("roster_players", args=[club.slug])).content.decode()
    assert 'id="never-pair"' in html and "Ana Alves – Ben Brook" in html
    refused = signed_in.post(where, {"name1": "Ana Alves", "name2": "Nobody"})
    assert "exactly one player" in " ".join(said(refused))
    signed_in.post(where, {"first": pair.first_id, "second": pair.second_id, "remove": "1"})
    assert not NeverPair.objects.exists()


@pytest.mark.parametrize("where", ["roster_never_pair", "night_never_pair"])
def test_a_forged_id_too_large_for_the_database_is_refused_not_a_500(
    signed_in, club, roster, where
):
    event = night(club, roster)
    args = [club.slug] if where == "roster_never_pair" else [club.slug, event.pk]
    response = signed_in.post(reverse(where, args=args), {"first": roster[0].pk, "second": 10**20})
    assert response.status_code == 302
    assert "exactly one player" in " ".join(said(response))
    assert not NeverPair.objects.exists()


def test_another_clubs_players_cannot_be_kept_apart_here(signed_in, club, roster):
    other = make_club(slug="others")
    a, b = (
        add_player(other, n, junior=False, start_rating=None, user=None) for n in ("X Y", "Z W")
    )
    signed_in.post(reverse("roster_never_pair", args=[club.slug]), {"first": a.pk, "second": b.pk})
    assert not NeverPair.objects.exists()


def test_the_standings_mark_withdrawn_players_and_keep_names_in_view(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    withdrawn = event.entries.get(player=roster[3])
    evening.withdraw(event.pk, withdrawn.pk, None)
    html = signed_in.get(url("night_standings", event)).content.decode()
    marked = 'class="name">Dev Dutta <span class="tag withdrawn-tag">withdrawn</span>'
    assert marked in html
    assert html.count("withdrawn-tag") == 1
    # The names are the second column, which stays in view when the table scrolls.
    head = html[html.index('<table class="standings">') :]
    assert re.search(r"<tr>\s*<th[^>]*>#</th>\s*<th scope=\"col\" class=\"name\">", head)
    css = Path("static/css/site.css").read_text()
    sticky = (
        r"\.scroll table\.standings > \* > tr > :nth-child\(2\) \{[^}]*position: sticky; left: 0"
    )
    assert re.search(sticky, css)


def test_the_printable_list_is_alphabetical_and_has_a_slip_per_board(signed_in, club, roster):
    event = night(club, roster)
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_print", event, 1)).content.decode()
    listed = html[html.index('class="alphabetical"') : html.index('id="slips"')]
    assert re.findall(r"<li>([^<·]+?) ·", listed) == [
        "Alves, Ana", "Brook, Ben", "Cruz, Cleo", "Dutta, Dev", "Engel, Eva",
    ]  # fmt: skip
    assert "bye" in listed[listed.index("Engel, Eva") :]


def test_the_printable_list_goes_by_surname_as_clubs_post_it(signed_in, club):
    # By first name this would be Ana, Zoë, Émile, Jan; by surname: Berg (van der), Östen,
    # Zander, and Madonna (one word) by herself.
    names = ["Zoë Östen", "Ana Zander", "Jan van der Berg", "Madonna"]
    players = [add_player(club, n, junior=False, start_rating=None, user=None) for n in names]
    event = night(club, players)
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_print", event, 1)).content.decode()
    listed = html[html.index('class="alphabetical"') : html.index('id="slips"')]
    assert re.findall(r"<li>([^<·]+?) ·", listed) == [
        "Berg, Jan van der", "Madonna", "Östen, Zoë", "Zander, Ana",
    ]  # fmt: skip
    assert html.count('class="slip"') == 2
    assert signed_in.get(url("night_print", event, 2)).status_code == 404


def test_the_start_screen_takes_first_colour_and_acceleration(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Open", "date": "2026-03-03", "kind": "standard",
         "rated": "on", "system": "swiss", "rounds": 3, "players": [p.pk for p in roster],
         "first_colour": "black", "accelerated": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    event = Event.objects.get(name="Open")
    assert (event.first_colour, event.first_colour_by_lot, event.accelerated) == (
        "black", False, True,
    )  # fmt: skip
    assert event.pairing_bye == Result.BYE_PAIRING


def test_a_round_robin_started_on_the_screen_scores_the_dummy_zero(signed_in, club, roster):
    signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "RR", "date": "2026-03-03", "kind": "standard",
         "system": "roundrobin", "players": [p.pk for p in roster[:3]]},
    )  # fmt: skip
    assert Event.objects.get(name="RR").pairing_bye == Result.BYE_PAIRING_ZERO


def test_a_club_night_of_another_club_has_no_tools_here(signed_in, club, roster):
    other = make_club(slug="strangers")
    players = [add_player(other, n, junior=False, start_rating=None, user=None) for n in NAMES[:2]]
    event = night(other, players, rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    for name, method in (("night_hand_change", "post"), ("night_never_pair", "post")):
        assert getattr(signed_in, method)(url(name, event), {"board": 1}).status_code == 404
    assert signed_in.get(url("night_print", event, 1)).status_code == 404
