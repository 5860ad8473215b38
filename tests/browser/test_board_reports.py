"""Results reported at the board on phones (issue 36): the director prints the slips, two
players open their board's address (what scanning the QR code does) in two phones of their
own, report, and the director's results screen shows the report, then the confirmed result,
without a reload; a second board's disagreement shows as disputed."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from clubs.models import Board, Event
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_players, make_user, rated_players, set_standing

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
NAMES = ["Ada Lovelace", "Boris Spassky", "Carmen Kass", "Dirk Nowitzki"]


@pytest.fixture
def night():
    director = make_user("td@example.org")
    club = make_club(slug="rooks", directors=[director])
    players = make_players(club, NAMES)
    for rating, player in zip([1900, 1800, 1700, 1600], players, strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    ordered = list(rated_players().filter(pk__in=[p.pk for p in players]).order_by("-rating"))
    event = evening.start_event(
        club, name="Tuesday", date=dt.date(2026, 3, 3), system="swiss", rounds=3,
        players=ordered, user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(event.pk, None)
    return club, Event.objects.get(pk=event.pk)


def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True)
    return context, context.new_page()


def report(p, url, side, result):
    p.goto(url)
    p.get_by_role("radio", name=re.compile(f"{side}:")).check()
    p.get_by_role("button", name=result, exact=True).click()
    p.wait_for_load_state()


def test_two_players_report_from_their_phones_and_the_director_sees_it(browser, live_server, night):
    club, event = night
    director_context, director = phone(browser, live_server)
    sign_in(director, "td@example.org")
    director.goto(f"/manage/{club.slug}/night/{event.pk}/round/1/print/")
    slip = director.locator(".slip", has_text="board 1")
    assert slip.locator("svg.qr").count() == 1
    address = slip.locator(".url").inner_text().strip()
    assert re.search(r"/b/[2-9A-HJ-NP-Z]{12}/$", address)
    other = director.locator(".slip", has_text="board 2").locator(".url").inner_text().strip()

    director.goto(f"/manage/{club.slug}/night/{event.pk}/round/1/")
    board = director.locator("#board-1")
    assert "No result yet" in board.inner_text()

    white_context, white = phone(browser, live_server)
    black_context, black = phone(browser, live_server)
    try:
        report(white, address, "White", "1–0")
        assert "waits for the other player" in white.locator("body").inner_text()
        assert white.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
        # The director's screen follows without a reload.
        board.locator(".report-state", has_text="Reported by white: 1–0").wait_for()

        report(black, address, "Black", "1–0")
        assert "is stored" in black.locator("body").inner_text()
        board.locator(".current", has_text="1–0").wait_for()
        board.locator(".report-state", has_text="Confirmed by both players").wait_for()
        stored = Board.objects.select_related("game").get(event=event, round=1, number=1)
        assert stored.game.result_code == Result.WHITE_WIN

        # Board 2: the players disagree; nothing is stored, the director sees the dispute.
        report(white, other, "White", "½–½")
        report(black, other, "Black", "0–1")
        assert "disagree" in black.locator("body").inner_text()
        director.locator("#board-2 .report-state", has_text="Disputed").wait_for()
        assert Board.objects.get(event=event, round=1, number=2).game is None
        # The director's tap settles it.
        director.locator("#board-2").get_by_role("button", name="Board 2: ½–½").click()
        # The tap is sent in the background (offline.js): read the database once it is in.
        director.locator("#board-2 .current", has_text="½–½").wait_for()
        director.locator("[data-night-pending]").wait_for(state="hidden")
        assert (
            Board.objects.select_related("game")
            .get(event=event, round=1, number=2)
            .game.result_code
            == Result.DRAW
        )
        # The director overrules board 1, which the players confirmed while this screen was
        # open: the tap corrects the result the screen was brought, so it is not refused as
        # based on an older one.
        director.locator("#board-1").get_by_role("button", name="Board 1: 0–1").click()
        director.locator("[data-night-pending]").wait_for(state="hidden")
        assert not director.locator(".tap-refused").count()
        overruled = Board.objects.select_related("game").get(event=event, round=1, number=1)
        assert overruled.game.result_code == Result.BLACK_WIN
    finally:
        white_context.close()
        black_context.close()
        director_context.close()
