"""The results grid typed by keyboard at phone width, as a director copies a paper sheet."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from clubs.models import Club, Event
from tests.factories import PASSWORD, make_club, make_event, make_user

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}

# Six players, three rounds, every board a result of one key.
SHEET = [
    (1, "Ann Apple", "Bob Baker", "1", "1-0"),
    (1, "Cid Cole", "Dee Dunn", "=", "1/2"),
    (1, "Eve Ernst", "Fay Ford", "0", "0-1"),
    (2, "Dee Dunn", "Ann Apple", "h", "1/2"),
    (2, "Fay Ford", "Bob Baker", "5", "1/2"),
    (2, "Cid Cole", "Eve Ernst", "1", "1-0"),
    (3, "Ann Apple", "Eve Ernst", "0", "0-1"),
    (3, "Bob Baker", "Dee Dunn", "=", "1/2"),
    (3, "Cid Cole", "Fay Ford", "1", "1-0"),
]


class Keyboard:
    """The page's keyboard, counting every key it presses."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.count += len(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1


def sign_in(page, email: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("E-mail address").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


@pytest.fixture
def grid(page):
    """A signed-in director on the grid of a new, empty draft event, at 390 px."""
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director, visibility=Club.Visibility.PUBLIC)
    event = make_event(club, published=False, name="Club night")
    p = page.page
    p.set_viewport_size(PHONE)
    sign_in(p, "director@example.org")
    p.goto(f"/manage/{club.slug}/events/{event.pk}/results/grid/")
    return event


def stored_games(event: Event) -> list[tuple[int, str, str | None, str]]:
    return [
        (g.round, g.white.typed_name, g.black.typed_name if g.black else None, g.result)
        for g in event.games.order_by("round", "id")
    ]


def test_a_six_player_three_round_event_is_typed_with_names_and_one_key_a_board(page, grid):
    p = page.page
    keyboard = Keyboard(p)
    p.locator("#id_row-0-white").click()  # the one click: into the first board's white
    for _round, white, black, key, _result in SHEET:
        keyboard.type(white)
        keyboard.press("Tab")
        keyboard.type(black)
        keyboard.press("Tab")
        keyboard.press(key)  # the result; the cursor moves on to the next board's white
    # Each name and its Tab, one key a board; the round is never typed: it carries forward
    # and starts the next round where a player would play twice.
    names_and_tabs = sum(len(white) + 1 + len(black) + 1 for _, white, black, _, _ in SHEET)
    assert keyboard.count == names_and_tabs + len(SHEET) == 180
    rounds = [p.locator(f"#id_row-{at}-round").input_value() for at in range(len(SHEET))]
    assert rounds == [str(round_no) for round_no, *_ in SHEET]
    assert (
        "Row 7 starts round 3: Ann Apple already plays in round 2."
        in p.locator("#grid-status").inner_text()
    )

    # At phone width the board's players and result are on screen together.
    for at in (0, 8):
        for part in ("white", "black", "result"):
            box = p.locator(f"#id_row-{at}-{part}").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]

    # Saving from the keyboard: past the empty tenth board to "Save results".
    for _ in range(3):
        keyboard.press("Tab")
    assert p.evaluate("document.activeElement.textContent") == "Save results"
    keyboard.press("Enter")
    p.wait_for_url("**/names/")
    assert keyboard.count == 180 + 4
    assert stored_games(grid) == [
        (round_no, white, black, result) for round_no, white, black, _, result in SHEET
    ]
    assert page.csp_violations() == []


def test_no_ordinary_key_reaches_a_forfeit_and_enter_never_saves_half_way(page, grid):
    p = page.page
    assert p.get_by_role("heading", name="Keys for the result").is_visible()
    violations = Axe().run(p).response["violations"]
    assert [v["id"] for v in violations if v["impact"] in {"serious", "critical"}] == []
    p.locator("#id_row-0-white").fill("Ann Apple")
    p.locator("#id_row-0-black").fill("Bob Baker")
    result = p.locator("#id_row-0-result")

    # `1` twice quickly is 1–0, not "1–0 by forfeit" (the select's own type-ahead).
    result.press("1")
    result.press("1")
    assert result.input_value() == "1-0"
    # `d` used to pick "Double forfeit"; letters that are no key leave the result alone.
    result.press("d")
    result.press("f")
    assert result.input_value() == "1-0"

    # Forfeits, byes and unrated games take two keys.
    for keys, value in [("+1", "+-"), ("+0", "-+"), ("--", "--"), ("u=", "1/2u")]:
        for key in keys:
            result.press(key)
        assert result.input_value() == value
    result.press("Backspace")
    assert result.input_value() == ""
    result.press("0")
    assert result.input_value() == "0-1"

    # Enter in any field of a half-typed board saves nothing and stays on the page. The
    # browser fires "submit" while it handles the key, so the flag is set by then if at all.
    p.evaluate(
        "window.submitted = false;"
        "document.querySelector('table.grid').closest('form')"
        ".addEventListener('submit', () => { window.submitted = true; })"
    )
    p.locator("#id_row-1-white").fill("Cid Cole")
    # A round typed by hand carries forward to the new rows below it.
    p.locator("#id_row-1-round").fill("3")
    assert p.locator("#id_row-2-round").input_value() == "3"
    assert p.locator("#id_row-9-round").input_value() == "3"
    assert p.locator("#id_row-0-round").input_value() == "1"
    for field in ("row-1-white", "row-1-black", "row-1-round", "row-0-result"):
        p.locator(f"#id_{field}").press("Enter")
        assert p.evaluate("window.submitted") is False, field
    assert p.url.endswith("/results/grid/")
    assert grid.games.count() == 0
    assert page.csp_violations() == []


def test_without_javascript_the_grid_saves_as_a_plain_form(browser, live_server):
    director = make_user("director@example.org")
    club = make_club(slug="rooks", owner=director)
    event = make_event(club, published=False, name="Club night")
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    p = context.new_page()
    sign_in(p, "director@example.org")
    p.goto(f"/manage/{club.slug}/events/{event.pk}/results/grid/")
    assert not p.get_by_role("heading", name="Keys for the result").is_visible()
    p.locator("#id_row-0-white").fill("Ann Apple")
    p.locator("#id_row-0-black").fill("Bob Baker")
    p.locator("#id_row-0-result").select_option("+-")
    p.get_by_role("button", name="Save results").click()
    p.wait_for_url("**/names/")
    assert stored_games(event) == [(1, "Ann Apple", "Bob Baker", "+-")]
    context.close()
