"""A five-round club night on a phone where everything that goes wrong every month does: a
regular typed as a newcomer, a couple who must never meet, a swap by hand before round 1's
first result, a result corrected two rounds late and a tap from a stale tab. Then it is
published, and the event page and both exports hold the corrected result.

Jobs run in-process (the default of the test settings), so publishing rates at once.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import expect

from clubs.models import Board, Club, Event, Game, Player
from clubs.results import Result
from tests.browser.test_club_night import EVENING, pair_round, tap_results
from tests.browser.test_publish_flow import sign_in
from tests.directors.night.test_night_exports import read_back, stored_games
from tests.factories import make_club, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
REGULARS = [
    "Ada Lovelace", "Boris Spassky", "Carmen Kass", "Dirk Nowitzki", "Elena Ferrante",
    "Frank Marshall", "Greta Gerwig", "Hugo Alfven", "Tariq Hassan",
]  # fmt: skip
COUPLE = ("Ada Lovelace", "Boris Spassky")  # siblings: never paired together
TYPED = "Tarik Hasan"  # how a helper types Tariq Hassan, a regular


def check_in_with_a_regular_typed_as_newcomer(p, club) -> None:
    p.goto(f"/manage/{club.slug}/night/new/")
    for name in REGULARS[:-1]:
        p.get_by_label(name).check()
    roster_size = Player.objects.filter(club=club).count()
    p.get_by_label("Newcomer's name").fill(TYPED)
    p.get_by_role("button", name="Add and tick").click()
    p.wait_for_load_state()
    # The screen shows the regular and waits: nothing is created until the director chooses.
    close = p.locator("#close-names")
    assert TYPED in close.inner_text()
    assert Player.objects.filter(club=club).count() == roster_size
    close.get_by_role("button", name="Tick Tariq Hassan").click()
    p.wait_for_load_state()
    assert Player.objects.filter(club=club).count() == roster_size
    for name in REGULARS:
        assert p.get_by_label(name).is_checked(), name
    p.get_by_label("Name:", exact=True).fill("Tuesday Swiss")
    p.get_by_label("Swiss (FIDE Dutch)", exact=True).check()
    p.get_by_label("Rounds:", exact=True).fill("5")
    p.get_by_role("button", name="Start the evening").click()
    p.wait_for_url(EVENING)


def keep_the_couple_apart(p) -> None:
    section = p.locator("#never-pair")
    section.locator("select[name=first]").select_option(label=COUPLE[0])
    section.locator("select[name=second]").select_option(label=COUPLE[1])
    section.get_by_role("button", name="Never pair them").click()
    p.wait_for_load_state()
    assert f"{COUPLE[0]} and {COUPLE[1]} are never paired." in p.locator("body").inner_text()
    assert f"{COUPLE[0]} – {COUPLE[1]}" in p.locator("#never-pair").inner_text()


def swap_two_whites(p, boards: list[tuple[str, str]]) -> tuple[int, int]:
    """Swap the white players of the first two boards the couple is not on."""
    free = [n for n, pair in enumerate(boards, 1) if not set(pair) & set(COUPLE)][:2]
    first, second = free
    change = p.locator("#change")
    change.locator("select[name=first]").select_option(label=f"{first}: {boards[first - 1][0]}")
    change.locator("select[name=second]").select_option(label=f"{second}: {boards[second - 1][0]}")
    change.get_by_role("button", name="Swap the two players").click()
    p.wait_for_load_state()
    return first, second


def test_an_evening_that_goes_wrong_at_phone_width(browser, live_server):
    director = make_user("night@example.org")
    club = make_club(slug="knights", owner=director, visibility=Club.Visibility.PUBLIC)
    for name in REGULARS:
        Player.objects.create(club=club, name=name)
    context = browser.new_context(base_url=live_server.url, viewport=PHONE)
    p, tab_b = context.new_page(), context.new_page()
    sign_in(p, "night@example.org")

    check_in_with_a_regular_typed_as_newcomer(p, club)
    event = Event.objects.get(club=club)
    assert event.entries.count() == len(REGULARS)
    assert Player.objects.filter(club=club, name__in=[TYPED]).count() == 0
    night = f"/manage/{club.slug}/night/{event.pk}/"
    keep_the_couple_apart(p)

    # Round 1: swapped by hand before its first result, and the sheet says so.
    boards, _bye = pair_round(p, 1)
    first, second = swap_two_whites(p, boards)
    rows = p.locator("table.sheet tbody tr")
    for number in (first, second):
        row = rows.nth(number - 1)
        assert "changed by the director" in row.inner_text()
    assert rows.nth(first - 1).locator(".who").first.inner_text() == boards[second - 1][0]
    assert p.locator("table.sheet .tag", has_text="changed by the director").count() == 2
    tap_results(p, 4)  # board 1 is a draw
    p.goto(night)
    pair_round(p, 2)
    tap_results(p, 4)
    p.goto(night)
    pair_round(p, 3)

    # Round 1's board 1 was really a win for white, noticed with round 3 on the boards.
    p.goto(f"{night}round/1/")
    assert "Rounds 2, 3 are already paired" in p.locator("body").inner_text()
    p.get_by_role("button", name="Board 1: 1–0", exact=True).click()
    # The tap is answered in place (static/directors/night/offline.js).
    expect(p.locator("body")).to_contain_text("Rounds 2, 3 were already paired on the old result")
    corrected = Board.objects.get(event=event, round=1, number=1)
    assert corrected.game.result == Result.WHITE_WIN

    # A stale tab: this one shows round 3, the other pairs it again meanwhile.
    p.goto(f"{night}round/3/")
    tab_b.goto(night)
    tab_b.get_by_role("button", name="Pair round 3 again").click()
    tab_b.wait_for_url(EVENING)
    tab_b.get_by_role("button", name="Pair round 3", exact=True).click()
    tab_b.wait_for_url(re.compile(r"/round/3/sheet/$"))
    now = Board.objects.select_related("white__player", "black__player").get(
        event=event, round=3, number=1
    )
    p.get_by_role("button", name="Board 1: 1–0", exact=True).click()
    expect(p.locator("#board-1 .tap-refused")).to_contain_text(
        f"board 1 now holds {now.white.player.name} – {now.black.player.name}"
    )
    assert not Game.objects.filter(event=event, round=3, black__isnull=False).exists()

    p.goto(f"{night}round/3/sheet/")
    tap_results(p, 4)
    for number in (4, 5):
        p.goto(night)
        pair_round(p, number)
        tap_results(p, 4)

    # The couple never met; nobody met anyone twice.
    couple = set(Player.objects.filter(club=club, name__in=COUPLE).values_list("pk", flat=True))
    pairs = [
        frozenset((white, black))
        for white, black in event.games.filter(black__isnull=False).values_list(
            "white__player_id", "black__player_id"
        )
    ]
    assert len(pairs) == 5 * 4 and len(set(pairs)) == len(pairs)
    assert frozenset(couple) not in pairs

    p.goto(night)
    p.get_by_role("button", name="Publish").click()
    p.wait_for_url(re.compile(rf"/events/{event.pk}/$"))
    assert Event.objects.get(pk=event.pk).status == Event.Status.PUBLISHED

    # The event's rounds and both exports hold the corrected result, each game once.
    white, black = corrected.white.player.name, corrected.black.player.name
    p.goto(f"/c/{club.slug}/events/{event.pk}/rounds/")
    first_round = p.locator("[aria-labelledby=round-1] tbody tr", has_text=white)
    assert first_round.count() == 1
    assert re.search(rf"{white}\s+1–0\s+{black}", first_round.inner_text()), (
        first_round.inner_text()
    )
    games = stored_games(event)
    assert games[1, white, black, Result.WHITE_WIN] == 1
    for fmt, suffix in (("trf", "results.trf"), ("csv", "results.csv")):
        text = context.request.get(f"/c/{club.slug}/events/{event.pk}/{suffix}").text()
        assert read_back(text, fmt) == games, fmt
    assert sum(Counter(games).values()) == 5 * 4 + 5  # 20 games and five byes
    context.close()
