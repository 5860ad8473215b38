"""Results reported at the board (issue 36), through the players' page /b/<code>/ and the
director's screens: report, confirm, dispute, overrule; codes that die with a re-pairing, a
hand change, the next round, publishing; never another pair's result; the switches; the
rate limit; the audit log."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from clubs.models import AuditEntry, Board, BoardReport, Club, Event, Game, Round
from clubs.results import Result
from directors.audit.sentences import sentences
from directors.night import board_reports, changes, evening
from directors.night import rounds as night_rounds
from tests.factories import make_players, rated_players, set_standing

pytestmark = pytest.mark.django_db

NAMES = ["Ana Alves", "Ben Brook", "Cleo Cruz", "Dev Dutta"]
W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def night(club):
    players = make_players(club, NAMES)
    for rating, player in zip([1800, 1700, 1600, 1500], players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    ordered = list(rated_players().filter(pk__in=[p.pk for p in players]).order_by("-rating"))
    event = evening.start_event(
        club, name="Tuesday night", date=dt.date(2026, 3, 3), system="swiss", rounds=3,
        players=ordered, user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(event.pk, None)
    return Event.objects.get(pk=event.pk)


@pytest.fixture
def director_client(director):
    client = Client()
    client.force_login(director)
    return client


def codes_of(event, round_number=1):
    return board_reports.round_codes(Event.objects.get(pk=event.pk), round_number)


def page(code):
    return reverse("board_report", args=[code.code])


def send(client, code, side, result):
    return client.post(page(code), {"side": side, "result": result.value})


def stored(event, number, round_number=1):
    board = Board.objects.select_related("game").get(event=event, round=round_number, number=number)
    return board.game.result_code if board.game else None


def test_the_sheet_and_the_slips_print_each_boards_code_with_its_qr(night, director_client):
    codes = codes_of(night)
    assert sorted(codes) == [1, 2]
    for name in ("night_sheet", "night_print"):
        body = director_client.get(
            reverse(name, args=[night.club.slug, night.pk, 1])
        ).content.decode()
        for code in codes.values():
            assert f"{code.code[:4]}-{code.code[4:8]}-{code.code[8:]}" in body
            assert f"/b/{code.code}/" in body
        assert body.count('<svg xmlns="http://www.w3.org/2000/svg"') == 2
    # Printing again shows the same codes: made once per pairing.
    assert codes_of(night) == codes


def test_two_agreeing_reports_store_the_result_as_the_directors_tap(night):
    code = codes_of(night)[1]
    white, black = Client(), Client()
    first = send(white, code, "white", W)
    assert first.status_code == 302
    assert stored(night, 1) is None
    waiting = white.get(page(code)).content.decode()
    assert "waits for the other player" in waiting
    assert send(black, code, "black", W).status_code == 302
    assert stored(night, 1) == W
    entered = AuditEntry.objects.filter(action="board_result.entered").get()
    assert entered.details["code"] == code.code[:4] + "…"
    assert "stored" in black.get(page(code)).content.decode()
    # The director's standings read it like any result.
    points = {v.player: v.points for v in night_rounds.standings(Event.objects.get(pk=night.pk))}
    board = Board.objects.get(event=night, round=1, number=1)
    assert points[board.white_id] == 1.0 and points[board.black_id] == 0.0


def test_disagreeing_reports_store_nothing_and_show_disputed_to_the_director(
    night, director_client
):
    code = codes_of(night)[1]
    send(Client(), code, "white", W)
    send(Client(), code, "black", B)
    assert stored(night, 1) is None
    state = board_reports.round_states(night, 1)[1]
    assert (state.state, state.white, state.black) == ("disputed", W, B)
    answer = director_client.get(reverse("night_reports", args=[night.club.slug, night.pk, 1]))
    board = next(b for b in answer.json()["boards"] if b["number"] == 1)
    assert board["state"] == "disputed" and "1–0" in board["text"] and "0–1" in board["text"]
    screen = director_client.get(reverse("night_results", args=[night.club.slug, night.pk, 1]))
    assert "Disputed: white says 1–0, black says 0–1" in screen.content.decode()


def test_a_side_may_change_its_report_until_the_result_is_stored(night):
    code = codes_of(night)[1]
    white, black = Client(), Client()
    send(white, code, "white", W)
    send(black, code, "black", D)
    assert stored(night, 1) is None
    assert send(white, code, "white", D).status_code == 302  # replaces its own
    assert stored(night, 1) == D
    refused = send(white, code, "white", W)
    assert refused.status_code == 409 and "already confirmed" in refused.content.decode()
    assert stored(night, 1) == D


def test_a_replayed_report_is_refused_and_changes_nothing(night):
    code = codes_of(night)[1]
    white = Client()
    send(white, code, "white", W)
    before = list(BoardReport.objects.values_list("side", "result", "reported_at"))
    again = send(white, code, "white", W)
    assert again.status_code == 409 and "already reported" in again.content.decode()
    assert list(BoardReport.objects.values_list("side", "result", "reported_at")) == before


def test_one_phone_cannot_speak_for_both_players(night):
    code = codes_of(night)[1]
    phone = Client()
    send(phone, code, "white", W)
    refused = send(phone, code, "black", W)
    assert refused.status_code == 409
    assert stored(night, 1) is None


def test_the_directors_tap_overrules_and_settles_the_reports(night, director_client):
    code = codes_of(night)[1]
    send(Client(), code, "white", W)
    send(Client(), code, "black", B)
    board = Board.objects.get(event=night, round=1, number=1)
    director_client.post(
        reverse("night_result", args=[night.club.slug, night.pk, 1, 1]),
        {"result": D.value, "white": board.white_id, "black": board.black_id,
         "pairing": Round.pairing_of(night.pk, 1)},
    )  # fmt: skip
    assert stored(night, 1) == D
    assert board_reports.round_states(night, 1)[1].state == "settled"
    late = send(Client(), code, "white", D)
    assert late.status_code == 409 and stored(night, 1) == D


def test_a_forged_result_or_side_is_refused(night):
    code = codes_of(night)[1]
    for data in (
        {"side": "white", "result": Result.WHITE_FORFEIT_WIN.value},
        {"side": "white", "result": "2-0"},
        {"side": "arbiter", "result": W.value},
        {},
    ):
        assert Client().post(page(code), data).status_code == 400, data
    assert not BoardReport.objects.exists() and stored(night, 1) is None


def test_unknown_and_forged_codes_answer_a_clear_404(night):
    for text in ("ABCDEFGHJKLM", "abc", "000000000000", "x" * 300):
        response = Client().get(reverse("board_report", args=[text]))
        assert response.status_code == 404
        assert "No board has this code" in response.content.decode()
    assert Client().post(reverse("board_report", args=["ABCDEFGHJKLM"])).status_code == 404


def test_a_code_typed_by_hand_in_lower_case_with_its_hyphen_opens_the_board(night):
    code = codes_of(night)[1]
    typed = f"{code.code[:6]}-{code.code[6:]}".lower()
    response = Client().get(reverse("board_report", args=[typed]))
    assert response.status_code == 200
    assert "Round 1, board 1" in response.content.decode()


def test_a_repairing_kills_the_codes_with_a_clear_message(night):
    code = codes_of(night)[1]
    night_rounds.unpair_round(night.pk, 1, None)
    assert Client().get(page(code)).status_code == 404  # the round is taken back: expired
    night_rounds.pair_next_round(night.pk, None)
    response = send(Client(), code, "white", W)
    assert response.status_code == 409
    assert "old pairing" in response.content.decode()
    assert Client().get(page(code)).status_code == 409
    assert not Game.objects.filter(event=night, round=1, black__isnull=False).exists()
    assert codes_of(night)[1].code != code.code  # the new pairing has codes of its own


def test_a_hand_change_kills_the_codes_of_the_round(night):
    code = codes_of(night)[1]
    changes.swap_colours(night.pk, 1, None)
    response = send(Client(), code, "white", W)
    assert response.status_code == 409 and "old pairing" in response.content.decode()
    assert stored(night, 1) is None


def test_a_code_never_records_a_result_for_another_pair(night):
    code = codes_of(night)[1]
    other = Board.objects.get(event=night, round=1, number=2)
    # The board's place now holds another pair without the version moving (as if forged).
    Board.objects.filter(event=night, round=1, number=1).update(
        white=other.white_id, black=other.black_id
    )
    Board.objects.filter(pk=other.pk).delete()
    response = send(Client(), code, "white", W)
    send(Client(), code, "black", W)
    assert response.status_code == 409
    assert not Game.objects.filter(event=night, round=1, black__isnull=False).exists()


def test_the_next_round_expires_the_codes(night):
    code = codes_of(night)[1]
    for number in (1, 2):
        night_rounds.enter_result(night.pk, 1, number, D, None)
    night_rounds.pair_next_round(night.pk, None)
    response = Client().get(page(code))
    assert response.status_code == 404 and "expired" in response.content.decode()
    assert send(Client(), code, "white", W).status_code == 404


def test_publishing_or_deleting_expires_the_codes(night):
    code = codes_of(night)[1]
    for number in (1, 2):
        night_rounds.enter_result(night.pk, 1, number, D, None)
    night_rounds.publish_night(night.pk, None)
    assert Client().get(page(code)).status_code == 404
    assert send(Client(), code, "white", W).status_code == 404


def test_the_switch_off_prints_no_codes_and_the_page_says_so(night, director_client):
    code = codes_of(night)[1]
    Club.objects.filter(pk=night.club_id).update(board_reports=False)
    sheet = director_client.get(reverse("night_sheet", args=[night.club.slug, night.pk, 1]))
    assert "/b/" not in sheet.content.decode()
    response = Client().get(page(code))
    assert response.status_code == 404 and "not reported at the board" in response.content.decode()
    # The evening may say otherwise than the club, on its own page.
    switched = director_client.post(
        reverse("night_board_switch", args=[night.club.slug, night.pk]), {"reports": "on"}
    )
    assert switched.status_code == 302
    assert Client().get(page(code)).status_code == 200
    director_client.post(
        reverse("night_board_switch", args=[night.club.slug, night.pk]), {"reports": "off"}
    )
    assert Client().get(page(code)).status_code == 404
    assert AuditEntry.objects.filter(action="event.updated").count() == 2


def test_the_clubs_settings_screen_switches_it(club, director_client):
    form = {"visibility": club.visibility, "name_display": club.name_display,
            "language": club.language, "board_reports": "off"}  # fmt: skip
    director_client.post(reverse("club_settings", args=[club.slug]), form)
    assert Club.objects.get(pk=club.pk).board_reports is False
    form.pop("board_reports")  # an older form without it keeps the setting
    director_client.post(reverse("club_settings", args=[club.slug]), form)
    assert Club.objects.get(pk=club.pk).board_reports is False


def test_names_follow_the_clubs_privacy_rules(night):
    Club.objects.filter(pk=night.club_id).update(name_display="initials")
    board = Board.objects.select_related("white__player").get(event=night, round=1, number=1)
    board.white.player.junior = True
    board.white.player.save()
    code = codes_of(night)[1]
    body = Client().get(page(code)).content.decode()
    assert board.white.player.name not in body
    initials = ". ".join(part[0] for part in board.white.player.name.split()) + "."
    assert initials in body


@override_settings(BOARD_REPORT_CODE_LIMIT=5, BOARD_REPORT_ADDRESS_LIMIT=1000)
def test_hammering_a_code_gets_429(night):
    code = codes_of(night)[1]
    answers = [Client().get(page(code)).status_code for _ in range(7)]
    assert answers[:5] == [200] * 5 and answers[5:] == [429, 429]
    refused = Client().post(page(code), {"side": "white", "result": W.value})
    assert refused.status_code == 429 and "Too many tries" in refused.content.decode()
    assert refused["Retry-After"]
    assert not BoardReport.objects.exists()


@override_settings(BOARD_REPORT_ADDRESS_LIMIT=10)
def test_guessing_codes_from_one_address_gets_429(night):
    answers = [
        Client().get(reverse("board_report", args=[f"ABCDEFGHJK{a}{b}"])).status_code
        for a in "23" for b in "23456789"
    ]  # fmt: skip
    assert answers[:10] == [404] * 10 and set(answers[10:]) == {429}


def test_every_report_confirmation_and_dispute_is_in_the_audit_log_by_its_code(night):
    codes = codes_of(night)
    send(Client(), codes[1], "white", W)
    send(Client(), codes[1], "black", W)
    send(Client(), codes[2], "white", D)
    send(Client(), codes[2], "black", B)
    entries = list(AuditEntry.objects.select_related("user").order_by("id"))
    actions = [e.action for e in entries]
    assert actions.count("board_report.received") == 4
    assert actions.count("board_report.confirmed") == 1
    assert actions.count("board_report.disputed") == 1
    assert all(e.user is None for e in entries)
    lines = [text for _entry, text in sentences(entries)]
    prefix = codes[1].code[:4] + "…"
    assert any("White reported 1-0 at board 1 of round 1" in t and prefix in t for t in lines)
    assert any(
        t.startswith(f"The players with code {prefix} entered 1-0 on board 1") for t in lines
    )
    assert any("disagree at board 2" in t and "Nothing is stored" in t for t in lines)


def test_the_results_screen_follows_the_reports(night, director_client):
    screen = director_client.get(reverse("night_results", args=[night.club.slug, night.pk, 1]))
    body = screen.content.decode()
    assert re.search(r'data-reports="[^"]+/round/1/reports/"', body)
    assert "directors/night/reports" in body
    code = codes_of(night)[2]
    send(Client(), code, "black", D)
    answer = director_client.get(reverse("night_reports", args=[night.club.slug, night.pk, 1]))
    board = next(b for b in answer.json()["boards"] if b["number"] == 2)
    assert board["state"] == "reported" and board["result"] == ""
    assert "Reported by black: ½–½" in board["text"]
    assert answer["Cache-Control"] == "private, no-store"
