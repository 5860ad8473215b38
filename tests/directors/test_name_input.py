"""Names come in clean wherever they enter; suffixes keep father and son apart in the names
step; the duplicates screen sees typos; stored keys of an older version are refreshed."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Entry, Event, Player
from directors.events import names as name_decisions
from directors.events import results
from directors.events.drafts import EventDetails
from directors.events.forms import AddEntryForm
from directors.events.names import Action, NameDecision
from directors.events.results import GridRow
from directors.events.results_forms import GridRowForm
from directors.importers import parse_file
from directors.roster.merging import duplicate_candidates, prepared_roster, repoint_entry
from directors.roster.starting_ladder import import_starting_ladder, parse_starting_ladder
from directors.roster_views import RepointForm
from matching import KEY_VERSION, Reason, name_key, suggest_prepared
from tests.factories import make_players

pytestmark = pytest.mark.django_db

DETAILS = EventDetails(name="Club night", date=dt.date(2026, 3, 1))
HIDDEN = "An\u200bna\u00a0de\u2009Vries\ufeff"  # shows as "Anna de Vries"
CLEAN = "Anna de Vries"


def csv_file(*rows: str) -> bytes:
    return ("Round,White,Black,Result\n" + "\n".join(rows) + "\n").encode()


def trf_file(name: str) -> bytes:
    def player(rank: int, name: str, points: str, cell: str) -> str:
        # Columns: rank 5-8, name 15-47, rating 49-52, points 81-84, round 1 from 92.
        return f"001 {rank:>4}      {name:<33} 1500{'':<28}{points:>4}{'':<7}{cell}"

    lines = [
        "012 Club night",
        player(1, name, "1.0", "   2 w 1"),
        player(2, "Bob Bakker", "0.0", "   1 b 0"),
    ]
    return "\n".join(lines).encode()


def pgn_file(white: str) -> bytes:
    return (
        f'[Event "Club night"]\n[Date "2026.03.01"]\n[Round "1"]\n[White "{white}"]\n'
        '[Black "Bob Bakker"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n'
    ).encode()


@pytest.mark.parametrize(
    ("fmt", "data"),
    [
        pytest.param("csv", csv_file(f"1,{HIDDEN},Bob Bakker,1-0"), id="csv"),
        pytest.param("trf", trf_file(HIDDEN), id="trf"),
        pytest.param("pgn", pgn_file(HIDDEN), id="pgn"),
    ],
)
def test_every_importer_gives_names_without_invisible_characters(club, director, fmt, data):
    imported = parse_file(data, fmt)
    assert CLEAN in [player.name for player in imported.players]
    event = results.create_draft_from_import(club, imported, DETAILS, director)
    assert set(event.entries.values_list("typed_name", flat=True)) == {CLEAN, "Bob Bakker"}


def test_one_name_with_and_without_an_invisible_character_is_one_player_of_the_file():
    imported = parse_file(
        csv_file(f"1,{HIDDEN},Bob Bakker,1-0", f"2,Bob Bakker,{CLEAN},0-1"), "csv"
    )
    assert sorted(player.name for player in imported.players) == [CLEAN, "Bob Bakker"]


def test_the_results_grid_cleans_the_names_it_reads():
    imported = results.grid_to_imported(
        [GridRow(1, "1", HIDDEN, "Bob Bakker", "1-0"), GridRow(2, "2", "Bob Bakker", CLEAN, "1-0")]
    )
    assert [player.name for player in imported.players] == [CLEAN, "Bob Bakker"]


def test_the_name_fields_of_the_forms_clean_what_was_typed(club):
    grid_row = GridRowForm(
        {"round": "1", "white": HIDDEN, "black": " Bob\u00a0Bakker ", "result": "1-0"}
    )
    assert grid_row.is_valid()
    assert (grid_row.cleaned_data["white"], grid_row.cleaned_data["black"]) == (CLEAN, "Bob Bakker")
    add = AddEntryForm({"typed_name": HIDDEN, "version": "1"})
    add.is_valid()
    assert add.cleaned_data["typed_name"] == CLEAN
    (player,) = make_players(club, ["Cid"])
    event = Event.objects.create(club=club, name="E", date=dt.date(2026, 1, 1))
    entry = Entry.objects.create(event=event, typed_name="Cid", player=player)
    repoint = RepointForm({"new_name": HIDDEN}, entry=entry, club=club)
    assert repoint.is_valid()
    assert repoint.cleaned_data["new_name"] == CLEAN


def test_an_added_entrant_and_a_new_player_from_it_have_the_clean_name(club, director):
    event = results.create_draft_from_import(
        club, results.grid_to_imported([GridRow(1, "1", "Bob Bakker", "Cid", "1-0")]),
        DETAILS, director,
    )  # fmt: skip
    entry = name_decisions.add_entry(event.pk, event.edit_version, HIDDEN, director)
    assert entry.typed_name == CLEAN
    # An entry stored before names were cleaned still gives a clean player.
    Entry.objects.filter(pk=entry.pk).update(typed_name=HIDDEN)
    event.refresh_from_db()
    name_decisions.apply_name_decisions(
        event.pk, event.edit_version, [NameDecision(entry.pk, Action.NEW)], director
    )
    assert Player.objects.get(entries=entry).name == CLEAN


def test_repointing_to_a_new_player_stores_the_clean_name(club, director):
    (cid,) = make_players(club, ["Cid"])
    event = Event.objects.create(club=club, name="E", date=dt.date(2026, 1, 1))
    entry = Entry.objects.create(event=event, typed_name="Cid", player=cid)
    assert repoint_entry(entry, None, HIDDEN, director).name == CLEAN


def test_an_imported_roster_has_clean_names(club):
    rows = parse_starting_ladder(f"name,rating,games\n{HIDDEN},1500,10\n".encode())
    import_starting_ladder(club, rows)
    assert Player.objects.get(club=club).name == CLEAN


def test_an_imported_roster_sees_an_invisible_character_as_the_same_name(club):
    with pytest.raises(Exception, match="appears twice"):
        parse_starting_ladder(f"name,rating,games\n{HIDDEN},1500,10\n{CLEAN},1400,5\n".encode())


# Suffixes in the names step and in import_event --link-exact --------------------------------


def test_the_names_step_does_not_preselect_the_father_for_the_son(club, director):
    make_players(club, ["Hans Müller (Jun.)", "Hans Müller"])
    event = results.create_draft_from_import(
        club, results.grid_to_imported([GridRow(1, "1", "Hans Müller (Sen.)", "Cid", "1-0")]),
        DETAILS, director,
    )  # fmt: skip
    [review] = [
        r for r in name_decisions.review_names(event) if r.typed_name == "Hans Müller (Sen.)"
    ]
    assert review.preselected is None
    assert {c.reason for c in review.candidates} == {Reason.SUFFIX}


def run_import(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    try:
        call_command("import_event", *args, stdout=io.StringIO(), stderr=err)
    except CommandError as error:
        return error.returncode, f"{error}\n{err.getvalue()}"
    return 0, err.getvalue()


def test_link_exact_never_links_another_generation(club, tmp_path):
    (son,) = make_players(club, ["Hans Müller jun."])
    path = tmp_path / "night.csv"
    path.write_bytes(csv_file("1,Hans Müller (Sen.),Cid Visser,1-0"))
    code, err = run_import(
        club.slug,
        str(path),
        "--name",
        "Club night",
        "--date",
        "2026-03-01",
        "--link-exact",
        "--publish",
    )
    assert code == 3
    assert "Hans Müller (Sen.)" in err
    assert not Entry.objects.filter(player=son).exists()


def test_link_exact_links_the_same_generation_written_another_way(club, tmp_path):
    (son,) = make_players(club, ["Hans Müller jun."])
    path = tmp_path / "night.csv"
    path.write_bytes(csv_file("1,Hans Müller (Jun.),Cid Visser,1-0"))
    code, _err = run_import(
        club.slug,
        str(path),
        "--name",
        "Club night",
        "--date",
        "2026-03-01",
        "--link-exact",
        "--publish",
    )
    assert code == 0
    assert Entry.objects.get(typed_name="Hans Müller (Jun.)").player == son


# The duplicates screen, and keys stored by an older version -----------------------------------


def test_the_duplicates_screen_shows_one_letter_typos(club):
    make_players(club, ["Marco Rosi", "Marco Rossi", "Tarik Hasan", "Tariq Hassan", "Ann Bos"])
    found = {(c.first.name, c.second.name, c.reason) for c in duplicate_candidates(club)}
    assert found == {
        ("Marco Rosi", "Marco Rossi", Reason.TYPO),
        ("Tarik Hasan", "Tariq Hassan", Reason.TYPO),
    }


def test_a_key_of_an_older_version_is_recomputed_and_written_back(club):
    sen, jun = make_players(club, ["Hans Müller (Sen.)", "Hans Müller (Jun.)"])
    Player.objects.filter(pk__in=[sen.pk, jun.pk]).update(name_key="1:hans|müller|")
    roster, owners = prepared_roster(club)
    sen.refresh_from_db()
    assert sen.name_key == name_key("Hans Müller (Sen.)") == f"{KEY_VERSION}:hans|müller|sr"
    found = suggest_prepared("Hans Müller sen.", roster)
    assert [(owners[s.index], s.preselect) for s in found] == [(sen.pk, True), (jun.pk, False)]
