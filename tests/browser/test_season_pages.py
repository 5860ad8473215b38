"""The season pages in a real browser: axe finds nothing at all, on a desktop and a phone, in
English and Hindi (the demo club's events span the current season and the one before)."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from clubs.models import Club
from directors.demo import create_demo_club
from ladder.seasons.dates import season_of

pytestmark = pytest.mark.django_db(transaction=True)


def all_violations(page) -> list[str]:
    results = Axe().run(page)
    return [f"{v['id']}: {v['help']}" for v in results.response["violations"]]


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize("width", [1280, 390])
def test_the_season_pages_have_no_accessibility_violation_on_desktop_and_phone(
    browser, live_server, language, width
):
    create_demo_club()  # the in-process replay builds its ladder on commit
    demo = Club.objects.get(slug="demo")
    current = season_of(timezone.localdate(), demo.season_start_month)
    first = season_of(
        demo.events.published().order_by("date").first().date, demo.season_start_month
    )
    urls = ["/c/demo/seasons/", f"/c/demo/seasons/{current.label}/"]
    if first != current:
        urls.append(f"/c/demo/seasons/{first.label}/")
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        extra_http_headers={"Accept-Language": language},
    )
    try:
        tab = context.new_page()
        for url in urls:
            assert tab.goto(url).status == 200, url
            assert tab.locator("html").get_attribute("lang") == language, url
            assert all_violations(tab) == [], (url, width, language)
        tab.goto(f"/c/demo/seasons/{current.label}/")
        assert tab.locator("table.ladder tbody tr").count() > 0
    finally:
        context.close()
