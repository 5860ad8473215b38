"""The tournament file's own final ranks on the event page, the events list and the export."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import transaction

from clubs.models import Club, Entry, Event, Player
from clubs.results import Result
from directors.events.results import set_results
from directors.importers import parse_file
from ladder.changes import OnPages, club_changed
from ladder.rules.file_ranks import file_order
from ladder.tiebreaks import DEFAULT_ORDER
from members.files.event_export import event_trf
from members.pages.events.event_pages import final_ranking, first_place
from tests.corpus import TRF_CORPUS
from tests.factories import make_club, make_event, new_player
from tests.members.pages.test_pages import replay, table, url

W, D = Result.WHITE_WIN, Result.DRAW
FILE_SENTENCE = "Ranks as in the tournament file: its tie-breaks decided the order."
CORPUS = TRF_CORPUS
DONOSTIA = CORPUS / "open_gros_donostia_2010_round5_input.trf"


# --- the rule, without a database -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        pytest.param({1: 2, 2: 1, 3: 3, 4: 4}, [2, 1, 3, 4], id="ties broken the file's way"),
        pytest.param({1: 1, 2: 3, 3: 7, 4: 9}, [1, 2, 3, 4], id="gaps in the ranks are kept"),
        pytest.param({1: 1, 2: 2, 3: 3, 4: None}, None, id="one entrant without a rank"),
        pytest.param({1: 1, 2: 2, 3: 3}, None, id="one entrant missing"),
        pytest.param({1: 1, 2: 1, 3: 3, 4: 4}, None, id="a shared rank"),
        pytest.param({1: 3, 2: 2, 3: 1, 4: 4}, None, id="a better rank with fewer points"),
        pytest.param({1: 0, 2: 1, 3: 2, 4: 3}, None, id="rank 0 is no rank"),
    ],
)
def test_the_file_order_is_used_only_when_complete_unique_and_true_to_the_points(ranks, expected):
    points = {1: 2.0, 2: 2.0, 3: 1.0, 4: 0.0}
    assert file_order(points, ranks) == expected


def test_an_event_without_entrants_has_no_file_order():
    assert file_order({}, {}) is None


def test_the_winner_is_the_files_first_when_its_ranks_are_used():
    games = [(1, 1, 2, D, ""), (1, 3, 4, W, ""), (2, 1, 3, D, ""), (2, 2, 4, D, "")]
    # Points 1 and 3 have 1½ each: the tie-breaks alone leave them sharing first place.
    computed = sorted(first_place(games, DEFAULT_ORDER))
    assert first_place(games, DEFAULT_ORDER, file_ranks={1: 2, 2: 3, 3: 1, 4: 4}) == [3]
    assert sorted(first_place(games, DEFAULT_ORDER, file_ranks={1: 1, 2: 2, 3: None})) == (computed)


# --- the event page and the list of events -------------------------------------------------


@pytest.fixture
def public(owner):
    return make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)


@pytest.fixture
def tied(public, db):
    """Ann and Cid 1½, Bob and Dee ½, and no tie-break tells either pair apart: every
    opponent's points, the results between them and the wins are alike."""
    ann, bob, cid, dee = (
        new_player(club=public, name=name, start_rating=1500, start_games=30)
        for name in ("Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood")
    )
    event = make_event(
        public,
        [(1, ann, bob, W), (1, cid, dee, W), (2, ann, cid, D), (2, bob, dee, D)],
        name="Autumn Swiss",
    )
    replay(public)
    return event


def with_file_ranks(event: Event, ranks: dict[str, int | None]) -> None:
    for name, rank in ranks.items():
        Entry.objects.filter(event=event, typed_name=name).update(rank_in_file=rank)
    with transaction.atomic():
        club_changed(event.club_id, OnPages())


def page(client, event: Event, query: str = ""):
    return client.get(url(event.club, f"events/{event.pk}/") + query)


def ranked(response) -> list[tuple[str, str]]:
    return [(row[0], row[1]) for row in table(response, "standings")]


def winner(client, club: Club, event: Event) -> str:
    rows = {row[1]: row for row in table(client.get(url(club, "events/")), "events")}
    return rows[event.name][3]


CONSISTENT = {"Cid Cedar": 1, "Ann Alder": 2, "Dee Dogwood": 3, "Bob Birch": 4}


@pytest.mark.django_db
def test_without_file_ranks_the_tied_players_share_their_ranks(client, tied, public):
    response = page(client, tied)
    assert ranked(response) == [
        ("1", "Ann Alder"), ("1", "Cid Cedar"), ("3", "Bob Birch"), ("3", "Dee Dogwood"),
    ]  # fmt: skip
    assert FILE_SENTENCE not in response.content.decode()
    assert winner(client, public, tied) == "Ann Alder, Cid Cedar (shared first place)"


@pytest.mark.django_db
def test_consistent_file_ranks_give_the_order_and_ranks_and_say_so(client, tied, public):
    computed = {row[1]: row for row in table(page(client, tied), "standings")}
    with_file_ranks(tied, CONSISTENT)
    response = page(client, tied)
    assert ranked(response) == [
        ("1", "Cid Cedar"), ("2", "Ann Alder"), ("3", "Dee Dogwood"), ("4", "Bob Birch"),
    ]  # fmt: skip
    assert FILE_SENTENCE in response.content.decode()
    # The tie-break columns (and every column after the rank) are still the computed ones.
    for row in table(response, "standings"):
        assert row[1:] == computed[row[1]][1:]
    assert winner(client, public, tied) == "Cid Cedar"


@pytest.mark.parametrize(
    "ranks",
    [
        pytest.param(
            {**CONSISTENT, "Bob Birch": 1, "Cid Cedar": 4}, id="fewer points ranked higher"
        ),
        pytest.param({**CONSISTENT, "Bob Birch": None}, id="one entrant without a rank"),
        pytest.param({**CONSISTENT, "Bob Birch": 3}, id="a shared rank"),
    ],
)
@pytest.mark.django_db
def test_file_ranks_that_cannot_be_trusted_are_ignored(client, tied, public, ranks):
    with_file_ranks(tied, ranks)
    response = page(client, tied)
    assert [rank for rank, _name in ranked(response)] == ["1", "1", "3", "3"]
    assert FILE_SENTENCE not in response.content.decode()
    assert winner(client, public, tied) == "Ann Alder, Cid Cedar (shared first place)"


@pytest.mark.django_db
def test_the_standings_after_a_round_keep_computing_their_tie_breaks(client, public, db):
    ann, bob, cid, dee = (
        Player.objects.create(club=public, name=name)
        for name in ("Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood")
    )
    event = make_event(
        public, [(1, ann, bob, W), (1, cid, dee, W), (2, ann, cid, W), (2, bob, dee, W)]
    )
    replay(public)
    with_file_ranks(event, {"Ann Alder": 1, "Cid Cedar": 2, "Bob Birch": 3, "Dee Dogwood": 4})
    assert FILE_SENTENCE in page(client, event).content.decode()
    response = page(client, event, "?after=1")
    # After round 1 Ann and Cid lead with a win each: the file's final ranks do not apply.
    assert [rank for rank, _name in ranked(response)][:2] == ["1", "1"]
    assert FILE_SENTENCE not in response.content.decode()


@pytest.mark.django_db
def test_an_entrant_without_a_game_follows_the_files_order(client, tied, public):
    Entry.objects.create(event=tied, typed_name="Eve Elm", start_rank=5, rank_in_file=None)
    with_file_ranks(tied, CONSISTENT)
    assert ranked(page(client, tied)) == [
        ("1", "Cid Cedar"), ("2", "Ann Alder"), ("3", "Dee Dogwood"), ("4", "Bob Birch"),
        ("5", "unconfirmed player (did not play)"),
    ]  # fmt: skip


# --- from a real file: import, page, correction, export -----------------------------------------


def import_file(club: Club, path: Path, *options: str) -> Event:
    out = io.StringIO()
    call_command("import_event", club.slug, str(path), *options, stdout=out, stderr=io.StringIO())
    return Event.objects.get(pk=int(out.getvalue()))


@pytest.mark.skipif(not DONOSTIA.is_file(), reason="the shared TRF corpus is not there")
@pytest.mark.django_db
def test_an_imported_files_ranks_order_its_page_and_go_out_again_in_its_export(
    client, public, tmp_path
):
    original = parse_file(DONOSTIA.read_bytes(), "trf")
    file_rank = {p.key: p.rank for p in original.players}
    event = import_file(public, DONOSTIA, "--publish")
    stored = dict(event.entries.values_list("start_rank", "rank_in_file"))
    assert stored == file_rank
    response = page(client, event)
    assert FILE_SENTENCE in response.content.decode()
    # The file ranks starting number 3 third and 6 fourth on equal points; FIDE's default
    # tie-breaks, computed, put 6 before 3.
    shown = [int(row[0]) for row in table(response, "standings")]
    assert shown == list(range(1, 53))
    names = {rank: name for rank, name in event.entries.values_list("start_rank", "player__name")}
    rows = table(response, "standings")
    assert names[3].split()[0] in rows[2][1] and names[6].split()[0] in rows[3][1]

    # The export writes the file's ranks in 86-89; read again, they are the same.
    text = event_trf(event, viewer_is_director=True)
    assert {p.key: p.rank for p in parse_file(text.encode(), "trf").players} == file_rank


@pytest.mark.skipif(not DONOSTIA.is_file(), reason="the shared TRF corpus is not there")
@pytest.mark.django_db
def test_results_saved_in_the_grid_drop_the_files_ranks_and_the_export_computes_places(
    public, owner
):
    original = parse_file(DONOSTIA.read_bytes(), "trf")
    event = import_file(public, DONOSTIA)  # a draft
    # The grid stores the same games; the ranks were the file's, not the grid's.
    set_results(event.pk, event.edit_version, original, owner, source="grid", replace_entries=False)
    assert not event.entries.filter(rank_in_file__isnull=False).exists()
    places = {
        p.key: p.rank
        for p in parse_file(event_trf(event, viewer_is_director=True).encode(), "trf").players
    }
    # The places are the page's ranking by the club's tie-breaks (players still tied after
    # all of them share one, as on the page), no longer the file's (issue 33).
    start = dict(event.entries.values_list("pk", "start_rank"))
    page = {start[s.entry_id]: s.rank for s in final_ranking(event).standings}
    assert places == page
    assert places != {p.key: p.rank for p in original.players}


CORPUS_FILES = sorted(CORPUS.glob("*.trf")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS_FILES, reason="the shared TRF corpus is not there")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.stem)
@pytest.mark.django_db
def test_standings_ranks_a_real_file_as_its_event_page_and_the_events_list(client, public, path):
    """One ranking (issue 23): the `standings` command, the event page and the events
    list's winner agree, whether the page follows the file's ranks or the club's."""
    event = import_file(public, path, "--publish")
    out = io.StringIO()
    call_command("standings", public.slug, str(event.pk), "--format", "json", stdout=out)
    command = [(row["rank"], row["points"]) for row in json.loads(out.getvalue())]
    page = client.get(url(public, f"events/{event.pk}/"))
    rows = table(page, "standings")
    shown = [(int(row[0]), points_value(row[2])) for row in rows]
    assert command == shown
    winners = [name for name, _points in first_rows(rows)]
    events_list = client.get(url(public, "events/")).content.decode()
    assert all(name in events_list for name in winners[:1])


def points_value(shown: str) -> float:
    return float(shown.replace("½", ".5")) if shown != "½" else 0.5


def first_rows(rows: list[list[str]]) -> list[tuple[str, str]]:
    return [(row[1], row[2]) for row in rows if row[0] == "1"]


HIDDEN_SENTENCE = (
    "The club's own tie-breaks would order some ties otherwise, so they are not shown."
)


@pytest.mark.django_db
def test_file_ranks_that_break_a_tie_against_the_clubs_tie_breaks_hide_those_columns(
    client, public
):
    """Ann and Eve both 2 points; Ann's opponents scored more (Buchholz 1 against 0), yet
    the file ranks Eve first: tie-break columns beside those ranks would contradict them."""
    ann, bob, cid, dee, eve, fay = (
        new_player(club=public, name=name, start_rating=1500, start_games=30)
        for name in ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
    )
    event = make_event(
        public,
        [(1, ann, bob, W), (1, cid, dee, W), (1, eve, fay, W),
         (2, ann, cid, W), (2, eve, bob, W), (2, dee, fay, W)],
        name="Contested Swiss",
    )  # fmt: skip
    replay(public)
    computed = table(page(client, event), "standings")
    assert [row[1] for row in computed][:2] == ["Ann", "Eve"]
    file_says = {"Eve": 1, "Ann": 2, "Cid": 3, "Dee": 4, "Bob": 5, "Fay": 6}
    with_file_ranks(event, file_says)
    response = page(client, event)
    html = response.content.decode()
    assert ranked(response)[:2] == [("1", "Eve"), ("2", "Ann")]
    assert FILE_SENTENCE in html and HIDDEN_SENTENCE in html
    assert len(table(response, "standings")[0]) == len(computed[0]) - len(DEFAULT_ORDER)
    # File ranks that agree with the tie-breaks keep the columns.
    with_file_ranks(event, {**file_says, "Ann": 1, "Eve": 2})
    agreeing = page(client, event)
    assert FILE_SENTENCE in agreeing.content.decode()
    assert HIDDEN_SENTENCE not in agreeing.content.decode()
    assert len(table(agreeing, "standings")[0]) == len(computed[0])
