"""What a file says its tournament was (TRF 092, PGN EventType): a round robin or not, read
and never guessed from the games (issue 33)."""

from __future__ import annotations

import pytest

from directors.importers import parse_file
from directors.importers.base import tournament_type
from members.files.event_files import FilePlayer, player_line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Individual: Swiss-System", False),
        ("Team Swiss System", False),
        ("IndividualDutch FIDE (JaVaFo)", False),
        ("Schweizer System", False),
        ("Individual: Round-Robin", True),
        ("Double round robin", True),
        ("Rundenturnier", True),
        ("Tournoi toutes rondes", True),
        ("rr", True),
        ("swiss", False),
        ("", None),
        ("Team", None),
        ("Individual", None),
    ],
)
def test_a_type_is_read_from_its_words(text, expected):
    assert tournament_type(text) is expected


def trf(record: str) -> bytes:
    ann = player_line(FilePlayer(1, "Ann Alder", None), 1.0, 1, ["   2 w 1"])
    bob = player_line(FilePlayer(2, "Bob Birch", None), 0.0, 2, ["   1 b 0"])
    return "\n".join(["012 Autumn club", "042 2025/10/01", record, ann, bob]).encode()


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ("092 Individual: Round-Robin", True),
        ("092 Individual: Swiss-System", False),
        ("092 ", None),
        ("", None),
    ],
)
def test_a_trf_says_its_type_in_record_092(record, expected):
    assert parse_file(trf(record), "trf").round_robin is expected


PGN = """[Event "Autumn club"]
[Date "2025.10.01"]
[Round "1"]
[White "Ann Alder"]
[Black "Bob Birch"]
[Result "1-0"]
{tag}
1. e4 1-0
"""


@pytest.mark.parametrize(
    ("tag", "expected"), [('[EventType "rr"]', True), ('[EventType "swiss"]', False), ("", None)]
)
def test_a_pgn_says_its_type_in_its_event_type_tag(tag, expected):
    assert parse_file(PGN.format(tag=tag).encode(), "pgn").round_robin is expected
