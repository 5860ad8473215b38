"""The wall chart of a Swiss event (issue 23): every cell is a game of the games list, and
every row's cells add up to its points; on generated Swiss events and on real files."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from fractions import Fraction
from html import unescape

import pytest
from django.urls import reverse

from clubs.models import Club, Event, Player
from clubs.results import Result
from ladder.replay import replay_ladder
from ladder.roster.rosters import load_roster
from members.pages.events.event_pages import event_page
from members.pages.events.wallchart import WallGame, cell_text, wall_chart
from tests.corpus import TRF_CORPUS
from tests.factories import imported_event, make_club, make_event

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
CORPUS = TRF_CORPUS
CORPUS_FILES = sorted(CORPUS.glob("*.trf")) if CORPUS.is_dir() else []


# --- the rule, without a database ---------------------------------------------------------


def test_a_cell_names_the_opponents_rank_the_colour_and_the_result():
    games = [
        (1, 10, 20, W, ""),
        (1, 30, None, Result.BYE_PAIRING, ""),
        (2, 20, 30, D, ""),
        (2, 10, None, Result.BYE_HALF, ""),
        (3, 30, 10, Result.WHITE_FORFEIT_WIN, ""),
    ]
    rounds, rows = wall_chart([10, 30, 20, 40], games)
    assert rounds == [1, 2, 3]
    text = {
        row.entry_id: [" ".join(cell_text(g, "bye") for g in c) for c in row.cells] for row in rows
    }
    assert text[10] == ["3w1", "bye ½", "2b−"]
    assert text[20] == ["1b0", "2w½", ""]
    assert text[30] == ["bye 1", "3b½", "1w+"]
    assert text[40] == ["", "", ""]  # entered, never paired
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    assert {row.entry_id: row.points for row in rows} == {10: 1.5, 20: 0.5, 30: 2.5, 40: 0}


def test_a_double_forfeit_is_a_loss_by_forfeit_for_both():
    _rounds, rows = wall_chart([1, 2], [(1, 1, 2, Result.DOUBLE_FORFEIT, "")])
    assert [row.cells[0] for row in rows] == [
        (WallGame(2, "w", "−", 0.0),),
        (WallGame(1, "b", "−", 0.0),),
    ]


# --- on the event page ----------------------------------------------------------------------

ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
CHART = re.compile(
    r'<table class="wallchart">.*?<thead>(?P<head>.*?)</thead>\s*<tbody>(?P<rows>.*?)</tbody>', re.S
)
GAME = re.compile(r"^(?P<opponent>\d+)(?P<colour>[wb])(?P<symbol>1|½|0|\+|−|\*)$")
BYE = re.compile(r"^bye (?P<symbol>1|½|0)$")
SYMBOL_POINTS = {
    "1": Fraction(1),
    "½": Fraction(1, 2),
    "0": Fraction(0),
    "+": Fraction(1),
    "−": Fraction(0),
    "*": Fraction(0),
}


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def points(shown: str) -> Fraction:
    whole, half = (shown[:-1], True) if shown.endswith("½") else (shown, False)
    return Fraction(int(whole or 0)) + (Fraction(1, 2) if half else 0)


def chart_of(client, club: Club, event: Event) -> tuple[list[str], list[list[str]]] | None:
    """The chart's heads and rows as its page prints them (cell texts); None when the event
    has no wall chart (its page is not found)."""
    response = client.get(reverse("club_event_wallchart", args=[club.slug, event.pk]))
    if response.status_code == 404:
        return None
    found = CHART.search(response.content.decode())
    assert found is not None
    head = [text(c) for c in CELL.findall(found["head"])]
    rows = [[text(c) for c in CELL.findall(row)] for row in ROW.findall(found["rows"])]
    return head, rows


def check_chart(head: list[str], rows: list[list[str]], event: Event) -> int:
    """Every cell against the event's stored games; every row's cells against its points.
    Rows are matched to entries through the page builder's standings (an entrant left
    without a player has no link to tell them apart). Returns the game cells checked."""
    built = event_page(event, load_roster(event.club, False), "unconfirmed player", wallchart=True)
    assert built.wallchart is not None
    entry_of_rank = {row.rank: s.entry_id for s, row in built.wallchart}
    # An entrant without a game over the board is marked so beside the name.
    assert [r[1] for r in rows] == [
        s.name + ("" if s.played else " (did not play)") for s, _row in built.wallchart
    ]
    assert [int(r[0]) for r in rows] == list(range(1, len(rows) + 1))
    rounds = [h for h in head if h.startswith("Rd ")]
    first_round = head.index(rounds[0])
    Played = tuple[int | None, str, Fraction]
    stored: dict[tuple[int, int], list[Played]] = defaultdict(list)
    for game in event.games.all():
        result = Result(game.result)
        white_score, black_score = (Fraction(s).limit_denominator(2) for s in result.scores)
        if game.black_id is None:
            stored[game.white_id, game.round].append((None, "", white_score))
            continue
        stored[game.white_id, game.round].append((game.black_id, "w", white_score))
        stored[game.black_id, game.round].append((game.white_id, "b", black_score))
    checked = 0
    for row in rows:
        entry = entry_of_rank[int(row[0])]
        cells = row[first_round : first_round + len(rounds)]
        total = Fraction(0)
        for heading, cell in zip(rounds, cells, strict=True):
            round_no = int(heading.removeprefix("Rd "))
            shown: list[Played] = []
            parts = [] if cell.startswith("—") else re.findall(r"bye \S+|\S+", cell)
            for part in parts:
                bye = BYE.match(part)
                if bye:
                    shown.append((None, "", SYMBOL_POINTS[bye["symbol"]]))
                    continue
                game = GAME.match(part)
                assert game is not None, (row[1], cell)
                opponent = entry_of_rank[int(game["opponent"])]
                shown.append((opponent, game["colour"], SYMBOL_POINTS[game["symbol"]]))
            expected = sorted(stored[entry, round_no], key=str)
            assert sorted(shown, key=str) == expected, (row[1], round_no, cell)
            total += sum((s[2] for s in shown), Fraction(0))
            checked += len(shown)
        assert total == points(row[first_round + len(rounds)]), row
    return checked


@pytest.mark.django_db
def test_every_cell_of_generated_swiss_events_agrees_with_its_games(client):
    club = make_club(slug="swiss-chart", visibility=Club.Visibility.PUBLIC)
    players = [Player.objects.create(club=club, name=f"Player {n:02}") for n in range(9)]
    rng = random.Random(7)
    results = [W, D, B, Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT]
    byes = [Result.BYE_PAIRING, Result.BYE_HALF, Result.BYE_ZERO, Result.BYE_FULL]
    checked = 0
    for number in range(6):
        games = []
        for round_no in range(1, 5):
            order = players[:]
            rng.shuffle(order)
            for white, black in zip(order[0::2], order[1::2], strict=False):
                games.append((round_no, white, black, rng.choice(results)))
            games.append((round_no, order[-1], None, rng.choice(byes)))
        event = make_event(club, games, name=f"Swiss {number}", pairing_system="swiss")
        chart = chart_of(client, club, event)
        assert chart is not None
        head, rows = chart
        assert len(rows) == event.entries.count()
        checked += check_chart(head, rows, event)
    assert checked > 150


@pytest.mark.django_db
@pytest.mark.skipif(not CORPUS_FILES, reason="the shared TRF corpus is not there")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
def test_every_cell_of_a_real_files_chart_agrees_with_its_games(client, path):
    club = make_club(slug="real-chart", visibility=Club.Visibility.PUBLIC)
    event = imported_event(club, path)
    replay_ladder(club.pk, full=True)
    chart = chart_of(client, club, event)
    if chart is None:
        html = client.get(reverse("club_event", args=[club.slug, event.pk])).content.decode()
        assert 'class="crosstable"' in html  # a round robin has its crosstable instead
        return
    head, rows = chart
    assert len(rows) == event.entries.count()
    assert check_chart(head, rows, event) > 0
