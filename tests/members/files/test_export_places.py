"""The TRF export's place column (86-89) is the event page's final ranking, and its 092 record
says whether the event's tie-breaks are a round robin's (issue 33)."""

from __future__ import annotations

import datetime as dt

import pytest

from clubs.models import Event, PairingSystem
from clubs.results import Result
from directors.events.results import set_results
from directors.importers import parse_file
from ladder.roster.rosters import load_roster
from members.files.event_export import event_trf
from members.files.event_files import FilePlayer, player_line
from members.pages.events.event_pages import event_page, final_ranking
from tests.factories import imported_event, make_club, make_event, make_players

pytestmark = pytest.mark.django_db

R = Result


def places(text: str) -> dict[str, int]:
    """Each 001 line's name and place, read by column."""
    return {
        line[14:47].strip(): int(line[85:89])
        for line in text.splitlines()
        if line.startswith("001")
    }


def record(text: str, code: str) -> list[str]:
    return [line[4:] for line in text.splitlines() if line.startswith(code)]


def test_a_tie_on_points_is_placed_by_the_tie_breaks_not_the_starting_rank():
    """Ann (seed 1) and Dee (seed 4) both score 1; Dee met the stronger opponents (Buchholz
    3 against 1), so the page ranks Dee 2nd and Ann 3rd, and so does the file."""
    club = make_club(slug="places")
    ann, bob, cid, dee = make_players(club, ["Ann Alder", "Bob Birch", "Cid Cedar", "Dee Dogwood"])
    event = make_event(
        club,
        [
            (1, ann, bob, R.WHITE_WIN),
            (1, cid, dee, R.WHITE_WIN),
            (2, dee, ann, R.WHITE_WIN),
            (2, cid, bob, R.WHITE_WIN),
        ],
    )
    text = event_trf(event, viewer_is_director=True)
    assert places(text) == {"Cid Cedar": 1, "Dee Dogwood": 2, "Ann Alder": 3, "Bob Birch": 4}
    names = dict(event.entries.values_list("pk", "typed_name"))
    page = {names[s.entry_id]: s.rank for s in final_ranking(event).standings}
    assert places(text) == page


def all_play_all(**fields: object) -> Event:
    """Three players, three rounds, each sitting one out with a pairing-allocated bye: every
    pair meets once, as in a round robin of three, and as in a Swiss of three rounds."""
    club = make_club(slug=f"apa-{fields.get('pairing_system', '')}-{fields.get('round_robin')}")
    ann, bob, cid = make_players(club, ["Ann Alder", "Bob Birch", "Cid Cedar"])
    return make_event(
        club,
        [
            (1, ann, bob, R.WHITE_WIN),
            (1, cid, None, R.BYE_PAIRING),
            (2, bob, cid, R.DRAW),
            (2, ann, None, R.BYE_PAIRING),
            (3, cid, ann, R.DRAW),
            (3, bob, None, R.BYE_PAIRING),
        ],
        date=dt.date(2025, 5, 1),  # C.07 as in force from 2024: the dummy has the own score
        **fields,
    )


def buchholz(event: Event) -> dict[str, float]:
    names = dict(event.entries.values_list("pk", "typed_name"))
    order = list(event_page(event, load_roster(event.club, viewer_is_director=True), "?").order)
    at = order.index("bh")
    return {names[s.entry_id]: s.tiebreak_values[at] for s in final_ranking(event).standings}


def test_an_upload_whose_games_form_an_all_play_all_is_still_a_swiss():
    """Its byes count a dummy opponent with the player's own score (C.07 16.4): Ann's
    Buchholz is Bob's 1.5 + Cid's 2.0 at the board + her own 2.5 for her bye. Only a file
    that says round robin leaves the byes out (Ann 3.5, Bob 2.5 + 2.0, Cid 1.5 + 2.5)."""
    swiss = all_play_all()
    assert buchholz(swiss) == {"Ann Alder": 6.0, "Cid Cedar": 6.0, "Bob Birch": 6.0}
    declared = all_play_all(round_robin=True)
    assert buchholz(declared) == {"Ann Alder": 3.5, "Cid Cedar": 4.0, "Bob Birch": 4.5}
    # Either way the page shows the crosstable of an all-play-all.
    roster = load_roster(swiss.club, viewer_is_director=True)
    assert event_page(swiss, roster, "?").crosstable is not None
    assert record(event_trf(swiss, viewer_is_director=True), "092") == ["Individual: Swiss-System"]
    robin = event_trf(declared, viewer_is_director=True)
    assert record(robin, "092") == ["Individual: Round-Robin"]


def test_a_club_nights_system_is_its_type_in_the_file():
    night = all_play_all(pairing_system=PairingSystem.ROUND_ROBIN)
    assert record(event_trf(night, viewer_is_director=True), "092") == ["Individual: Round-Robin"]
    swiss = all_play_all(pairing_system=PairingSystem.SWISS, round_robin=True)
    assert record(event_trf(swiss, viewer_is_director=True), "092") == ["Individual: Swiss-System"]
    # A Swiss night whose three rounds met everyone keeps its wall chart, not a crosstable.
    page = event_page(swiss, load_roster(swiss.club, viewer_is_director=True), "?")
    assert (page.crosstable, page.has_wallchart) == (None, True)


def robin_trf(kind: str) -> str:
    """Three players, two rounds, each sitting one out: record 092 says what it was."""
    lines = [
        player_line(FilePlayer(1, "Ann Alder", None), 1.5, 1, ["   2 w 1", "   3 b ="]),
        player_line(FilePlayer(2, "Bob Birch", None), 1.0, 2, ["   1 b 0", "0000 - U"]),
        player_line(FilePlayer(3, "Cid Cedar", None), 1.5, 3, ["0000 - U", "   1 w ="]),
    ]
    return "\n".join(["012 Autumn club", "042 2025/10/01", f"092 Individual: {kind}", *lines])


def test_the_files_type_is_stored_with_its_results_and_a_file_without_one_keeps_it(tmp_path):
    club = make_club(slug="types")
    path = tmp_path / "robin.trf"
    path.write_text(robin_trf("Round-Robin"))
    event = imported_event(club, path)
    assert event.round_robin is True
    csv = parse_file(b"round,white,black,result\n1,Ann Alder,Bob Birch,1-0\n", "csv")
    assert csv.round_robin is None
    set_results(event.pk, event.edit_version, csv, None, source="file", replace_entries=False)
    event.refresh_from_db()
    assert event.round_robin is True
    swiss = parse_file(robin_trf("Swiss-System").encode(), "trf")
    set_results(event.pk, event.edit_version, swiss, None, source="file", replace_entries=True)
    event.refresh_from_db()
    assert event.round_robin is False
