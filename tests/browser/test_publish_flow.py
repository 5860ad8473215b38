"""A director publishes a tournament from a TRF file in a real browser, then corrects it."""

from pathlib import Path

import pytest

from clubs.models import Club, Player
from tests.factories import PASSWORD, make_club, make_user

pytestmark = pytest.mark.django_db(transaction=True)

TRF = Path(__file__).resolve().parents[1] / "directors" / "importers" / "files" / "vega_style.trf"


def sign_in(page, email):
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def ladder_rating(page, club, name):
    page.goto(f"/c/{club.slug}/")
    row = page.locator("table tr", has_text=name)
    return row.inner_text()


def test_a_director_uploads_confirms_previews_publishes_and_corrects(page):
    """Jobs run in-process here; the next test runs the same flow with a real worker."""
    publish_and_correct(page, after_change=lambda: None)


@pytest.mark.postgres
@pytest.mark.redis
def test_the_same_flow_with_a_real_worker_replaying(page):
    from django.conf import settings
    from redis import Redis

    from tests.live import run_burst_worker

    Redis.from_url(settings.REDIS_URL).flushdb()
    publish_and_correct(page, after_change=lambda: run_burst_worker(settings.REDIS_URL))


def publish_and_correct(page, after_change) -> None:
    director = make_user("director@example.org")
    club = make_club(slug="scalea", owner=director, visibility=Club.Visibility.PUBLIC)
    Player.objects.create(club=club, name="Luca Bianchi")
    p = page.page
    sign_in(p, "director@example.org")

    p.goto(f"/manage/{club.slug}/events/")
    p.get_by_role("link", name="New event").click()
    p.get_by_label("Name").fill("Torneo di Natale")
    p.get_by_label("Date").fill("2023-12-18")
    p.get_by_role("button", name="Create draft").click()
    p.wait_for_url("**/results/")
    event_url = f"/manage/{club.slug}/events/{club.events.get().pk}"

    p.get_by_label("Results file").set_input_files(str(TRF))
    p.get_by_role("button", name="Upload").click()
    p.wait_for_url("**/names/")
    # The roster's Luca Bianchi is suggested for "Bianchi Luca", with the reason.
    assert p.get_by_text("Luca Bianchi").first.is_visible()
    p.get_by_role("button", name="Save names").click()
    p.wait_for_load_state()

    p.goto(f"{event_url}/preview/")
    assert p.get_by_role("button", name="Publish").is_visible()
    preview = p.locator("main").inner_text()
    assert "Luca Bianchi" in preview
    p.get_by_role("button", name="Publish").click()
    p.wait_for_load_state()
    after_change()

    before = ladder_rating(p, club, "Luca Bianchi")
    assert "Luca Bianchi" in before
    assert page.csp_violations() == []

    # Correct one result: Bianchi's round-1 win becomes a loss.
    p.goto(f"{event_url}/results/grid/")
    first_result = p.locator("select").first
    options = first_result.locator("option").all_inner_texts()
    current = first_result.input_value()
    other = next(
        o
        for o in first_result.locator("option").all()
        if o.get_attribute("value") not in {current, ""}
    )
    first_result.select_option(other.get_attribute("value"))
    p.get_by_role("button", name="Save results").click()
    p.wait_for_load_state()
    # A correction to a published event shows its effect and waits for confirmation.
    assert "Luca Bianchi" in p.locator("main").inner_text()
    p.get_by_role("button", name="Apply the correction").click()
    p.wait_for_load_state()
    after_change()
    after = ladder_rating(p, club, "Luca Bianchi")
    assert after != before, options
    assert page.csp_violations() == []
