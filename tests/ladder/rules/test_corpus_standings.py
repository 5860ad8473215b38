"""Every corpus file's standings, as the event page and the `standings` command give them,
against tests/ladder/rules/reference_tiebreaks.py: each player's points, every tie-break
value and rank (issue 33). The reference is written apart from the product's tie-break code,
so the two agreeing is evidence, not an echo."""

from __future__ import annotations

import datetime as dt
import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs.models import Club, Event
from members.pages.events.event_pages import final_ranking
from tests.factories import make_club
from tests.ladder.rules import reference_tiebreaks as reference

pytestmark = pytest.mark.django_db


def corpus_dir() -> Path | None:
    """/work/shared/trf-corpus, found from wherever the repository is checked out (the main
    copy or a worktree one level deeper)."""
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "trf-corpus"
        if candidate.is_dir():
            return candidate
    return None


CORPUS = corpus_dir()
FILES = sorted(CORPUS.rglob("*.trf"), key=lambda p: p.name) if CORPUS else []
JUNE = "lichess_swiss_2020_06_juni_blitz.trf"
ORDERS = {
    "default": ["bh-c1", "bh", "sb", "de", "won", "bh-c2", "win"],
    "de-first": ["de", "won", "win", "sb", "bh-c2", "bh", "bh-c1"],
}

needs_corpus = pytest.mark.skipif(CORPUS is None, reason="the shared TRF corpus is not there")


def said_round_robin(path: Path) -> bool:
    """Whether the file's 092 record (its type) says round robin, read here on its own."""
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        if line.startswith("092"):
            return "robin" in line.lower()
    return False


def import_file(club: Club, path: Path) -> Event:
    """The file imported and published as `import_event --publish` does it, on its own date
    (which decides the regulations' text); a file without one (a pairing engine's input) on
    a day of 2025."""
    text = path.read_text(encoding="utf-8", errors="replace")
    dated = any(line.startswith("042") and line[3:].strip() for line in text.splitlines())
    extra = [] if dated else ["--date", "2025-06-01"]
    out = io.StringIO()
    call_command(
        "import_event", club.slug, str(path), "--publish", "--name", "Corpus", *extra,
        stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    return Event.objects.get(pk=int(out.getvalue()))


def product_rows(club: Club, event: Event) -> list[dict]:
    out = io.StringIO()
    call_command("standings", club.slug, str(event.pk), stdout=out)
    rows: list[dict] = json.loads(out.getvalue())
    return rows


def expected(event: Event, order: list[str]) -> tuple[list[reference.Line], dict[int, int]]:
    """The reference's standings of the stored event, and each entry's expected rank (the
    file's, where the club's rule for them lets it stand)."""
    entries = sorted(
        event.entries.values_list("pk", "start_rank", "rank_in_file"),
        key=lambda e: (e[1] or 0, e[0]),
    )
    games = list(event.games.values_list("round", "white_id", "black_id", "result"))
    year = "2026" if event.date >= dt.date(2026, 3, 1) else "2024"
    lines = reference.compute(
        [pk for pk, _s, _r in entries], games, order, round_robin=event.round_robin, year=year
    )
    ranks = {line.player: line.rank for line in lines}
    with_game = {side for _r, white, black, _c in games for side in (white, black) if side}
    file_ranks = {pk: rank for pk, _s, rank in entries}
    points = {line.player: line.points for line in lines}
    if reference.file_ranks_hold(points, with_game, file_ranks):
        after = max(file_ranks[pk] or 0 for pk in with_game) + 1
        ranks = {pk: file_ranks[pk] if pk in with_game else after for pk in ranks}
    return lines, {pk: rank or 0 for pk, rank in ranks.items()}


@needs_corpus
@pytest.mark.parametrize("order", ORDERS, ids=str)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_value_and_rank_is_the_references(path, order):
    club = make_club(slug="corpus", tiebreak_order=ORDERS[order])
    event = import_file(club, path)
    assert event.round_robin is said_round_robin(path)
    lines, ranks = expected(event, ORDERS[order])
    names = dict(event.entries.values_list("pk", "typed_name"))
    by_name = {names[line.player]: line for line in lines}
    # The command prints every value (in the club's order) and the final ranks.
    printed = product_rows(club, event)
    assert len(printed) == len(lines)
    for row in printed:
        line = by_name[row["name"]]
        assert row["points"] == line.points, row["name"]
        assert row["tiebreaks"] == pytest.approx({c: line.values[c] for c in ORDERS[order]}), row[
            "name"
        ]
        assert row["rank"] == ranks[line.player], row["name"]
    # The page's ranking (the export's place column too) is the same one.
    ranked = final_ranking(event)
    assert {s.entry_id: s.rank for s in ranked.standings} == ranks
    for standing in ranked.standings:
        if not ranked.hides_tiebreaks:
            wanted = [lines_by_id(lines)[standing.entry_id].values[c] for c in ORDERS[order]]
            assert list(standing.tiebreak_values) == pytest.approx(wanted)


def lines_by_id(lines: list[reference.Line]) -> dict[int, reference.Line]:
    return {line.player: line for line in lines}


@needs_corpus
def test_a_swiss_whose_games_form_an_all_play_all_keeps_its_byes_dummy_opponent():
    """The lichess June blitz: 9 players, 9 rounds, each with one pairing-allocated bye, so
    every pair met once. Its file says Swiss-System: each bye counts a dummy opponent with
    the player's own score (C.07 16.4, 2024 text for a 2020 event), as FIDE's TieBreakServer
    computes it: the winner's Buchholz is 45.0, not the 37.5 of a round robin."""
    assert CORPUS is not None
    club = make_club(slug="june", tiebreak_order=ORDERS["default"])
    event = import_file(club, CORPUS / JUNE)
    assert event.round_robin is False
    rows = product_rows(club, event)
    winner = rows[0]
    assert (winner["name"], winner["points"]) == ("mattderkuerschner", 7.5)
    assert winner["tiebreaks"]["bh"] == 45.0
    # Every player had one bye worth their own score: none is short of it.
    lines, _ranks = expected(event, ORDERS["default"])
    names = dict(event.entries.values_list("pk", "typed_name"))
    own = {names[line.player]: line for line in lines}
    for row in rows:
        line = own[row["name"]]
        played = sum(
            reference.score_for_opponents(lines_by_id(lines)[cell.opponent], False)
            for cell in line.cells
            if cell.opponent is not None
        )
        assert row["tiebreaks"]["bh"] == played + line.points, row["name"]
