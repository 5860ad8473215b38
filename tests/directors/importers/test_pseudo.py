"""Bye dummies are not people (issue 23): on every import path, a "spielfrei", "Freilos",
"bye", "vrij" or "exempt" entrant becomes its opponents' bye, and a nameless TRF dummy too."""

from __future__ import annotations

import pytest

from clubs.results import Result
from directors.importers import parse_file
from members.files.event_files import FilePlayer, player_line

CSV = (
    "round,white,black,result\n1,Ann,Bob,1-0\n1,Cid,{dummy},1-0\n2,Ann,Cid,1/2\n2,{dummy},Bob,0-1\n"
)
PGN = """[Event "Night"]
[Round "1"]
[White "Cid"]
[Black "{dummy}"]
[Result "1-0"]

1-0

[Event "Night"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

1-0
"""


@pytest.mark.parametrize("dummy", ["spielfrei", "Freilos", "BYE", "vrij", "Exempt", "SPIELFREI"])
def test_a_csv_dummy_is_its_opponents_bye(dummy):
    event = parse_file(CSV.format(dummy=dummy).encode(), "csv")
    names = {p.key: p.name for p in event.players}
    assert sorted(names.values()) == ["Ann", "Bob", "Cid"]
    byes = sorted((g.round, names[g.white], g.result) for g in event.games if g.black is None)
    # The CSV reader knew "BYE" already, as a full-point bye; the other names are dummies.
    bye = Result.BYE_FULL if dummy.lower() == "bye" else Result.BYE_PAIRING
    assert byes == [(1, "Cid", bye), (2, "Bob", bye)]


@pytest.mark.parametrize("dummy", ["spielfrei", "Freilos", "vrij", "exempt"])
def test_a_pgn_dummy_is_its_opponents_bye(dummy):
    event = parse_file(PGN.format(dummy=dummy).encode(), "pgn")
    names = {p.key: p.name for p in event.players}
    assert sorted(names.values()) == ["Ann", "Bob", "Cid"]
    assert [(names[g.white], g.result) for g in event.games if g.black is None] == [
        ("Cid", Result.BYE_PAIRING)
    ]


def trf_line(rank: int, name: str, rating: int | None, points: float, cells: list[str], fed=""):
    return player_line(FilePlayer(rank, name, rating, federation=fed), points, rank, cells)


def test_a_trf_line_is_a_dummy_by_its_name_not_by_having_only_not_paired_cells():
    """Issue 33: a no-show without rating, ID, federation or points (what our own export
    writes for an entrant who played no game) is a person; only a dummy's name makes one."""
    text = "\n".join(
        [
            "012 Night",
            trf_line(1, "Ann Alder", 1500, 2.0, ["   2 w 1", "0000 - U"]),
            trf_line(2, "Bob Birch", 1400, 1.0, ["   1 b 0", "0000 - U"]),
            trf_line(3, "No Show", None, 0.0, ["0000 - -", "0000 - -"]),
            trf_line(4, "Team Reserve", None, 0.0, ["0000 - -", "0000 - -"], fed="GRE"),
            trf_line(5, "Took Byes", None, 1.0, ["0000 - H", "0000 - H"]),
            trf_line(6, "Spielfrei", None, 0.0, ["0000 - -", "0000 - -"]),
        ]
    )
    event = parse_file(text.encode(), "trf")
    assert [p.name for p in event.players] == [
        "Ann Alder",
        "Bob Birch",
        "No Show",
        "Team Reserve",
        "Took Byes",
    ]
    assert [w for w in event.warnings if "placeholder" in w] == [
        "Line 7: 'Spielfrei' is the placeholder a tournament program writes for a bye, not a "
        "person: it is no entrant, and a pairing against it is its opponent's bye."
    ]


REAL_NAMES = [
    "Fox, Anthony",
    "Bye, Tom",
    "Frei, Lars",
    "Vrij, Anna",
    "Freilos-Meyer, Jo",
    "Ex, Empt",
    "Bye Player, Sam",
    "Li",
    "O",
    "Spielfreiheit",
]


@pytest.mark.parametrize("name", REAL_NAMES)
def test_a_real_name_like_a_placeholder_stays_an_entrant_whatever_its_cells(name):
    # The worst case for each name: unrated, no federation, no points, never paired.
    text = "\n".join(
        [
            "012 Night",
            trf_line(1, "Ann Alder", 1500, 1.0, ["   2 w 1", "0000 - -"]),
            trf_line(2, "Bob Birch", 1400, 0.0, ["   1 b 0", "0000 - -"]),
            trf_line(3, name, None, 0.0, ["0000 - -", "0000 - -"]),
        ]
    )
    event = parse_file(text.encode(), "trf")
    assert [p.name for p in event.players] == ["Ann Alder", "Bob Birch", name]
    assert not [w for w in event.warnings if "placeholder" in w]


@pytest.mark.parametrize("code", ["+", "-"])
def test_a_dummy_paired_by_forfeit_is_still_its_opponents_bye(code):
    # Swiss-Manager pairs its "spielfrei" with the bye's player as a forfeit: no game at
    # the board, so it stays a dummy and the pairing becomes that player's bye.
    other = "-" if code == "+" else "+"
    text = "\n".join(
        [
            "012 Night",
            trf_line(1, "Ann Alder", 1500, 1.0, ["   2 w 1", "   3 w " + code]),
            trf_line(2, "Bob Birch", 1400, 0.0, ["   1 b 0", "0000 - -"]),
            trf_line(3, "spielfrei", None, 0.0, ["0000 - -", "   1 b " + other]),
        ]
    )
    event = parse_file(text.encode(), "trf")
    assert [p.name for p in event.players] == ["Ann Alder", "Bob Birch"]
    worth = Result.BYE_PAIRING if code == "+" else Result.BYE_PAIRING_ZERO
    assert [(g.round, g.white, g.result) for g in event.games if g.black is None] == [(2, 1, worth)]
