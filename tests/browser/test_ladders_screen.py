"""The directors' ladders screen in a real browser: the list, a move's preview of both ladders
and a ladder's rating settings; axe finds nothing at all, on desktop and phone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from clubs.results import Result
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder
from tests.browser.test_club_pages import all_violations
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_event, make_players, make_user

pytestmark = pytest.mark.django_db(transaction=True)

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture
def club():
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director)
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    for month, kind in enumerate(["standard", "blitz", "standard", "blitz"], start=1):
        make_event(
            club,
            [(1, ann, bob, W), (1, cid, dee, D), (2, ann, cid, B), (2, bob, dee, W)],
            date=dt.date(2026, month, 5),
            kind=kind,
        )
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    return club


@pytest.mark.parametrize("width", [1280, 390])
def test_the_ladders_screen_and_its_preview_have_no_accessibility_violation(
    browser, live_server, club, width
):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}
    )
    try:
        tab = context.new_page()
        sign_in(tab, "director@example.org")
        tab.goto("/manage/rooks/ladders/")
        tab.get_by_label("Name of the ladder").fill("Blitz")
        tab.get_by_label("Short name").fill("blitz")
        tab.get_by_role("button", name="Add the ladder").click()
        tab.wait_for_url("**/manage/rooks/ladders/")
        assert all_violations(tab) == [], ("list", width)
        tab.locator("#id_move_kind").select_option("blitz")
        tab.locator("#id_move_to").select_option("blitz")
        tab.get_by_role("button", name="Show how both ladders would move").click()
        tab.get_by_role("heading", name="How both ladders would move").wait_for()
        assert all_violations(tab) == [], ("preview", width)
        tab.goto("/manage/rooks/ladders/blitz/ratings/")
        assert all_violations(tab) == [], ("rating settings", width)
    finally:
        context.close()
