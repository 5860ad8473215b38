"""Every sum a player page writes out adds up from the numbers it shows (issue 13).

A generated season for a club-ladder club and for an HSB club; every player page is read
as a parent reads it, every formula and every before/change/after is recomputed with
decimal arithmetic from the printed text.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from html import unescape

import pytest
from django.urls import reverse

from clubs.models import Club, Player
from clubs.results import Result
from ladder.models import PlayerEventResult
from ladder.replay import replay_ladder
from members.pages.events import event_pages
from tests.factories import make_club, make_event, make_history, rated_players

pytestmark = pytest.mark.django_db

NUMBER = r"[+−]?\d+(?:\.\d+)?"
BLOCK = re.compile(
    r'<details class="event-breakdown"[^>]*><summary>(?P<summary>.*?)</summary>.*?'
    r'<p class="why">(?P<why>.*?)</p>',
    re.S,
)
FACTS = re.compile(
    rf"Rating (?P<before>{NUMBER}) before the event, (?P<after>{NUMBER}) after it\. "
    r"In the (?:one counted game|(?P<games>\d+) counted games): score (?P<score>\d+(?:\.5)?)"
)
ELO = re.compile(
    rf", expected (?P<expected>\d+\.\d{{4,}})\. "
    r"Change = K × \(score − expected\) = "
    rf"(?P<k>\d+(?:\.\d+)?) × \((?P<score>\d+(?:\.5)?) − (?P=expected)\) = (?P<change>{NUMBER})\."
)
HSB = re.compile(
    rf"; your opponents?’s? (?:average )?rating (?P<average>{NUMBER}), so your expected share "
    r"p = (?P<p>\d\.\d{4,})(?P<cut>…)?\. "
    r"Change = 20 × \(score − games × p\) \+ bonus = "
    r"(?P<factor>\d+) × \((?P<score>\d+(?:\.5)?) − (?P<games>\d+) × (?P=p)(?P=cut)?\) "
    r"\+ (?P<bonus>\d+) = "
    rf"(?P<change>[+−]?\d+)(?: \((?P<exact>{NUMBER}), rounded to a whole number\))?\."
)


def number(text: str) -> Decimal:
    return Decimal(text.replace("−", "-").replace("+", ""))


def decimals(value: Decimal) -> int:
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return max(0, -exponent)


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def season(club: Club) -> list[Player]:
    """Twenty-four round robins with random results, then a night of everything never rated."""
    make_history(club, events=24, players=14, per_event=8, rounds=4, seed=13)
    players = list(rated_players().filter(club=club).order_by("id"))
    a, b, c, d = players[:4]
    newcomer = Player.objects.create(club=club, name="Nina Newcomer")
    make_event(
        club,
        [
            (1, a, newcomer, Result.WHITE_WIN),  # protection: not counted for a
            (1, b, None, Result.BYE_FULL),
            (1, c, d, Result.WHITE_FORFEIT_WIN),
            (2, a, b, Result.UNRATED_DRAW),
            (2, c, d, Result.DRAW),
        ],
        date=dt.date(2021, 1, 1),
        name="Odds and ends",
    )
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return [*players, newcomer]


YEAR_LINK = re.compile(r'href="[^"]*/players/(?P<player>\d+)/\?year=(?P<year>\d{4})"')


def player_pages(client, club: Club, player: Player) -> list[str]:
    """The player's page and each of its year pages (newest first), as a reader follows
    the links: together they write out every event of the player."""
    url = reverse("club_player", args=[club.slug, player.pk])
    response = client.get(url)
    assert response.status_code == 200
    pages = [response.content.decode()]
    years = [m["year"] for m in YEAR_LINK.finditer(pages[0]) if m["player"] == str(player.pk)]
    for year in years:
        response = client.get(f"{url}?year={year}")
        assert response.status_code == 200, year
        pages.append(response.content.decode())
    return pages


def breakdowns(client, club: Club, player: Player) -> list[tuple[str, str]]:
    """Every event's breakdown once, from whichever page writes it out."""
    seen: dict[str, tuple[str, str]] = {}
    for html in player_pages(client, club, player):
        for m in BLOCK.finditer(html):
            seen.setdefault(text(m["summary"]), (text(m["summary"]), text(m["why"])))
    return list(seen.values())


def with_formula(player: Player) -> int:
    return PlayerEventResult.objects.filter(
        player=player, games_counted__gt=0, event__rated=True
    ).count()


def check_ratings(facts: re.Match, change: Decimal, summary: str) -> None:
    before, after = number(facts["before"]), number(facts["after"])
    assert before + change == after, (facts.group(0), change)
    assert decimals(before) == decimals(after) >= 1
    # The summary line shows the same change as the sum, then the same rating after it.
    *_, shown_change, shown_after = summary.split(" · ")
    assert number(shown_change) == change, summary
    assert shown_after == f"rating {facts['after']}", summary


def test_every_formula_on_a_ladder_clubs_player_pages_adds_up(client):
    club = make_club(
        slug="ladder-season",
        visibility=Club.Visibility.PUBLIC,
        rating_settings={"k_low": 17.5, "k_threshold": 12},
    )
    formulas = 0
    for player in season(club):
        found = 0
        for summary, why in breakdowns(client, club, player):
            facts = FACTS.search(why)
            if facts is None:
                continue
            sum_ = ELO.search(why, facts.end())
            assert sum_ is not None and sum_.start() == facts.end(), why
            assert sum_["score"] == facts["score"]
            k, score, expected = number(sum_["k"]), number(sum_["score"]), number(sum_["expected"])
            change = number(sum_["change"])
            digits = decimals(change)
            exact = k * (score - expected)
            assert exact.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP) == change, why
            assert decimals(change) == decimals(number(facts["before"]))
            check_ratings(facts, change, summary)
            found += 1
        assert found == with_formula(player), player.name
        formulas += found
    assert formulas > 100


def test_every_formula_on_an_hsb_clubs_player_pages_adds_up(client):
    club = make_club(
        slug="hsb-season",
        visibility=Club.Visibility.PUBLIC,
        rating_policy="hsb",
        rating_settings={"bonus": 5},
    )
    formulas = rounded_ones = 0
    for player in season(club):
        found = 0
        for summary, why in breakdowns(client, club, player):
            facts = FACTS.search(why)
            if facts is None:
                continue
            sum_ = HSB.search(why, facts.end())
            assert sum_ is not None and sum_.start() == facts.end(), why
            assert (sum_["score"], sum_["games"]) == (facts["score"], facts["games"] or "1")
            assert (sum_["factor"], sum_["bonus"]) == ("20", "5")  # the club's own bonus
            p, score, games = number(sum_["p"]), number(sum_["score"]), int(sum_["games"])
            exact = 20 * (score - games * p) + 5
            change = number(sum_["change"])
            if sum_["exact"] is not None:
                assert number(sum_["exact"]) == exact, why
                rounded_ones += 1
            else:
                assert exact == change, why
            assert math.floor(exact + Decimal("0.5")) == change, why
            # p follows from the printed average: 0.5 + (rating − average) / 600.
            assert hsb_share(facts["before"], sum_["average"], p, sum_["cut"]) == p, why
            check_ratings(facts, change, summary)
            found += 1
        assert found == with_formula(player), player.name
        formulas += found
    assert formulas > 100 and rounded_ones > 0


def hsb_share(before: str, average: str, p: Decimal, cut: str | None) -> Decimal:
    """p as a reader works it out from the printed rating and average: 0.5 + (rating −
    average) / 600, kept between 0 and 1, rounded half up to p's printed decimals (cut off
    there where the page marks p "…")."""
    with localcontext() as context:
        context.prec = 60
        share = Decimal("0.5") + (number(before) - number(average)) / 600
    share = min(max(share, Decimal(0)), Decimal(1))
    return share.quantize(p, ROUND_FLOOR if cut else ROUND_HALF_UP)


def test_each_reason_a_game_did_not_count_is_a_plain_sentence(client):
    club = make_club(slug="reasons", visibility=Club.Visibility.PUBLIC)
    players = season(club)
    a, b, c = players[:3]

    def reasons(player: Player) -> str:
        return " ".join(text(html) for html in player_pages(client, club, player))

    assert (
        "Not counted for you: your opponent was still provisional, so your rating was protected."
        in reasons(a)
    )
    assert "Not counted: this result was entered as not rated." in reasons(a)
    assert "Not counted: a bye is not a game." in reasons(b)
    assert "Not counted: the game was not played (a forfeit, or no result)." in reasons(c)


def test_every_explanation_links_to_the_clubs_rating_rules(client):
    club = make_club(slug="links", visibility=Club.Visibility.PUBLIC)
    player = season(club)[0]
    link = f'<a href="{reverse("club_rating_rules", args=[club.slug])}">How ratings are calculated'
    for html in player_pages(client, club, player):
        assert html.count(link) == html.count('<p class="why">')
    assert sum(html.count(link) for html in player_pages(client, club, player)) > 1


def test_a_dutch_page_writes_the_same_sums_with_a_decimal_comma(client):
    club = make_club(slug="dutch", visibility=Club.Visibility.PUBLIC, language="nl")
    player = season(club)[0]
    html = "".join(player_pages(client, club, player))
    sums = re.findall(r"= (\d+) × \((\d+(?:,5)?) − (\d+,\d{4,})\) = ([+−]?\d+,\d+)", text(html))
    assert sums
    for k, score, expected, change in sums:
        k, score, expected, change = (
            number(x.replace(",", ".")) for x in (k, score, expected, change)
        )
        exact = k * (score - expected)
        assert exact.quantize(Decimal(1).scaleb(-decimals(change)), ROUND_HALF_UP) == change


CHANGES_TABLE = re.compile(r'<table class="rating-changes">.*?<tbody>(?P<rows>.*?)</tbody>', re.S)
STANDINGS_TABLE = re.compile(r'<table class="standings">.*?<tbody>(?P<rows>.*?)</tbody>', re.S)
ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<td[^>]*>(.*?)</td>", re.S)


def table_rows(pattern: re.Pattern, html: str) -> list[list[str]]:
    table = pattern.search(html)
    assert table is not None
    return [[text(cell) for cell in CELL.findall(row)] for row in ROW.findall(table["rows"])]


def player_page_changes(client, club: Club, players: list[Player]) -> dict[str, Decimal]:
    """(player name, event name) -> the change the player page's summary line prints."""
    changes = {}
    for player in players:
        for summary, _why in breakdowns(client, club, player):
            _date, event_name, change, _after = summary.rsplit(" · ", 3)
            changes[player.name, event_name] = number(change)
    return changes


@pytest.mark.parametrize("apart", [False, True], ids=["on-the-event-page", "on-their-own-page"])
@pytest.mark.parametrize(
    ("policy", "settings"), [("ladder", {"k_low": 17.5, "k_threshold": 12}), ("hsb", {"bonus": 5})]
)
def test_every_rating_change_on_the_event_pages_adds_up_and_matches_the_player_pages(
    client, policy, settings, apart, monkeypatch
):
    # A large event's rating changes are on a page of their own: here every event's.
    if apart:
        monkeypatch.setattr(event_pages, "CHANGES_ON_EVENT_PAGE", 0)
    club = make_club(
        slug=f"events-{policy}",
        visibility=Club.Visibility.PUBLIC,
        rating_policy=policy,
        rating_settings=settings,
    )
    players = season(club)
    on_player_pages = player_page_changes(client, club, players)
    checked = widened = 0
    for event in club.events.filter(rated=True):
        html = client.get(reverse("club_event", args=[club.slug, event.pk])).content.decode()
        assert ('href="ratings/"' in html) is apart
        assert (CHANGES_TABLE.search(html) is None) is apart
        ratings = reverse("club_event_ratings", args=[club.slug, event.pk])
        rows = table_rows(CHANGES_TABLE, client.get(ratings).content.decode() if apart else html)
        assert len(rows) == PlayerEventResult.objects.filter(event=event).count()
        for name, before, games, score, expected, change, after, worked in rows:
            before_n, change_n, after_n = number(before), number(change), number(after)
            assert before_n + change_n == after_n, (event.name, name, before, change, after)
            check_worked_sum(policy, worked, games, score, expected, change_n)
            assert decimals(before_n) == decimals(after_n) >= 1
            assert on_player_pages[name, event.name] == change_n, (event.name, name)
            widened += decimals(before_n) > 1
            checked += 1
        # The standings print the same change as the rating-changes table.
        standing_changes = {row[1]: row[-1] for row in table_rows(STANDINGS_TABLE, html)}
        assert all(standing_changes[row[0]] == row[5] for row in rows)
    assert checked > 100
    if policy == "ladder":
        assert widened > 0  # some event needs more than one decimal to add up


WORKED_ELO = re.compile(
    r"^(?P<k>\d+(?:\.\d+)?) × \((?P<score>\d+(?:\.5)?) − (?P<expected>\d+\.\d{4,})\) "
    rf"= (?P<change>{NUMBER})$"
)
WORKED_HSB = re.compile(
    r"^(?P<factor>20) × \((?P<score>\d+(?:\.5)?) − (?P<games>\d+) × (?P<p>\d\.\d{4,})…?\) "
    r"\+ (?P<bonus>\d+) = (?P<change>[+−]?\d+)"
    rf"(?: \((?P<exact>{NUMBER}), rounded to a whole number\))?$"
)


def check_worked_sum(
    policy: str, worked: str, games: str, score: str, expected: str, change: Decimal
) -> None:
    """The event page's written sum, recomputed from its own printed numbers, gives the
    row's printed change, with the row's own score, games and expected score."""
    if games == "0":
        assert worked == "—"
        return
    if policy == "ladder":
        m = WORKED_ELO.match(worked)
        assert m is not None, worked
        assert (m["score"], m["expected"]) == (score, expected), worked
        exact = number(m["k"]) * (number(m["score"]) - number(m["expected"]))
        digits = decimals(change)
        assert exact.quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP) == change, worked
    else:
        m = WORKED_HSB.match(worked)
        assert m is not None, worked
        assert (m["score"], m["games"], m["bonus"]) == (score, games, "5"), worked
        p = number(m["p"])
        exact = 20 * (number(m["score"]) - int(m["games"]) * p) + 5
        assert number(expected) == int(m["games"]) * p, worked
        if m["exact"] is not None:
            assert number(m["exact"]) == exact, worked
        else:
            assert exact == change, worked
        assert math.floor(exact + Decimal("0.5")) == change, worked
    assert number(m["change"]) == change


DETAILS = re.compile(r'<details class="event-breakdown".*?</details>', re.S)
WHY = re.compile(r'<p class="why">(.*?)</p>', re.S)
EXPECTED_CELL = re.compile(r'<td class="num" data-label="Expected">(.*?)</td>')


@pytest.mark.parametrize(
    ("policy", "settings"), [("ladder", {"k_low": 17.5, "k_threshold": 12}), ("hsb", {"bonus": 5})]
)
def test_every_player_pages_expected_column_sums_to_the_total_its_sentence_uses(
    client, policy, settings
):
    club = make_club(
        slug=f"column-{policy}",
        visibility=Club.Visibility.PUBLIC,
        rating_policy=policy,
        rating_settings=settings,
    )
    checked = 0
    for player in season(club):
        html = "".join(player_pages(client, club, player))
        for block in DETAILS.findall(html):
            why = text(WHY.search(block)[1])
            column = [number(c) for c in EXPECTED_CELL.findall(block) if c != "—"]
            facts = FACTS.search(why)
            if facts is None:
                continue
            if policy == "ladder":
                sum_ = ELO.search(why, facts.end())
                assert sum_ is not None, why
                total = number(sum_["expected"])
            else:
                sum_ = HSB.search(why, facts.end())
                assert sum_ is not None, why
                p = number(sum_["p"])
                assert all(value == p for value in column), (why, column)
                total = int(sum_["games"]) * p
            assert len(column) == int(facts["games"] or 1), (why, column)
            assert sum(column) == total, (why, column)
            assert all(decimals(value) >= 4 for value in column), column
            checked += 1
    assert checked > 100


HISTORY = re.compile(
    r"<caption>Rating after each event</caption>.*?<tbody>(?P<rows>.*?)</tbody>", re.S
)
HEADER = re.compile(r"<dt>Rating</dt><dd>(?P<rating>\d+)</dd>")


@pytest.mark.parametrize(
    ("policy", "settings"), [("ladder", {"k_low": 17.5, "k_threshold": 12}), ("hsb", {"bonus": 5})]
)
def test_a_rating_reads_the_same_on_the_ladder_header_chart_and_event_rows(
    client, policy, settings
):
    """No page rounds a rounded number: each event's "rating after", however many decimals
    it prints, rounds to the whole number the chart's table prints for that event; the
    newest one to the header's and the ladder's."""
    club = make_club(
        slug=f"digits-{policy}",
        visibility=Club.Visibility.PUBLIC,
        rating_policy=policy,
        rating_settings=settings,
    )
    ladder_html = None
    checked = on_the_ladder = 0
    for player in season(club):
        newest_first: list[str] = []
        for html in player_pages(client, club, player):
            if '<p class="why">' not in html:
                continue  # every event is on the year pages
            history = table_rows(HISTORY, html)[1:]  # the rating before them first
            summaries = [text(m["summary"]) for m in BLOCK.finditer(html)]
            assert len(summaries) == len(history), player.name
            for summary, row in zip(reversed(summaries), history, strict=True):
                after = number(summary.rsplit(" · rating ", 1)[1])
                assert math.floor(after + Decimal("0.5")) == int(row[-1]), (summary, row)
                checked += 1
            newest_first += summaries
        html = player_pages(client, club, player)[0]
        header = HEADER.search(html)
        if header is not None and newest_first:
            newest = number(newest_first[0].rsplit(" · rating ", 1)[1])
            assert math.floor(newest + Decimal("0.5")) == int(header["rating"]), player.name
            if ladder_html is None:
                ladder_url = reverse("club_page", args=[club.slug]) + "?active=all"
                ladder_html = client.get(ladder_url).content.decode()
            on_ladder = re.search(
                rf'players/{player.pk}/">[^<]*</a>.*?</td><td class="num">(\d+)</td>', ladder_html
            )
            if on_ladder is not None:
                assert on_ladder[1] == header["rating"], player.name
                on_the_ladder += 1
    assert checked > 100 and on_the_ladder > 10
