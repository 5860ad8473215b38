"""A whole club night on a phone-sized page, from check-in to publish, with a real rq worker
rating it: a 9-player Swiss of 4 rounds and a 6-player round robin."""

from __future__ import annotations

import re
from itertools import combinations

import pytest

from clubs.models import Club, Event, Player
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_user, rated_players

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.redis]

PHONE = {"width": 390, "height": 844}
ROSTER = [
    "Ada Lovelace", "Boris Spassky", "Carmen Kass", "Dirk Nowitzki", "Elena Ferrante",
    "Frank Marshall", "Greta Gerwig", "Hugo Alfven", "Ines Sastre", "Jonas Kaufmann",
]  # fmt: skip
EVENING = re.compile(r"/night/\d+/$")


@pytest.fixture
def phone(page):
    page.page.set_viewport_size(PHONE)
    return page


@pytest.fixture
def worker_queue():
    from django.conf import settings
    from redis import Redis

    Redis.from_url(settings.REDIS_URL).flushdb()
    return settings.REDIS_URL


def points(text: str) -> float:
    """ "2½" -> 2.5, "½" -> 0.5, "3" -> 3."""
    text = text.strip()
    half = 0.5 if text.endswith("½") else 0.0
    whole = text.rstrip("½")
    return (int(whole) if whole else 0) + half


def check_in(p, club, ticked, *, newcomer, name, system, rounds=None) -> None:
    p.goto(f"/manage/{club.slug}/events/")
    p.get_by_role("link", name="Start a club night").click()
    p.wait_for_url(re.compile(r"/night/new/$"))
    # The search filters the list as one types (the script); a ticked player stays ticked.
    search = p.get_by_label("Find a player")
    search.fill(ticked[0].split()[0])
    assert p.locator("#roster li:visible").count() == 1
    p.get_by_label(ticked[0]).check()
    search.fill("")
    for player in ticked[1:]:
        p.get_by_label(player).check()
    # The count follows each tick (the script), and so does a round robin's length.
    assert p.locator("#night-ticked").inner_text() == f"{len(ticked)} players ticked"
    rounds_of = len(ticked) - 1 if len(ticked) % 2 == 0 else len(ticked)
    assert f"has {rounds_of} rounds" in p.locator("#night-rr").inner_text()
    if newcomer:
        # A newcomer is added by the server: the page comes back with every tick kept.
        p.get_by_label("Newcomer's name").fill(newcomer)
        p.get_by_role("button", name="Add and tick").click()
        p.wait_for_load_state()
        for player in [*ticked, newcomer]:
            assert p.get_by_label(player).is_checked(), player
    p.get_by_label("Name:", exact=True).fill(name)
    p.get_by_label(system, exact=True).check()
    if rounds:
        p.get_by_label("Rounds:", exact=True).fill(str(rounds))
    p.get_by_role("button", name="Start the evening").click()
    p.wait_for_load_state()
    assert EVENING.search(p.url), p.locator("main").inner_text()


def pair_round(p, number: int) -> tuple[list[tuple[str, str]], str | None]:
    """Pair the round from the evening page; the boards (white, black) and the bye."""
    p.get_by_role("button", name=f"Pair round {number}", exact=True).click()
    p.wait_for_url(re.compile(rf"/round/{number}/sheet/$"))
    boards = []
    # Each cell holds the name, the rating and the score before the round: the name is .who.
    for row in p.locator("table.sheet tbody tr").all():
        white, black = (name.strip() for name in row.locator("td.name .who").all_inner_texts())
        boards.append((white, black))
    bye = p.locator("#bye .who")
    if not bye.count():
        return boards, None
    return boards, bye.inner_text().strip()


def tap_results(p, count: int, *, forfeit_on: int | None = None) -> None:
    p.get_by_role("link", name="Enter results").click()
    p.wait_for_url(re.compile(r"/round/\d+/$"))
    taps = ["1–0", "½–½", "0–1"]
    for board in range(1, count + 1):
        row = p.locator(f"#board-{board}")
        if board == forfeit_on:
            # The second step: no ordinary tap records a forfeit.
            row.locator("summary").click()
            row.get_by_role("button", name=f"Board {board}: 1–0 by forfeit", exact=True).click()
        else:
            row.get_by_role("button", name=f"Board {board}: {taps[board % 3]}", exact=True).click()
        p.wait_for_load_state()
        assert p.locator(f"#board-{board} .current").inner_text().strip() != "No result yet"
    # With the script, taps are sent in the background: every one is in before moving on.
    p.locator("[data-night-pending]").wait_for(state="hidden")


def standings_points(p) -> list[float]:
    p.get_by_role("link", name="Standings").first.click()
    p.wait_for_url(re.compile(r"/standings/"))
    return [points(cell) for cell in p.locator("td.points").all_inner_texts()]


def publish_and_rate(p, club, event_id: int, queue: str, names: list[str]) -> None:
    from tests.live import run_burst_worker

    p.goto(f"/manage/{club.slug}/night/{event_id}/")
    p.get_by_role("button", name="Publish").click()
    p.wait_for_url(re.compile(rf"/events/{event_id}/$"))
    assert Event.objects.get(pk=event_id).status == Event.Status.PUBLISHED
    run_burst_worker(queue)
    p.goto(f"/c/{club.slug}/")
    ladder = p.locator("main table").first
    for name in names:
        player = rated_players().get(club=club, name=name)
        assert player.rating is not None, name
        shown = ladder.locator("tr", has_text=name).inner_text()
        # The page rounds half up; either neighbour of the stored rating is the one shown.
        assert {str(int(player.rating)), str(int(player.rating) + 1)} & set(
            re.findall(r"\d+", shown)
        ), name


def setup_club():
    director = make_user("night@example.org")
    club = make_club(slug="knights", owner=director, visibility=Club.Visibility.PUBLIC)
    for name in ROSTER:
        Player.objects.create(club=club, name=name)
    return club


def test_a_nine_player_swiss_from_check_in_to_the_ladder(phone, worker_queue):
    club = setup_club()
    p = phone.page
    sign_in(p, "night@example.org")
    ticked = ROSTER[:8]
    check_in(
        p,
        club,
        ticked,
        newcomer="Kai Newman",
        name="Tuesday Swiss",
        system="Swiss (FIDE Dutch)",
        rounds=4,
    )
    event = Event.objects.get(club=club)
    assert event.entries.count() == 9

    met: set[frozenset[str]] = set()
    byes: list[str] = []
    for number in range(1, 5):
        boards, bye = pair_round(p, number)
        assert len(boards) == 4
        assert bye is not None
        byes.append(bye)
        for white, black in boards:
            pair = frozenset((white, black))
            assert pair not in met, (number, pair)
            met.add(pair)
        tap_results(p, 4)
        p.get_by_role(
            "link", name="The evening" if number == 4 else f"On to round {number + 1}"
        ).last.click()
        p.wait_for_url(EVENING)
    assert len(set(byes)) == 4  # nobody gets the pairing-allocated bye twice
    # 16 games of one point each and four one-point byes.
    assert sum(standings_points(p)) == 16 + 4
    assert p.locator("th[data-tiebreak]").count() == 5
    assert phone.csp_violations() == []
    publish_and_rate(p, club, event.pk, worker_queue, [*ticked, "Kai Newman"])


def test_a_six_player_round_robin_with_a_forfeit(phone, worker_queue):
    club = setup_club()
    p = phone.page
    sign_in(p, "night@example.org")
    ticked = ROSTER[2:8]
    check_in(p, club, ticked, newcomer=None, name="Club round robin", system="Round robin")
    event = Event.objects.get(club=club)
    assert event.planned_rounds == 5

    met: set[frozenset[str]] = set()
    for number in range(1, 6):
        boards, bye = pair_round(p, number)
        assert len(boards) == 3
        assert bye is None
        met |= {frozenset(board) for board in boards}
        tap_results(p, 3, forfeit_on=2 if number == 3 else None)
        p.get_by_role(
            "link", name="The evening" if number == 5 else f"On to round {number + 1}"
        ).last.click()
        p.wait_for_url(EVENING)
    # Every pair met exactly once: 15 distinct pairs in 15 boards.
    assert met == {frozenset(pair) for pair in combinations(ticked, 2)}
    assert event.games.filter(result="+-").count() == 1
    assert sum(standings_points(p)) == 15
    publish_and_rate(p, club, event.pk, worker_queue, ticked)
