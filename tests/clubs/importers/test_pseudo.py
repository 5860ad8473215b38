"""Bye dummies are not people (issue 23): on every import path, a "spielfrei", "Freilos",
"bye", "vrij" or "exempt" entrant becomes its opponents' bye, and a nameless TRF dummy too."""

from __future__ import annotations

import pytest

from clubs.importers import parse_file
from ladder.files.event_files import FilePlayer, player_line
from ladder.results import Result

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


def test_a_nameless_trf_dummy_with_only_not_paired_cells_is_no_entrant():
    text = "\n".join(
        [
            "012 Night",
            trf_line(1, "Ann Alder", 1500, 2.0, ["   2 w 1", "0000 - U"]),
            trf_line(2, "Bob Birch", 1400, 1.0, ["   1 b 0", "0000 - U"]),
            trf_line(3, "Placeholder", None, 0.0, ["0000 - -", "0000 - -"]),
            trf_line(4, "Team Reserve", None, 0.0, ["0000 - -", "0000 - -"], fed="GRE"),
            trf_line(5, "Took Byes", None, 1.0, ["0000 - H", "0000 - H"]),
        ]
    )
    event = parse_file(text.encode(), "trf")
    assert [p.name for p in event.players] == [
        "Ann Alder",
        "Bob Birch",
        "Team Reserve",
        "Took Byes",
    ]
