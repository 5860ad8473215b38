"""An 18-player, 5-round Swiss evening whose venue loses the network during rounds 2 to 4
(issue 36, item 2): every round is paired online, rounds 2-4's results are tapped with the
browser offline (one reload on the way, served by the service worker), and the queue is sent
when the network is back. Nothing is lost or doubled, a tap another director overtook is
refused with its reason while the rest go through, and the TRF is the TRF of the same evening
entered online, there by plain forms with JavaScript off (the page without its script).
"""

from __future__ import annotations

import datetime as dt
import re

import pytest

from clubs.models import AuditEntry, Board, Club, FirstColour, Game, PairingSystem, Player
from clubs.results import Result
from directors.night import evening
from directors.night import rounds as night_rounds
from members.files.event_export import event_trf
from tests.browser.test_publish_flow import sign_in
from tests.browser.venue_network import VenueNetwork
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
PLAYERS = [f"{first} {last}" for first, last in zip(
    ["Ada", "Bram", "Cora", "Daan", "Eva", "Femke", "Gijs", "Hanna", "Ivo",
     "Joke", "Kees", "Lotte", "Milan", "Noor", "Otto", "Pien", "Quinten", "Roos"],
    ["Aalders", "Bakker", "Claes", "Dekker", "Eerden", "Fontein", "Graaf", "Hout", "Ijzer",
     "Jansen", "Kok", "Lint", "Mol", "Nijs", "Oud", "Prins", "Quak", "Rijn"],
    strict=True,
)]  # fmt: skip
ROUNDS = 5
BOARDS = 9
OFFLINE = (2, 3, 4)
TAPS = ["1–0", "½–½", "0–1"]
# Round 4, board 1: another director enters the result while this phone, offline, taps a
# wrong one; the phone's tap is refused and the other director's result stands.
OVERTAKEN = (4, 1)
WRONG = {"1–0": "0–1", "½–½": "1–0", "0–1": "½–½"}
VALUES = {"1–0": Result.WHITE_WIN, "½–½": Result.DRAW, "0–1": Result.BLACK_WIN}


def label(round_number: int, board: int) -> str:
    """The same evening's result for every board, online and offline."""
    return TAPS[(round_number * 2 + board) % 3]


def club_night(slug: str, director):
    club = make_club(slug=slug, owner=director, visibility=Club.Visibility.PUBLIC)
    players = [Player.objects.create(club=club, name=name) for name in PLAYERS]
    return evening.start_event(
        club, name="Tuesday Swiss", date=dt.date(2026, 3, 3), system=PairingSystem.SWISS,
        rounds=ROUNDS, players=players, user=None, first_colour=FirstColour.WHITE,
    )  # fmt: skip


def pair(p, night: str, number: int) -> None:
    p.goto(night)
    p.get_by_role("button", name=f"Pair round {number}", exact=True).click()
    p.wait_for_url(re.compile(rf"/round/{number}/sheet/$"))


def tap(p, round_number: int, board: int, shown: str) -> None:
    p.locator(f"#board-{board}").get_by_role(
        "button", name=f"Board {board}: {shown}", exact=True
    ).click()


def test_an_evening_whose_network_goes_for_three_rounds_loses_and_doubles_nothing(
    browser, live_server
):
    director = make_user("night@example.org")
    online_event = club_night("online", director)
    offline_event = club_night("offline", director)

    # The evening entered online with plain forms: JavaScript off.
    plain = browser.new_context(base_url=live_server.url, viewport=PHONE, java_script_enabled=False)
    p = plain.new_page()
    sign_in(p, "night@example.org")
    night = f"/manage/online/night/{online_event.pk}/"
    for number in range(1, ROUNDS + 1):
        pair(p, night, number)
        p.goto(f"{night}round/{number}/")
        for board in range(1, BOARDS + 1):
            tap(p, number, board, label(number, board))
            p.wait_for_url(re.compile(rf"/round/{number}/#"))
    plain.close()

    # The phone reaches the server through the venue's Wi-Fi, which the test cuts for real as
    # well as telling the browser it is offline.
    wifi = VenueNetwork(live_server.url)
    context = browser.new_context(base_url=wifi.url, viewport=PHONE)
    p = context.new_page()
    sign_in(p, "night@example.org")
    night = f"/manage/offline/night/{offline_event.pk}/"
    p.goto(night)
    p.wait_for_function("() => navigator.serviceWorker.controller !== null")
    for number in range(1, ROUNDS + 1):
        pair(p, night, number)
        p.goto(f"{night}round/{number}/")
        offline = number in OFFLINE
        if offline:
            wifi.cut()
            context.set_offline(True)
        for board in range(1, BOARDS + 1):
            shown = label(number, board)
            if (number, board) == OVERTAKEN:
                night_rounds.enter_result(offline_event.pk, number, board, VALUES[shown], None)
                shown = WRONG[shown]
            tap(p, number, board, shown)
            # Shown at once, as not yet sent.
            assert shown in p.locator(f"#board-{board} .current").inner_text()
            if offline and board == 4 and number == 3:
                # The page survives a reload without the network (the service worker's copy),
                # with its taps still waiting.
                p.reload()
                assert "4 results not yet sent" in p.locator("[data-night-pending]").inner_text()
        if offline:
            pending = p.locator("[data-night-pending]")
            assert pending.inner_text() == f"{BOARDS} results not yet sent"
            assert (
                not Game.objects.filter(
                    event=offline_event, round=number, black__isnull=False
                ).exists()
                or (number, 1) == OVERTAKEN
            )
            if number == 2:
                # Pairing needs the server: the evening page (its kept copy) says so.
                p.goto(night)
                assert p.locator("[data-night-needs-network]").is_visible()
                p.goto(f"{night}round/{number}/")
            wifi.restore()
            context.set_offline(False)
        p.locator("[data-night-pending]").wait_for(state="hidden")
        if (number, 1) == OVERTAKEN:
            refused = p.locator("#board-1 .tap-refused")
            refused.wait_for()
            assert "Board 1 of round 4 holds" in refused.inner_text()
        assert (
            Game.objects.filter(event=offline_event, round=number, black__isnull=False).count()
            == BOARDS
        )
    context.close()
    wifi.close()

    for event in (online_event, offline_event):
        games = Game.objects.filter(event=event, black__isnull=False)
        assert games.count() == ROUNDS * BOARDS
        pairs = [(g.round, frozenset((g.white_id, g.black_id))) for g in games]
        assert len(set(pairs)) == len(pairs)
        assert not Board.objects.filter(event=event, game__isnull=True).exists()
        entered = AuditEntry.objects.filter(club=event.club, action="board_result.entered")
        assert entered.count() == ROUNDS * BOARDS
    assert event_trf(offline_event, viewer_is_director=True) == event_trf(
        online_event, viewer_is_director=True
    )


def test_a_board_the_director_is_in_stays_open_while_another_boards_tap_comes_back(
    browser, live_server
):
    """The screen takes the server's boards again once every tap is in; a board that did not
    change is left as it is, so the forfeits the director just opened do not close (nor the
    button under their finger vanish) because another board's tap came back."""
    director = make_user("night@example.org")
    event = club_night("open-board", director)
    night_rounds.pair_next_round(event.pk, None)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    p = context.new_page()
    sign_in(p, "night@example.org")
    p.goto(f"/manage/open-board/night/{event.pk}/round/1/")
    p.locator("#board-2 summary").click()
    forfeits = p.locator("#board-2 details").element_handle()
    tap(p, 1, 1, "1–0")
    p.locator("[data-night-pending]").wait_for(state="hidden")
    p.wait_for_load_state("networkidle")
    assert forfeits.evaluate("(details) => details.isConnected && details.open")
    p.locator("#board-2").get_by_role("button", name="Board 2: 1–0 by forfeit", exact=True).click()
    p.locator("[data-night-pending]").wait_for(state="hidden")
    assert (
        Game.objects.get(event=event, round=1, white=event.round_boards(1)[1].white).result == "+-"
    )
    context.close()
