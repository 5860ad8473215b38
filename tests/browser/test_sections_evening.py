"""An evening of two sections on phone-sized screens (issue 36): one check-in of twelve split
by rating into an Open and a Minor, round 1 paired in each; players report some boards from
two phones of their own through the slips' codes, the director taps the rest; the combined
pairing sheet and the members' live page show both sections; the Minor is published (after
the question a publish with rounds left asks) while the Open stays a draft."""

from __future__ import annotations

import re

import pytest

from clubs.models import Board, Club, Event
from clubs.results import Result
from tests.browser.test_publish_flow import sign_in
from tests.factories import make_club, make_players, make_user, set_standing

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}
# 1900 … 1350: the six of 1650 and up make the Open, the six below the Minor.
ROSTER = [
    "Ada Lovelace", "Boris Spassky", "Carmen Kass", "Dirk Nowitzki", "Elena Ferrante",
    "Frank Marshall", "Greta Gerwig", "Hugo Alfven", "Ines Sastre", "Jonas Kaufmann",
    "Kira Ivanova", "Lars Larsen",
]  # fmt: skip
RATINGS = range(1900, 1300, -50)
POINTS = {"1–0": (1.0, 0.0), "½–½": (0.5, 0.5), "0–1": (0.0, 1.0)}


@pytest.fixture
def club():
    director = make_user("td@example.org")
    club = make_club(slug="rooks", directors=[director], visibility=Club.Visibility.PUBLIC)
    for rating, player in zip(RATINGS, make_players(club, ROSTER), strict=True):
        set_standing(player.pk, rating=rating, rated_games=20)
    return club


def phone(browser, live_server):
    context = browser.new_context(base_url=live_server.url, viewport=PHONE, is_mobile=True)
    return context, context.new_page()


def fits(p) -> bool:
    return p.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def points(text: str) -> float:
    """ "1½" -> 1.5, "½" -> 0.5, "0" -> 0."""
    text = text.strip()
    whole = text.rstrip("½")
    return (int(whole) if whole else 0) + (0.5 if text.endswith("½") else 0.0)


def boards_of(p) -> list[tuple[str, str]]:
    """The (white, black) of each board on a section's pairing sheet."""
    return [
        tuple(name.strip() for name in row.locator("td.name .who").all_inner_texts())
        for row in p.locator("table.sheet tbody tr").all()
    ]


def slip_address(p, number: int) -> str:
    slip = p.locator(".slip", has_text=f"board {number}")
    assert slip.locator("svg.qr").count() == 1
    return slip.locator(".url").inner_text().strip()


# The lines a piece of text takes: one rectangle per line of its text.
LINES = """e => { const r = document.createRange(); r.selectNodeContents(e);
  return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size; }"""


def codes_fit(p, codes) -> None:
    """Each board's code on a phone: the list not indented, every slip inside the screen,
    its address on one line."""
    left = codes.evaluate("e => e.getBoundingClientRect().left")
    slips = codes.locator("li.slip")
    assert slips.count()
    for slip in slips.all():
        box = slip.bounding_box()
        assert box is not None and abs(box["x"] - left) < 1
        assert box["x"] + box["width"] <= PHONE["width"]
        assert slip.locator(".url").evaluate(LINES) == 1, slip.inner_text()


def report(p, address: str, side: str, result: str) -> str:
    p.goto(address)
    p.get_by_role("radio", name=re.compile(f"{side}:")).check()
    p.get_by_role("button", name=result, exact=True).click()
    p.wait_for_load_state()
    assert fits(p)
    return p.locator("main").inner_text()


def tap(p, board: int, result: str) -> None:
    row = p.locator(f"#board-{board}")
    row.get_by_role("button", name=f"Board {board}: {result}", exact=True).click()
    row.locator(".current", has_text=result).wait_for()


def standings(rows) -> dict[str, float]:
    """Name -> points of a standings table's rows (rank, name, points, ...)."""
    table = {}
    for row in rows.all():
        cells = row.locator("td").all_inner_texts()
        table[cells[1].strip()] = points(cells[2])
    return table


def expected(boards: list[tuple[str, str]], results: list[str]) -> dict[str, float]:
    table = {}
    for (white, black), result in zip(boards, results, strict=True):
        table[white], table[black] = POINTS[result]
    return table


def test_two_sections_from_one_check_in_to_one_published(browser, live_server, club):
    director_context, td = phone(browser, live_server)
    white_context, white = phone(browser, live_server)
    black_context, black = phone(browser, live_server)
    try:
        sign_in(td, "td@example.org")
        # One check-in of everyone, split by rating.
        td.goto(f"/manage/{club.slug}/night/new/")
        for name in ROSTER:
            td.get_by_label(name).check()
        assert td.locator("#night-ticked").inner_text() == "12 players ticked"
        td.get_by_label("Name:", exact=True).fill("Tuesday")
        td.get_by_label("Swiss (FIDE Dutch)", exact=True).check()
        td.get_by_label("Rounds:", exact=True).fill("3")
        td.get_by_label("By rating").check()
        td.get_by_label("Ratings where a section starts").fill("1650")
        td.get_by_label("Section names, highest first").fill("Open, Minor")
        td.get_by_role("button", name="Start the evening").click()
        td.wait_for_url(re.compile(r"/night/\d+/$"))
        open_ = Event.objects.get(club=club, section="Open")
        minor = Event.objects.get(club=club, section="Minor")
        assert open_.evening_id == minor.evening_id is not None
        assert sorted(open_.entries.values_list("typed_name", flat=True)) == sorted(ROSTER[:6])
        assert sorted(minor.entries.values_list("typed_name", flat=True)) == sorted(ROSTER[6:])
        cards = td.locator("#sections .night-section-card")
        assert cards.count() == 2
        assert fits(td)

        # Round 1 in each section, from the other section's card on its evening screen (a
        # section's own actions are its page's, once: its card repeats none of them).
        sheets = {}
        for section, other in ((open_, minor), (minor, open_)):
            td.goto(f"/manage/{club.slug}/night/{other.pk}/")
            assert td.locator(f"#section-{other.pk}").locator("form").count() == 0
            card = td.locator(f"#section-{section.pk}")
            assert "No round paired yet" in card.inner_text()
            card.get_by_role("button", name="Pair round 1", exact=True).click()
            td.wait_for_url(re.compile(rf"/night/{section.pk}/round/1/sheet/$"))
            sheets[section.pk] = boards_of(td)
            assert len(sheets[section.pk]) == 3
            assert td.locator("#board-codes svg.qr").count() == 3
            codes_fit(td, td.locator("#board-codes"))
        assert Event.objects.get(pk=open_.pk).paired_rounds() == 1
        assert Event.objects.get(pk=minor.pk).paired_rounds() == 1

        # The players of the Open's boards 1 and 2 and the Minor's board 1 report from their
        # phones with the codes printed on the slips.
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/round/1/print/")
        open_one, open_two = slip_address(td, 1), slip_address(td, 2)
        td.goto(f"/manage/{club.slug}/night/{minor.pk}/round/1/print/")
        minor_one = slip_address(td, 1)
        assert len({open_one, open_two, minor_one}) == 3

        assert "waits for the other player" in report(white, open_one, "White", "1–0")
        assert "is stored" in report(black, open_one, "Black", "1–0")
        assert "waits for the other player" in report(white, open_two, "White", "½–½")
        report(black, minor_one, "Black", "0–1")
        # The director's screen of the Open shows the report waiting, then the confirmation.
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/round/1/")
        td.locator("#board-1 .report-state", has_text="Confirmed by both players").wait_for()
        td.locator("#board-2 .report-state", has_text="Reported by white: ½–½").wait_for()
        assert "is stored" in report(black, open_two, "Black", "½–½")
        td.locator("#board-2 .current", has_text="½–½").wait_for()
        # The director taps the Open's last board.
        tap(td, 3, "0–1")
        td.locator("[data-night-pending]").wait_for(state="hidden")
        # Once every tap is in, the screen takes the server's page again.
        td.locator("#all-in", has_text="Every board has its result.").wait_for()

        td.goto(f"/manage/{club.slug}/night/{minor.pk}/round/1/")
        # Both sections have a board 1: the screen says whose boards these are.
        assert td.locator("main .sheet-club").inner_text() == "Tuesday – Minor"
        td.locator("#board-1 .report-state", has_text="Reported by black: 0–1").wait_for()
        assert "No result yet" in td.locator("#board-1 .current").inner_text()
        assert "is stored" in report(white, minor_one, "White", "0–1")
        td.locator("#board-1 .current", has_text="0–1").wait_for()
        tap(td, 2, "1–0")
        tap(td, 3, "½–½")
        td.locator("[data-night-pending]").wait_for(state="hidden")
        assert fits(td)

        stored = {
            (board.event_id, board.number): board.game.result_code
            for board in Board.objects.select_related("game").filter(
                event__in=[open_, minor], round=1, black__isnull=False
            )
        }
        assert stored == {
            (open_.pk, 1): Result.WHITE_WIN,
            (open_.pk, 2): Result.DRAW,
            (open_.pk, 3): Result.BLACK_WIN,
            (minor.pk, 1): Result.BLACK_WIN,
            (minor.pk, 2): Result.WHITE_WIN,
            (minor.pk, 3): Result.DRAW,
        }
        open_points = expected(sheets[open_.pk], ["1–0", "½–½", "0–1"])
        minor_points = expected(sheets[minor.pk], ["0–1", "1–0", "½–½"])

        # The combined pairing sheet: each section's boards and results under its name.
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/round/1/sections/")
        assert td.locator("main .sheet-club").inner_text() == "Rooks · Tuesday"
        for section, results in ((open_, "1–0 ½–½ 0–1"), (minor, "0–1 1–0 ½–½")):
            block = td.locator(f"section#section-{section.pk}")
            assert block.locator("h2").inner_text() == section.section
            rows = block.locator("table.sheet tbody tr")
            assert rows.count() == 3
            shown = block.locator("td:last-child").all_inner_texts()
            assert " ".join(t.strip() for t in shown) == results
            for number, (white_name, black_name) in enumerate(sheets[section.pk], start=1):
                assert white_name in rows.nth(number - 1).inner_text()
                assert black_name in rows.nth(number - 1).inner_text()
            # The codes of each section that takes reports, for the wall.
            codes = block.locator(f"#board-codes-{section.pk}")
            assert codes.locator("svg.qr").count() == 3
            codes_fit(td, codes)
        assert fits(td)

        # The members' live page (anyone: a parent's phone) shows both sections, once each.
        white.goto(f"/c/{club.slug}/events/{open_.pk}/live/")
        assert "<section" not in white.title()
        main = white.locator("main")
        assert main.locator("h1").inner_text() == "Tuesday – Open"
        assert white.locator(f"#section-{minor.pk}").count() == 1
        minor_block = white.locator(f"#section-{minor.pk}")
        assert minor_block.locator("h2").inner_text() == "Minor"
        assert standings(minor_block.locator("table.standings tbody tr")) == minor_points
        open_table = main.locator("table.standings").first
        assert standings(open_table.locator("tbody tr")) == open_points
        assert fits(white)

        # Publishing the Minor with two rounds left asks first; the Open stays a draft.
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/")
        minor_card = td.locator(f"#section-{minor.pk}")
        minor_card.get_by_role("button", name="Publish the section “Minor”").click()
        td.wait_for_load_state()
        assert "Only 1 of 3 rounds is paired" in td.locator("#confirm-publish").inner_text()
        assert Event.objects.get(pk=minor.pk).status != Event.Status.PUBLISHED
        # Going back is the quiet choice beside the publish button, and as tall as it.
        publish = td.get_by_role("button", name="Publish and rate 1 round")
        back = td.get_by_role("link", name="Back to the evening, changing nothing")
        look = "e => [getComputedStyle(e).backgroundColor, e.getBoundingClientRect().height]"
        (publish_colour, publish_height), (back_colour, back_height) = (
            publish.evaluate(look),
            back.evaluate(look),
        )
        assert back_colour == "rgba(0, 0, 0, 0)" != publish_colour
        assert back_height == publish_height
        td.get_by_role("button", name="Publish and rate 1 round").click()
        td.wait_for_url(re.compile(rf"/events/{minor.pk}/$"))
        assert Event.objects.get(pk=minor.pk).status == Event.Status.PUBLISHED
        assert Event.objects.get(pk=open_.pk).status == Event.Status.DRAFT

        # The Minor's page is public and final; the Open's live page links to it. (A fresh
        # phone: the pages a browser has seen it may keep for a minute, as a shared cache.)
        reader_context, reader = phone(browser, live_server)
        reader.goto(f"/c/{club.slug}/events/{minor.pk}/")
        assert reader.locator("main h1").first.inner_text().startswith("Tuesday – Minor")
        assert standings(reader.locator("table.standings tbody tr")) == minor_points
        reader.goto(f"/c/{club.slug}/events/{open_.pk}/live/")
        assert reader.locator(f"#section-{minor.pk}").count() == 0
        assert "Minor (published)" in reader.locator("#sections").inner_text()
        reader.locator("#sections").get_by_role("link", name="Minor").click()
        reader.wait_for_url(re.compile(rf"/events/{minor.pk}/$"))
        reader_context.close()
        # The Open's own standings, still a draft, on the director's screen.
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/standings/")
        assert td.locator("main .sheet-club").inner_text() == "Tuesday – Open"
        names = [t.strip() for t in td.locator("table tbody tr th.name").all_inner_texts()]
        shown = [points(t) for t in td.locator("td.points").all_inner_texts()]
        assert dict(zip(names, shown, strict=True)) == open_points
        td.goto(f"/manage/{club.slug}/night/{open_.pk}/")
        assert td.get_by_role("button", name="Publish the section “Open”").count() == 1
        assert "Published" in td.locator(f"#section-{minor.pk}").inner_text()
    finally:
        white_context.close()
        black_context.close()
        director_context.close()
