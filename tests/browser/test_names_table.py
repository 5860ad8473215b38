"""The names table in a real browser, by keyboard only: a filter, the bulk accept, one row's
choice, and the save."""

from __future__ import annotations

import datetime as dt

import pytest
from axe_playwright_python.sync_playwright import Axe

from clubs.models import Club, Entry, Game, Player
from clubs.results import Result
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_event, make_user

pytestmark = pytest.mark.django_db(transaction=True)


def tab_to(p, locator, most: int = 80) -> None:
    """Press Tab until `locator` has the focus, as a keyboard user would."""
    for _ in range(most):
        p.keyboard.press("Tab")
        if locator.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {locator}")


def focus_is_visible(p) -> bool:
    """The focused element draws an outline (the table's :focus-visible rule)."""
    style = p.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    return style not in {"none", ""}


def test_a_director_filters_bulk_accepts_and_decides_a_row_by_keyboard(page):
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director, visibility=Club.Visibility.PUBLIC)
    jurgen, emma, eva = (
        Player.objects.create(club=club, name=name)
        for name in ["Jürgen Müller", "Emma de Vries", "Eva de Vries"]
    )
    event = make_event(club, [], published=False, name="Summer open", date=dt.date(2024, 9, 1))
    muller, vries, newcomer, other = (
        Entry.objects.create(event=event, typed_name=name, start_rank=rank)
        for rank, name in enumerate(
            ["Müller, Jürgen", "E. de Vries", "Kandic, Milan", "Bos, Anna"], start=1
        )
    )
    for white, black in [(muller, vries), (newcomer, other)]:
        Game.objects.create(event=event, round=1, white=white, black=black, result=Result.WHITE_WIN)
    p = page.page
    sign_in(p, "director@example.org")
    names = f"/manage/{club.slug}/events/{event.pk}/names/"
    p.goto(names)

    # The "Suggested" filter, reached and followed by keyboard.
    suggested = p.get_by_role("link", name="Suggested (1)")
    tab_to(p, suggested)
    assert focus_is_visible(p)
    p.keyboard.press("Enter")
    p.wait_for_url("**/names/?show=suggested")
    assert p.locator("table.names tbody tr").count() == 1

    # The bulk accept.
    accept = p.get_by_role("button", name="Accept the one same-name link")
    tab_to(p, accept)
    assert focus_is_visible(p)
    with p.expect_navigation():
        p.keyboard.press("Enter")
    assert "1 linked to existing players" in p.locator(".messages").inner_text()
    assert Entry.objects.get(pk=muller.pk).player_id == jurgen.pk

    # Back to every name still to confirm; E. de Vries is one of two: choose Eva by keyboard.
    p.goto(names)
    choice = p.get_by_label("Who is “E. de Vries”?")
    tab_to(p, choice)
    assert focus_is_visible(p)
    assert choice.input_value() == ""  # two alike: nothing chosen for the director
    for _ in range(6):  # "Decide later" is the last option: up through the others
        if choice.input_value() == f"p{eva.pk}":
            break
        p.keyboard.press("ArrowUp")
    assert choice.input_value() == f"p{eva.pk}"
    tab_to(p, p.get_by_role("button", name="Save names"))
    with p.expect_navigation():
        p.keyboard.press("Enter")
    linked = dict(event.entries.values_list("typed_name", "player__name"))
    assert linked["E. de Vries"] == "Eva de Vries"
    assert linked["Kandic, Milan"] == "Kandic, Milan"  # no likely match: a new player
    assert linked["Müller, Jürgen"] == "Jürgen Müller"
    assert emma.entries.count() == 0
    assert page.csp_violations() == []


def test_the_names_table_has_no_serious_accessibility_violation(page):
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director)
    Player.objects.create(club=club, name="Emma de Vries")
    event = make_event(club, [], published=False, name="Summer open")
    white = Entry.objects.create(event=event, typed_name="E. de Vries", start_rank=1)
    black = Entry.objects.create(event=event, typed_name="Bos, Anna", start_rank=2)
    Game.objects.create(event=event, round=1, white=white, black=black, result=Result.DRAW)
    sign_in(page.page, "director@example.org")
    page.page.goto(f"/manage/{club.slug}/events/{event.pk}/names/")
    results = Axe().run(page.page)
    serious = [
        f"{v['id']}: {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]
    assert serious == []


def test_at_phone_width_every_row_is_usable_without_sideways_scrolling(page):
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director)
    jurgen = Player.objects.create(club=club, name="Jürgen Müller")
    Player.objects.create(club=club, name="Emma de Vries")
    Player.objects.create(club=club, name="Eva de Vries")
    event = make_event(club, [], published=False, name="Summer open", date=dt.date(2024, 9, 1))
    muller, vries, newcomer, other = (
        Entry.objects.create(
            event=event,
            typed_name=name,
            start_rank=rank,
            rating_in_file=2000 + rank,
            fide_id="34000420" if rank == 1 else "",
            federation="GER",
        )
        for rank, name in enumerate(
            ["Müller, Jürgen", "E. de Vries", "Kandic-Wolkenstein, Maximilian", "Bos, Anna"],
            start=1,
        )
    )
    for white, black in [(muller, vries), (newcomer, other)]:
        Game.objects.create(event=event, round=1, white=white, black=black, result=Result.WHITE_WIN)
    p = page.page
    p.set_viewport_size({"width": 390, "height": 844})
    sign_in(p, "director@example.org")
    names = f"/manage/{club.slug}/events/{event.pk}/names/"
    p.goto(names)

    def page_width() -> int:
        return p.evaluate("() => document.scrollingElement.scrollWidth")

    assert p.locator("table.names tbody tr").count() == 4
    assert page_width() <= 390
    # Every row's decision, its heading and its "another player" box are on the screen.
    for entry in (muller, vries, newcomer, other):
        row = p.locator(f"#name-{entry.pk}")
        for part in (row.locator("select"), row.locator("th"), row.locator("summary")):
            box = part.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, entry
    label = p.evaluate(
        "() => getComputedStyle(document.querySelector('table.names td[data-label]:not(.num)'),"
        " '::before').content"
    )
    assert "The file says" in label  # the column's heading shown over the stacked cell
    # A row's "another player" box opens and still fits.
    p.locator(f"#name-{vries.pk} summary").click()
    assert p.locator(f"#id_other_{vries.pk}").is_visible()
    assert page_width() <= 390

    # The bulk accept, at this width too.
    accept = p.get_by_role("button", name="Accept the one same-name link")
    box = accept.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    tab_to(p, accept)
    with p.expect_navigation():
        p.keyboard.press("Enter")
    assert "1 linked to existing players" in p.locator(".messages").inner_text()
    assert Entry.objects.get(pk=muller.pk).player_id == jurgen.pk
    assert page_width() <= 390
