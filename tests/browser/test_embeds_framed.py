"""The embeds framed by another site in a real browser (issue 37): a page on a site the club
lists shows the ladder inside its frame; a page on any other site gets nothing, and the
club's ordinary pages refuse every frame.

The two framing sites are answered by Playwright itself (page.route), so no second server is
needed: what is tested is Chromium applying the frame-ancestors the embed sends."""

import pytest

from clubs.models import Club
from directors.demo import create_demo_club
from tests.browser.conftest import CHROMIUM

pytestmark = pytest.mark.django_db(transaction=True)

ALLOWED = "http://127.0.0.1:9"  # a site the club lists
FORBIDDEN = "http://localhost:9"  # any other site
# A page Playwright answers has no address, so Chromium's local network checks would take it
# for a public site framing a local one and block every frame before frame-ancestors is read.
NO_LOCAL_NETWORK_CHECKS = "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessChecks"


def _framing(context, site: str, src: str):
    """A page of `site` whose only content is an iframe of `src`."""
    html = f'<!doctype html><title>Club site</title><iframe src="{src}" title="Ladder"></iframe>'
    context.route(f"{site}/**", lambda route: route.fulfill(content_type="text/html", body=html))
    tab = context.new_page()
    tab.goto(f"{site}/club.html")
    tab.wait_for_load_state("load")
    (frame,) = [frame for frame in tab.frames if frame != tab.main_frame]
    return frame


def _shows_the_ladder(frame) -> bool:
    try:
        return "Demo Chess Club" in frame.content()
    except Exception:  # a blocked frame's document cannot be read
        return False


def test_a_listed_site_frames_the_ladder_and_another_site_does_not(browser, live_server):
    create_demo_club()
    Club.objects.filter(slug="demo").update(embed_origins=[ALLOWED])
    embed = f"{live_server.url}/c/demo/embed/ladder/?top=5"
    own = browser.browser_type.launch(
        executable_path=CHROMIUM, args=["--no-sandbox", NO_LOCAL_NETWORK_CHECKS]
    )
    context = own.new_context()
    try:
        allowed = _framing(context, ALLOWED, embed)
        allowed.wait_for_selector("table")
        assert _shows_the_ladder(allowed)
        assert len(allowed.locator("tbody tr").all()) == 5

        forbidden = _framing(context, FORBIDDEN, embed)
        assert not _shows_the_ladder(forbidden)
        # The club's ordinary pages refuse to be framed even by the listed site.
        page = _framing(context, ALLOWED, f"{live_server.url}/c/demo/")
        assert not _shows_the_ladder(page)
    finally:
        context.close()
        own.close()
