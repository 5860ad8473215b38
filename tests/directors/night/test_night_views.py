"""The director's club-night screens, through the views: each works for a director, and a
forged form (a wrong round, another club's entrant, a result that is no result) changes
nothing. Outsiders' 404s are in tests/test_tenancy.py."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from clubs.models import (
    AuditEntry,
    Board,
    Club,
    Entry,
    Event,
    Game,
    PairingSystem,
    Player,
    Round,
)
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from directors.roster.players import rename_player
from ladder import tiebreaks
from tests.factories import make_club, make_event, make_players, rated_players, set_standing

pytestmark = pytest.mark.django_db

NAMES = ["Ana Alves", "Ben Brook", "Cleo Cruz", "Dev Dutta", "Eva Engel"]


@pytest.fixture
def roster(club):
    players = make_players(club, NAMES)
    for rating, player in zip([1800, 1700, 1600, 1500, 1400], players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    return list(rated_players().filter(pk__in=[p.pk for p in players]).order_by("-rating"))


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def night(club, players, *, system=PairingSystem.SWISS, rounds=3):
    return evening.start_event(
        club,
        name="Tuesday night",
        date=dt.date(2026, 3, 3),
        system=system,
        rounds=rounds if system == PairingSystem.SWISS else None,
        players=players,
        user=None,
    )


def url(name, event, *more):
    return reverse(name, args=[event.club.slug, event.pk, *more])


def tap(result, event, round_number, board_number):
    """A result tap as the results screen sends it: the pair and pairing version it showed."""
    board = Board.objects.filter(event=event, round=round_number, number=board_number).first()
    return {
        "result": result,
        "white": board.white_id if board else 1,
        "black": board.black_id if board and board.black_id else 1,
        "pairing": Round.pairing_of(event.pk, round_number),
    }


def said(response):
    return [str(m) for m in get_messages(response.wsgi_request)]


def state(event):
    """Everything a forged post could change."""
    return (
        list(Board.objects.filter(event=event).values_list("round", "number", "white", "black")),
        list(Game.objects.filter(event=event).values_list("round", "white", "black", "result")),
        list(
            Entry.objects.filter(event=event).values_list(
                "pk", "start_rank", "withdrawn_from_round"
            )
        ),
        Event.objects.get(pk=event.pk).status,
    )


# Start ---------------------------------------------------------------------------------------


def test_the_start_page_lists_the_roster_with_ratings(signed_in, club, roster):
    response = signed_in.get(reverse("night_start", args=[club.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    for player in roster:
        assert f'name="players" value="{player.pk}"' in html
    assert "1800" in html
    assert "no-store" in response["Cache-Control"]
    # The defaults: today, a Swiss, the bye by system (1 in a Swiss, 0 in a round robin),
    # the first colour by lot (also after a search carried state).
    for page in (html, signed_in.get(response.request["PATH_INFO"] + "?q=ana").content.decode()):
        assert re.search(r'name="date" value="\d{4}-\d\d-\d\d"', page)
        assert re.search(r'value="swiss"[^>]*checked', page)
        assert re.search(r'name="pairing_bye" value=""[^>]*checked', page)
        assert re.search(r'name="first_colour" value="lot"[^>]*checked', page)


def test_a_search_keeps_the_ticked_players_and_what_was_typed(signed_in, club, roster):
    ana, ben = roster[0], roster[1]
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "search", "q": "cruz", "name": "Club night", "players": [ana.pk, ben.pk]},
    )
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.url).query)
    assert query["players"] == [str(ana.pk), str(ben.pk)]
    assert query["name"] == ["Club night"]
    html = signed_in.get(response.url).content.decode()
    # Cleo is the one shown; Ana and Ben stay ticked as hidden inputs.
    assert f'name="players" value="{roster[2].pk}"' in html
    assert f'<input type="hidden" name="players" value="{ana.pk}">' in html
    assert f'<input type="hidden" name="players" value="{ben.pk}">' in html
    assert 'value="Club night"' in html
    assert Event.objects.count() == 0


def test_a_newcomer_joins_the_roster_at_once_and_is_ticked(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "newcomer", "newcomer_name": "Nia Novak", "newcomer_junior": "on",
         "players": [roster[0].pk]},
    )  # fmt: skip
    newcomer = Player.objects.get(club=club, name="Nia Novak")
    assert newcomer.junior
    query = parse_qs(urlsplit(response.url).query)
    assert query["players"] == [str(roster[0].pk), str(newcomer.pk)]
    html = signed_in.get(response.url).content.decode()
    assert f'value="{newcomer.pk}" checked' in html


def test_starting_makes_a_seeded_club_night(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Spring Swiss", "date": "2026-03-03", "kind": "standard",
         "rated": "on", "system": "swiss", "rounds": "3",
         "pairing_bye": Result.BYE_PAIRING_HALF.value, "players": [p.pk for p in reversed(roster)]},
    )  # fmt: skip
    event = Event.objects.get()
    assert response.url == url("night_evening", event)
    assert (event.pairing_system, event.planned_rounds, event.pairing_bye) == (
        "swiss",
        3,
        Result.BYE_PAIRING_HALF.value,
    )
    seeds = list(event.entries.order_by("start_rank").values_list("player__name", flat=True))
    assert seeds == NAMES  # by rating, whatever order they were ticked in


def test_a_round_robin_takes_its_rounds_from_its_size(signed_in, club, roster):
    signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "RR", "date": "2026-03-03", "kind": "standard",
         "system": "roundrobin", "rounds": "2", "pairing_bye": "byeU",
         "players": [p.pk for p in roster[:4]]},
    )  # fmt: skip
    assert Event.objects.get().planned_rounds == 3


def test_starting_with_another_clubs_player_is_refused(signed_in, club, roster):
    other = make_club(slug="other")
    stranger = Player.objects.create(club=other, name="Zed Stranger")
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Night", "date": "2026-03-03", "kind": "standard",
         "system": "swiss", "rounds": "2", "pairing_bye": "byeU",
         "players": [roster[0].pk, stranger.pk]},
    )  # fmt: skip
    assert response.status_code == 200
    assert "Every player must be on this club" in response.content.decode()
    assert Event.objects.count() == 0


def test_starting_with_one_player_says_why(signed_in, club, roster):
    response = signed_in.post(
        reverse("night_start", args=[club.slug]),
        {"action": "start", "name": "Night", "date": "2026-03-03", "kind": "standard",
         "system": "swiss", "rounds": "2", "pairing_bye": "byeU", "players": [roster[0].pk]},
    )  # fmt: skip
    assert "Tick at least two players." in said(response)
    assert Event.objects.count() == 0


# The evening -----------------------------------------------------------------------------------


def test_the_evening_page_shows_the_entrants_in_seed_order(signed_in, club, roster):
    event = night(club, roster)
    html = signed_in.get(url("night_evening", event)).content.decode()
    positions = [html.index(name) for name in NAMES]
    assert positions == sorted(positions)
    assert "Pair round 1" in html


def test_the_evening_page_shows_a_renamed_player_as_the_roster_does(signed_in, club, roster):
    event = night(club, roster)
    rename_player(roster[0], "Anna Renamed", None)
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "Anna Renamed" in html and NAMES[0] not in html.split('id="entrants"')[1]


def test_an_uploaded_event_has_no_evening_page(signed_in, club, roster):
    event = make_event(club, [(1, roster[0], roster[1], Result.DRAW)], published=False)
    assert signed_in.get(url("night_evening", event)).status_code == 404


def test_pairing_twice_from_the_same_page_pairs_one_round(signed_in, club, roster):
    event = night(club, roster[:4])
    first = signed_in.post(url("night_pair", event), {"expected": 1})
    assert first.url == url("night_sheet", event, 1)
    assert Board.objects.filter(event=event, round=1).count() == 2
    again = signed_in.post(url("night_pair", event), {"expected": 1})
    assert "Round 1 is already paired." in said(again)
    assert Board.objects.filter(event=event).count() == 2


def test_a_round_is_not_paired_while_a_board_waits(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    before = state(event)
    response = signed_in.post(url("night_pair", event), {"expected": 2})
    assert any("without a result" in m for m in said(response))
    assert state(event) == before


def test_pair_again_takes_back_a_round_without_results(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    signed_in.post(url("night_unpair", event), {"round": 1})
    assert not Board.objects.filter(event=event).exists()


def test_pair_again_is_refused_once_a_result_is_in(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_result(event.pk, 1, 1, Result.DRAW, None)
    before = state(event)
    response = signed_in.post(url("night_unpair", event), {"round": 1})
    assert any("has results" in m for m in said(response))
    assert state(event) == before


def test_moving_a_seed_before_round_one(signed_in, club, roster):
    event = night(club, roster)
    eva = event.entries.get(player__name="Eva Engel")
    signed_in.post(url("night_seed", event), {"entry": eva.pk, "seed": 1})
    assert event.entries.get(start_rank=1) == eva


def test_withdrawal_and_return(signed_in, club, roster):
    event = night(club, roster)
    ben = event.entries.get(player__name="Ben Brook")
    signed_in.post(url("night_withdraw", event), {"entry": ben.pk})
    assert Entry.objects.get(pk=ben.pk).withdrawn_from_round == 1
    signed_in.post(url("night_withdraw", event), {"entry": ben.pk, "back": "1"})
    assert Entry.objects.get(pk=ben.pk).withdrawn_from_round is None


def test_another_events_entrant_cannot_be_touched_from_this_evening(signed_in, club, roster):
    event = night(club, roster[:4])
    other = night(club, roster[1:])
    foreign = other.entries.first()
    before = (state(event), state(other))
    for name, data in [
        ("night_withdraw", {"entry": foreign.pk}),
        ("night_seed", {"entry": foreign.pk, "seed": 1}),
        ("night_bye", {"entry": foreign.pk, "round": 2}),
    ]:
        response = signed_in.post(url(name, event), data)
        assert "That player is not in this event." in said(response), name
    assert (state(event), state(other)) == before


def test_a_half_point_bye_for_a_future_round_and_its_cancelling(signed_in, club, roster):
    event = night(club, roster)
    cleo = event.entries.get(player__name="Cleo Cruz")
    signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 2})
    bye = Game.objects.get(event=event, white=cleo)
    assert (bye.round, bye.black_id, bye.result) == (2, None, Result.BYE_HALF.value)
    assert (
        "Half-point bye in round 2." in signed_in.get(url("night_evening", event)).content.decode()
    )
    # Asked twice: one bye, one entry in the log.
    signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 2})
    assert Game.objects.filter(event=event, white=cleo).count() == 1
    assert AuditEntry.objects.filter(action="bye.requested").count() == 1
    signed_in.post(url("night_bye", event), {"entry": cleo.pk, "round": 2, "cancel": "1"})
    assert not Game.objects.filter(event=event).exists()
    # Nothing left to cancel: said so, nothing logged.
    response = signed_in.post(
        url("night_bye", event), {"entry": cleo.pk, "round": 2, "cancel": "1"}, follow=True
    )
    assert any("no bye to cancel" in m for m in said(response))
    assert AuditEntry.objects.filter(action="bye.cancelled").count() == 1


def test_a_bye_for_a_round_already_paired_is_refused(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    entry = event.entries.first()
    before = state(event)
    response = signed_in.post(url("night_bye", event), {"entry": entry.pk, "round": 1})
    assert any("not paired yet" in m for m in said(response))
    assert state(event) == before


def test_a_late_arrival_from_the_roster_and_a_newcomer(signed_in, club, roster):
    event = night(club, roster[:4])
    html = signed_in.get(url("night_evening", event) + "?find=engel").content.decode()
    assert "Eva Engel" in html
    signed_in.post(url("night_add", event), {"player": roster[4].pk})
    signed_in.post(url("night_add", event), {"newcomer_name": "Finn Fox"})
    names = list(event.entries.order_by("start_rank").values_list("player__name", flat=True))
    assert names[-2:] == ["Eva Engel", "Finn Fox"]
    assert Player.objects.filter(club=club, name="Finn Fox").exists()


def test_a_newcomer_refused_by_a_round_robin_is_not_left_on_the_roster(signed_in, club, roster):
    event = night(club, roster[:4], system=PairingSystem.ROUND_ROBIN)
    night_rounds.pair_next_round(event.pk, None)
    response = signed_in.post(url("night_add", event), {"newcomer_name": "Finn Fox"})
    assert any("round robin" in m for m in said(response))
    assert not Player.objects.filter(name="Finn Fox").exists()


def test_no_one_arrives_late_once_every_round_is_paired(signed_in, club, roster):
    event = night(club, roster[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    response = signed_in.post(url("night_add", event), {"newcomer_name": "Finn Fox"})
    assert any("no round left" in m for m in said(response))
    assert not Player.objects.filter(name="Finn Fox").exists()
    assert event.entries.count() == 4


def test_a_newcomers_name_too_long_says_so(signed_in, club, roster):
    event = night(club, roster[:4])
    response = signed_in.post(url("night_add", event), {"newcomer_name": "x" * 500})
    messages = said(response)
    assert messages and not any("Choose a player" in m for m in messages)
    assert event.entries.count() == 4


@pytest.mark.parametrize("forged", ["²", "abc", "9" * 5000, "-1"])
def test_forged_ticks_on_the_start_page_are_ignored(signed_in, club, roster, forged):
    start = reverse("night_start", args=[club.slug])
    assert signed_in.get(start, {"players": [forged, roster[0].pk]}).status_code == 200
    response = signed_in.post(start, {"action": "search", "q": "a", "players": [forged]})
    assert response.status_code == 302
    assert forged not in response.url


def test_another_clubs_player_cannot_arrive_late(signed_in, club, roster):
    event = night(club, roster[:4])
    stranger = Player.objects.create(club=make_club(slug="other"), name="Zed Stranger")
    before = state(event)
    response = signed_in.post(url("night_add", event), {"player": stranger.pk})
    assert "Every player must be on this club's roster." in said(response)
    assert state(event) == before


# Rounds ------------------------------------------------------------------------------------------


def test_the_pairing_sheet_shows_boards_names_and_scores(signed_in, club, roster):
    event = night(club, roster)  # five: one gets the bye
    night_rounds.pair_next_round(event.pk, None)
    response = signed_in.get(url("night_sheet", event, 1))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count('<td class="board">') == 2
    assert 'id="bye"' in html
    for board in event.round_boards(1):
        assert board.white.typed_name in html


def test_an_unpaired_round_has_no_pages(signed_in, club, roster):
    event = night(club, roster[:4])
    for name in ("night_sheet", "night_results"):
        assert signed_in.get(url(name, event, 1)).status_code == 404


def test_one_tap_records_a_result_and_moves_on_to_the_next_board(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    response = signed_in.post(url("night_result", event, 1, 1), tap("1-0", event, 1, 1))
    assert response.url == url("night_results", event, 1) + "#board-2"
    board = Board.objects.get(event=event, round=1, number=1)
    assert board.game.result == Result.WHITE_WIN.value
    # A correction while the round is open.
    signed_in.post(url("night_result", event, 1, 1), tap("0-1", event, 1, 1))
    assert Board.objects.get(pk=board.pk).game.result == Result.BLACK_WIN.value
    done = signed_in.post(url("night_result", event, 1, 2), tap("1/2", event, 1, 2))
    assert done.url.endswith("#all-in")


def test_forfeits_sit_behind_a_second_step(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_results", event, 1)).content.decode()
    details = html.index("<details>")
    assert html.index('value="+-"') > details
    assert html.index('value="1-0"') < details


@pytest.mark.parametrize(
    ("round_number", "board", "result", "message"),
    [
        (1, 1, "x", "Choose a result from the list."),
        (1, 1, Result.BYE_PAIRING.value, "Choose a result from the list."),
        (1, 9, "1-0", "There is no such board in this round."),
        (2, 1, "1-0", "Round 2 is not paired yet."),
    ],
)
def test_a_forged_result_changes_nothing(
    signed_in, club, roster, round_number, board, result, message
):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    before = state(event)
    posted = tap(result, event, round_number, board)
    response = signed_in.post(url("night_result", event, round_number, board), posted)
    assert message in said(response)
    assert state(event) == before


def test_an_earlier_round_keeps_its_buttons_and_says_later_rounds_stay(signed_in, club, roster):
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    night_rounds.pair_next_round(event.pk, None)
    html = signed_in.get(url("night_results", event, 1)).content.decode()
    assert "This round is closed" not in html
    assert 'name="result"' in html
    assert "Round 2 is already paired" in html


def test_standings_after_each_round_with_the_clubs_tiebreaks(signed_in, club, roster):
    Club.objects.filter(pk=club.pk).update(tiebreak_order=["sb", "bh"])
    event = night(club, roster[:4])
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.WHITE_WIN], None)
    night_rounds.pair_next_round(event.pk, None)
    night_rounds.enter_round_results(event.pk, 2, [Result.DRAW, Result.DRAW], None)
    html = signed_in.get(url("night_standings", event) + "?after=1").content.decode()
    assert html.index('data-tiebreak="sb"') < html.index('data-tiebreak="bh"')
    assert 'data-tiebreak="bh-c1"' not in html
    points_after_1 = sorted(_points(html))
    assert points_after_1 == ["0", "0", "1", "1"]
    points_after_2 = sorted(_points(signed_in.get(url("night_standings", event)).content.decode()))
    assert points_after_2 == ["1½", "1½", "½", "½"]


def _points(html):
    return re.findall(r'<td class="num points">([^<]*)</td>', html)


def test_a_requested_bye_of_a_later_round_does_not_count_yet(signed_in, club, roster):
    event = night(club, roster[:4])
    ana = event.entries.get(start_rank=1)
    evening.request_bye(event.pk, ana.pk, 3, None)
    night_rounds.pair_next_round(event.pk, None)
    values = {v.player: v.points for v in night_rounds.standings(event)}
    assert values[ana.pk] == 0


# Publishing ------------------------------------------------------------------------------------


def test_publish_waits_for_every_result_then_rates_the_event(signed_in, club, roster):
    event = night(club, roster[:4], rounds=1)
    night_rounds.pair_next_round(event.pk, None)
    refused = signed_in.post(url("night_publish", event))
    assert any("without a result" in m for m in said(refused))
    assert Event.objects.get(pk=event.pk).status == Event.Status.DRAFT
    night_rounds.enter_round_results(event.pk, 1, [Result.WHITE_WIN, Result.DRAW], None)
    response = signed_in.post(url("night_publish", event))
    assert response.url == url("event_detail", event)
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED
    # Read-only afterwards: no buttons, and a forged tap is refused.
    html = signed_in.get(url("night_evening", event)).content.decode()
    assert "Pair round" not in html
    late = signed_in.post(url("night_result", event, 1, 1), tap("0-1", event, 1, 1))
    assert any("published" in m for m in said(late))


def test_changes_are_post_only(signed_in, club, roster):
    event = night(club, roster[:4])
    for name in ("night_pair", "night_unpair", "night_publish", "night_seed", "night_add"):
        assert signed_in.get(url(name, event)).status_code == 405
    assert not Board.objects.filter(event=event).exists()


# The club's tie-break order ---------------------------------------------------------------------


def test_the_director_sets_the_tiebreak_order(signed_in, club):
    page = signed_in.get(reverse("club_settings", args=[club.slug])).content.decode()
    assert 'name="place1"' in page
    response = signed_in.post(
        reverse("tiebreak_order", args=[club.slug]),
        {"place1": "sb", "place2": "de", "place3": "bh-c1"},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.tiebreak_order == ["sb", "de", "bh-c1"]
    entry = AuditEntry.objects.get(action="tiebreak_order.changed")
    assert entry.details["new"] == ["sb", "de", "bh-c1"]
    assert entry.details["old"] == [t.value for t in tiebreaks.DEFAULT_ORDER]


@pytest.mark.parametrize(
    "posted",
    [{"place1": "sb", "place2": "sb"}, {"place1": "xx"}, {"place1": "", "place2": "bh"}],
)
def test_a_wrong_tiebreak_order_is_refused(signed_in, club, posted):
    response = signed_in.post(reverse("tiebreak_order", args=[club.slug]), posted)
    assert said(response)
    club.refresh_from_db()
    assert club.tiebreak_order == []
    assert not AuditEntry.objects.filter(action="tiebreak_order.changed").exists()
