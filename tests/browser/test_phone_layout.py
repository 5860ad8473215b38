"""At 390 px no club page is wider than the screen, and the long tables keep the names in
view while their columns scroll sideways (issue 23)."""

from __future__ import annotations

import pytest
from django.db import transaction

from clubs.accounts import invitations
from clubs.models import Club, User
from clubs.results import Result
from directors.demo import DEMO_DIRECTOR_EMAIL, DEMO_DIRECTOR_PASSWORD, create_demo_club
from tests.factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)

WIDTH = 390


@pytest.fixture
def demo():
    create_demo_club()
    return Club.objects.get(slug="demo")


@pytest.fixture
def tab(browser, live_server):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": WIDTH, "height": 800}
    )
    yield context.new_page()
    context.close()


def page_width(tab) -> int:
    return tab.evaluate("() => document.documentElement.scrollWidth")


def test_no_club_page_is_wider_than_a_phone(tab, demo):
    players = list(demo.players.rated_on(demo.first_ladder()).on_ladder().in_ladder_order()[:5])
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    with transaction.atomic():
        robin = make_event(
            demo, [(n // 2 + 1, a, b, Result.DRAW) for n, (a, b) in enumerate(pairs)],
            name="Summer round robin",
        )  # fmt: skip
    swiss = demo.events.published().filter(rated=True).exclude(pk=robin.pk).first()
    player = players[0]
    for url in [
        "/c/demo/",
        "/c/demo/players/",
        f"/c/demo/players/{player.pk}/",
        "/c/demo/events/",
        f"/c/demo/events/{swiss.pk}/",
        f"/c/demo/events/{swiss.pk}/rounds/",
        f"/c/demo/events/{swiss.pk}/wallchart/",
        f"/c/demo/events/{swiss.pk}/ratings/",
        f"/c/demo/events/{robin.pk}/",
        "/c/demo/how-ratings-work/",
    ]:
        tab.goto(url)
        assert page_width(tab) <= WIDTH, url


@pytest.mark.parametrize("table", ["standings", "wallchart", "events"])
def test_the_names_stay_in_view_while_a_table_scrolls(tab, demo, table):
    swiss = demo.events.published().filter(rated=True).first()
    pages = {"events": "/c/demo/events/", "wallchart": f"/c/demo/events/{swiss.pk}/wallchart/"}
    tab.goto(pages.get(table, f"/c/demo/events/{swiss.pk}/"))
    scroller = tab.locator(f"div.scroll:has(> table.{table})").first
    name = tab.locator(f"table.{table} tbody tr").first.locator(":scope > :nth-child(2)")
    before = name.bounding_box()
    wide = scroller.evaluate("(el) => el.scrollWidth - el.clientWidth")
    if wide <= 0:
        pytest.skip(f"the {table} table fits the phone without scrolling")
    scroller.evaluate("(el) => { el.scrollLeft = el.scrollWidth; }")
    after = name.bounding_box()
    box = scroller.bounding_box()
    assert after["x"] >= box["x"] - 1 and after["x"] + after["width"] <= box["x"] + box["width"]
    assert before["width"] == pytest.approx(after["width"], abs=1)


def log_in(tab):
    tab.goto("/accounts/login/")
    tab.get_by_label("E-mail address").fill(DEMO_DIRECTOR_EMAIL)
    tab.get_by_label("Password").fill(DEMO_DIRECTOR_PASSWORD)
    tab.get_by_role("button", name="Log in").click()
    tab.wait_for_url("**/")


def test_no_directors_screen_is_wider_than_a_phone(tab, demo):
    """The screens a director opens on a phone at the club (issue 36): the club settings' embed
    snippets wrap instead of widening the page."""
    log_in(tab)
    for url in [
        "/manage/demo/",
        "/manage/demo/settings/",
        "/manage/demo/ratings/",
        "/manage/demo/players/",
        "/manage/demo/players/import/",
        "/manage/demo/events/",
        "/manage/demo/night/new/",
    ]:
        tab.goto(url)
        assert page_width(tab) <= WIDTH, url


def test_withdrawing_an_invitation_is_a_button_a_thumb_can_hit(tab, demo):
    """A pending invitation's Withdraw is a button at least 44 px tall, not a text link
    (issue 36: it was 24 px)."""
    owner = User.objects.get(email=DEMO_DIRECTOR_EMAIL)
    invitations.invite(demo, owner, "new.director@example.org")
    log_in(tab)
    tab.goto("/manage/demo/")
    withdraw = tab.locator("#pending-invitations").get_by_role("button", name="Withdraw")
    box = withdraw.bounding_box()
    assert box["height"] >= 44
    assert withdraw.evaluate("(el) => getComputedStyle(el).textDecorationLine") == "none"
    assert page_width(tab) <= WIDTH
    withdraw.click()
    tab.wait_for_url("**/manage/demo/")
    assert not invitations.pending(demo)
