"""On a phone, a club night goes wrong: a result corrected two rounds late, and a tap from a
tab that still shows the pairing from before the round was paired again."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from clubs.models import Board, Club, Game, PairingSystem, Player
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
NAMES = ["Ada Lovelace", "Boris Spassky", "Carmen Kass", "Dirk Nowitzki", "Elena Ferrante"]


def test_a_late_correction_and_a_stale_tab_at_phone_width(browser, live_server):
    director = make_user("night@example.org")
    club = make_club(slug="knights", owner=director, visibility=Club.Visibility.PUBLIC)
    players = [Player.objects.create(club=club, name=name) for name in NAMES[:4]]
    event = evening.start_event(
        club, name="Tuesday", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=3, players=players, user=None,
    )  # fmt: skip
    for number in (1, 2):
        night_rounds.pair_next_round(event.pk, None)
        night_rounds.enter_round_results(event.pk, number, [Result.WHITE_WIN] * 2, None)
    night_rounds.pair_next_round(event.pk, None)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    tab_a, tab_b = context.new_page(), context.new_page()
    sign_in(tab_a, "night@example.org")
    night = f"/manage/{club.slug}/night/{event.pk}/"

    # Round 1's board 1 was really a win for black, noticed with round 3 on the boards.
    tab_a.goto(f"{night}round/1/")
    assert "Rounds 2, 3 are already paired" in tab_a.locator("body").inner_text()
    tab_a.get_by_role("button", name="Board 1: 0–1", exact=True).click()
    # The tap is answered in place (static/directors/night/offline.js).
    expect(tab_a.locator("body")).to_contain_text(
        "Rounds 2, 3 were already paired on the old result"
    )
    assert Board.objects.get(event=event, round=1, number=1).game.result == Result.BLACK_WIN
    tab_a.goto(night)
    assert tab_a.get_by_text("paired on an old result").count() == 2

    # Tab A shows round 3; tab B takes the pairing back, a latecomer joins and it is paired
    # again.
    tab_a.goto(f"{night}round/3/")
    tab_b.goto(night)
    tab_b.get_by_role("button", name="Pair round 3 again").click()
    tab_b.wait_for_url(re.compile(r"/night/\d+/$"))
    late = Player.objects.create(club=club, name=NAMES[4])
    evening.add_entrant(event.pk, late, None)
    tab_b.goto(night)
    tab_b.get_by_role("button", name="Pair round 3", exact=True).click()
    tab_b.wait_for_url(re.compile(r"/round/3/sheet/$"))
    now = event.round_boards(3)[0]
    tab_a.get_by_role("button", name="Board 1: 1–0", exact=True).click()
    pair = f"{now.white.player.name} – {now.black.player.name}"
    expect(tab_a.locator("#board-1 .tap-refused")).to_contain_text(f"board 1 now holds {pair}")
    assert not Game.objects.filter(event=event, round=3, black__isnull=False).exists()
    # The screen takes the new pair from the server, and its taps work.
    expect(tab_a.locator("#board-1 .pair")).to_contain_text(pair)
    tab_a.get_by_role("button", name="Board 1: 1–0", exact=True).click()
    tab_a.locator("[data-night-pending]").wait_for(state="hidden")
    expect(tab_a.locator("#board-1 .current")).to_have_text("1–0")
    assert Board.objects.get(event=event, round=3, number=1).game.result == Result.WHITE_WIN
    # Measured in one step: once every tap is in, the screen swaps the row for the server's
    # (offline.js), and a box read between the two finds no row.
    right = tab_a.locator("#board-1").evaluate("(row) => row.getBoundingClientRect().right")
    assert right <= PHONE["width"]
    context.close()
