"""Club pages as a member's browser shows them: privacy, the chart, Hindi, accessibility."""

import datetime as dt

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.db import transaction

from clubs.models import Club, Ladder, PairingSystem
from clubs.results import Result
from directors.demo import create_demo_club
from directors.night import evening
from directors.night import rounds as night_rounds
from ladder.replay import replay_ladder
from ladder.roster.ladders import set_kinds
from tests.factories import make_event

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo():
    create_demo_club()  # the in-process replay builds its ladder on commit
    club = Club.objects.get(slug="demo")
    assert club.ladder_is_current
    return club


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


def test_an_unlisted_ladder_reached_through_its_link_carries_noindex(page, demo):
    with transaction.atomic():
        Club.objects.filter(pk=demo.pk).update(visibility=Club.Visibility.UNLISTED)
    demo.refresh_from_db()
    response = page.page.goto(f"/c/demo/s/{demo.secret}/")
    assert response.status == 200
    assert response.headers["x-robots-tag"] == "noindex, nofollow"
    robots = page.page.locator('meta[name="robots"]').get_attribute("content")
    assert robots == "noindex"
    assert page.page.goto("/c/demo/").status == 404
    assert page.csp_violations() == []


def test_a_player_page_shows_the_rating_chart(page, demo):
    player = demo.players.rated_on(demo.first_ladder()).on_ladder().in_ladder_order().first()
    page.page.goto(f"/c/demo/players/{player.pk}/")
    chart = page.page.locator("svg").first
    assert chart.is_visible()
    assert chart.locator("circle, path, polyline").count() > 0
    box = chart.bounding_box()
    assert box["width"] > 200 and box["height"] > 100
    assert page.csp_violations() == []


def test_the_hindi_ladder_renders_devanagari_with_the_shipped_font(page, demo):
    page.page.goto("/c/demo/")
    page.page.get_by_role("link", name="हिंदी").click()  # the language switcher
    page.page.wait_for_load_state()
    assert page.page.locator("html").get_attribute("lang") == "hi"
    heading = page.page.locator("h2, h1").all_inner_texts()
    assert any("\u0900" <= ch <= "\u097f" for text in heading for ch in text)
    page.page.evaluate("document.fonts.ready")
    # The face shipped in static/fonts, not a system font, is what the page loaded.
    loaded = page.page.evaluate(
        "() => [...document.fonts].filter(f => f.family.includes('Noto Sans Devanagari')"
        " && f.status === 'loaded').length"
    )
    assert loaded >= 1
    assert page.csp_violations() == []


@pytest.mark.parametrize("which", ["ladder", "player", "event"])
def test_automated_accessibility_checks_find_no_serious_violation(page, demo, which):
    rated = demo.players.rated_on(demo.first_ladder()).on_ladder()
    urls = {
        "ladder": "/c/demo/",
        "player": f"/c/demo/players/{rated.first().pk}/",
        "event": f"/c/demo/events/{demo.events.published().filter(rated=True).first().pk}/",
    }
    page.page.goto(urls[which])
    assert serious_violations(page.page) == []


def all_violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']}" for v in results.response["violations"]]


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("width", [1280, 390])
def test_event_pages_have_no_accessibility_violation_on_desktop_and_phone(
    browser, live_server, demo, language, width
):
    """The event page (a Swiss, its standings after a round, its rounds and wall chart, a
    round robin with its crosstable) and the list of events: axe finds nothing at all, in
    English and Hindi."""
    players = list(demo.players.rated_on(demo.first_ladder()).on_ladder().in_ladder_order()[:5])
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    with transaction.atomic():
        robin = make_event(
            demo,
            [(n // 2 + 1, a, b, Result.DRAW if n % 3 else Result.WHITE_WIN) for n, (a, b) in
             enumerate(pairs)],
            name="Summer round robin",
        )  # fmt: skip
    swiss = demo.events.published().filter(rated=True, kind="standard").first()
    urls = [
        f"/c/demo/events/{swiss.pk}/",
        f"/c/demo/events/{swiss.pk}/?after=2",
        f"/c/demo/events/{swiss.pk}/rounds/",
        f"/c/demo/events/{swiss.pk}/wallchart/",
        f"/c/demo/events/{swiss.pk}/ratings/",
        f"/c/demo/events/{robin.pk}/",
        "/c/demo/events/",
    ]
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    try:
        tab = context.new_page()
        for url in urls:
            tab.goto(url)
            assert tab.locator("html").get_attribute("lang") == language, url
            if url == f"/c/demo/events/{robin.pk}/":
                assert tab.locator("table.crosstable").is_visible()
            assert all_violations(tab) == [], (url, width, language)
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("width", [1280, 390])
def test_a_club_nights_live_page_has_no_accessibility_violation(
    browser, live_server, demo, language, width
):
    """The members' live page of a club night with a round on the boards (one result in,
    one board still playing) and the events list that links it."""
    players = list(demo.players.rated_on(demo.first_ladder()).on_ladder().in_ladder_order()[:5])
    night = evening.start_event(
        demo, name="Tuesday night", date=dt.date(2026, 12, 1), system=PairingSystem.SWISS,
        rounds=3, players=players, user=None,
    )  # fmt: skip
    night_rounds.pair_next_round(night.pk, None)
    night_rounds.enter_result(night.pk, 1, 1, Result.DRAW, None)
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    try:
        tab = context.new_page()
        for url in [f"/c/demo/events/{night.pk}/live/", "/c/demo/events/"]:
            tab.goto(url)
            assert tab.locator("html").get_attribute("lang") == language, url
            assert all_violations(tab) == [], (url, width, language)
        tab.goto(f"/c/demo/events/{night.pk}/live/")
        assert tab.locator("table.live-boards tbody tr").count() == 3  # two boards, the bye
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_ladder_and_roster_have_no_accessibility_violation_on_desktop_and_phone(
    browser, live_server, demo, language, width
):
    """The ladder (sorted, searched, on a date, before the first event, a malformed date),
    the roster and the rating rules: axe finds nothing at all, at any impact, in English and
    Hindi."""
    dates = list(demo.events.published().order_by("date").values_list("date", flat=True))
    urls = [
        "/c/demo/",
        "/c/demo/?sort=rating&dir=asc",
        "/c/demo/?q=de",
        f"/c/demo/?on={dates[len(dates) // 2]}",
        f"/c/demo/?on={dates[len(dates) // 2]}&active=1&q=de",
        f"/c/demo/?on={dates[0] - dt.timedelta(days=1)}",
        "/c/demo/?on=not-a-date",
        "/c/demo/players/",
        "/c/demo/players/?q=an",
        "/c/demo/how-ratings-work/",
    ]
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    try:
        tab = context.new_page()
        for url in urls:
            tab.goto(url)
            assert tab.locator("html").get_attribute("lang") == language, url
            assert all_violations(tab) == [], (url, width, language)
    finally:
        context.close()


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_pages_of_a_club_with_two_ladders_have_no_accessibility_violation(
    browser, live_server, demo, language, width
):
    """A blitz ladder beside the first: the front page with its tabs, the blitz ladder
    (sorted), a player's page with a part per ladder, the event page that names its
    ladder and the list of events: axe finds nothing at all, in English and Hindi."""
    blitz = Ladder.objects.create(club=demo, slug="blitz", name="Blitz", position=1, kinds=[])
    set_kinds(blitz, ["blitz"], take=True)
    replay_ladder(demo.pk)
    night = demo.events.published().filter(kind="blitz").first()
    both = (
        demo.players.filter(event_results__ladder=blitz)
        .filter(event_results__ladder__slug="main")
        .distinct()
        .first()
    )
    assert both is not None
    urls = [
        "/c/demo/",
        "/c/demo/ladders/blitz/",
        "/c/demo/ladders/blitz/?sort=rating&dir=asc",
        f"/c/demo/players/{both.pk}/",
        f"/c/demo/events/{night.pk}/",
        "/c/demo/events/",
    ]
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    try:
        tab = context.new_page()
        for url in urls:
            tab.goto(url)
            assert tab.locator("html").get_attribute("lang") == language, url
            assert all_violations(tab) == [], (url, width, language)
        tab.goto(f"/c/demo/players/{both.pk}/")
        assert tab.locator("section.ladder-part svg.chart").count() == 2
    finally:
        context.close()
