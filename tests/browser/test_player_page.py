"""The player page in a real browser: a phone's width, the keyboard, print, and axe."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from clubs.models import Club, Event, Player
from directors.demo import create_demo_club

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def demo() -> Club:
    create_demo_club()  # the in-process replay builds its ladder on commit
    club = Club.objects.get(slug="demo")
    assert club.ladder_is_current
    return club


def busiest(club: Club) -> Player:
    """The player with the most events: the longest breakdowns and head-to-head table."""
    players = club.players.rated_on(club.first_ladder()).on_ladder()
    return max(players, key=lambda p: (p.event_results.count(), -p.pk))


def open_player(page, club: Club, language: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    if language != "en":
        # The language switcher's own link, as a visitor chooses a language.
        page.goto("/c/demo/")
        page.locator(f'nav.languages a[hreflang="{language}"]').click()
        page.wait_for_load_state()
    page.goto(f"/c/demo/players/{busiest(club).pk}/")
    assert page.locator("html").get_attribute("lang") == language


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_nothing_on_the_player_page(page, demo, language, size):
    open_player(page.page, demo, language, size)
    violations = Axe().run(page.page).response["violations"]
    assert [f"{v['id']}: {v['help']}" for v in violations] == []
    assert page.csp_violations() == []


def test_at_phone_width_every_column_of_a_breakdown_is_on_screen_and_labelled(page, demo):
    p = page.page
    open_player(p, demo, "en", PHONE)
    breakdown = p.locator("details.event-breakdown[open] table.games").first
    width = p.evaluate("document.documentElement.clientWidth")
    for column in ["Result", "Counted"]:
        cell = breakdown.locator(f'td[data-label="{column}"]').first
        assert cell.is_visible()
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, column
        # The label is drawn beside the value, since the column heads are hidden here.
        label = cell.evaluate("c => getComputedStyle(c, '::before').content")
        assert column in label
    # Nothing on the page scrolls sideways but the regions made for it.
    assert p.evaluate("document.documentElement.scrollWidth") <= width


def test_the_lifetime_record_is_a_keyboard_reachable_region(page, demo):
    p = page.page
    open_player(p, demo, "en", PHONE)
    region = p.locator("div.scroll:has(table.record)")
    assert region.get_attribute("role") == "region"
    assert region.get_attribute("tabindex") == "0"
    for _ in range(60):
        p.keyboard.press("Tab")
        if region.evaluate("r => r === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the lifetime record")
    assert p.evaluate("document.activeElement.getAttribute('aria-labelledby')") == "record-title"


def test_printing_shows_every_events_breakdown(page, demo):
    p = page.page
    open_player(p, demo, "en", DESKTOP)
    closed = p.locator("details.event-breakdown:not([open]) p.why")
    assert closed.count() > 0
    assert not closed.first.is_visible()  # on screen, older events are closed
    p.emulate_media(media="print")
    printed = p.locator(".print-only .event-print")
    assert printed.count() == p.locator("details.event-breakdown").count()
    for n in range(printed.count()):
        section = printed.nth(n)
        assert section.locator("p.why").is_visible()
        assert section.locator("p.why").inner_text().strip()
    assert not p.locator("details.event-breakdown").first.is_visible()
    p.emulate_media(media="screen")
    assert not printed.first.is_visible()


def test_the_chart_needs_no_script_and_says_which_events_were_not_rated(browser, live_server, demo):
    # A bughouse party is never rated: someone who played it has an unrated point.
    player = demo.players.filter(event_results__event__kind=Event.Kind.BUGHOUSE).first()
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    try:
        p = context.new_page()
        p.goto(f"/c/demo/players/{player.pk}/")
        svg = p.locator("svg.chart")
        assert svg.is_visible()
        assert svg.locator(".dates text").count() >= 4
        assert svg.locator(".points rect.unrated").count() >= 1
        assert "event not rated" in svg.locator(".legend").text_content()
        assert svg.locator(".points path.start").count() == 1
    finally:
        context.close()
