"""The TRF's own final rank (columns 86-89): read where a program wrote one, none elsewhere."""

import pytest

from directors.importers import ImportedEvent, parse_file
from tests.corpus import TRF_CORPUS

from .trf_lines import player

CORPUS = TRF_CORPUS
needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason=f"the shared TRF corpus is not at {CORPUS}"
)


def parse_trf(*lines: str) -> ImportedEvent:
    return parse_file("\n".join(lines).encode(), "trf")


def ranks(event: ImportedEvent) -> dict[int, int | None]:
    return {p.key: p.rank for p in event.players}


def corpus(name: str) -> ImportedEvent:
    return parse_file((CORPUS / name).read_bytes(), "trf")


@pytest.mark.parametrize(
    ("place", "expected"),
    [("1", 1), ("12", 12), ("9999", 9999), ("", None), ("0", None), ("0000", None)],
)
def test_the_rank_column_is_read_and_blank_or_zero_is_no_rank(place, expected):
    event = parse_trf(
        player(1, "Ann Alder", (2, "w", "1"), points="1.0", place=place),
        player(2, "Bob Birch", (1, "b", "0"), points="0.0", place="2"),
    )
    assert ranks(event)[1] == expected
    assert not event.warnings


@pytest.mark.parametrize("place", ["x", "1.", "-3", "²"])
def test_a_rank_that_is_no_number_is_left_out_with_a_warning_naming_the_line(place):
    event = parse_trf(
        player(1, "Ann Alder", (2, "w", "1"), points="1.0", place=place),
        player(2, "Bob Birch", (1, "b", "0"), points="0.0", place="2"),
    )
    assert ranks(event) == {1: None, 2: 2}
    assert event.warnings == (
        "Line 1: the rank in columns 86-89 is not a number; it was left out.",
    )
    assert [game.white for game in event.games] == [1]  # the rest of the line is read


def test_other_formats_have_no_rank():
    csv = parse_file(b"round,white,black,result\n1,Ann Alder,Bob Birch,1-0\n", "csv")
    pgn = parse_file(
        b'[Event "Club night"]\n[Round "1"]\n[White "Alder, Ann"]\n[Black "Birch, Bob"]\n'
        b'[Result "1-0"]\n\n1. e4 e5 1-0\n',
        "pgn",
    )
    assert [p.rank for p in (*csv.players, *pgn.players)] == [None] * 4


@needs_corpus
@pytest.mark.parametrize(
    "name", ["lichess_swiss_2020_05_mai5plus0.trf", "lichess_swiss_2020_06_juni_blitz.trf"]
)
def test_lichess_writes_no_rank(name):
    assert set(ranks(corpus(name)).values()) == {None}


@needs_corpus
def test_swiss_manager_writes_zero_for_a_withdrawn_player_and_that_is_no_rank():
    event = corpus("karl_mala_gedenkturnier_2005.trf")
    by_key = ranks(event)
    # Seven lines have rank 0: players who stopped after a few rounds ("spielfrei", the
    # eighth, is no entrant).
    unranked = {key for key, rank in by_key.items() if rank is None}
    assert len(unranked) == 7
    assert 284 not in by_key
    given = [rank for rank in by_key.values() if rank is not None]
    assert sorted(given) == list(range(1, 277))
    assert not any("rank" in warning for warning in event.warnings)


@needs_corpus
def test_a_file_with_every_rank_gives_each_player_theirs():
    # The Capo d'Orso open: ranks 1-84, the winner starting 1, the runner-up starting 9.
    by_key = ranks(corpus("open_capo_dorso_2012_accelerated.trf"))
    assert sorted(by_key.values()) == list(range(1, 85))
    assert (by_key[1], by_key[9]) == (1, 2)


@needs_corpus
def test_a_file_whose_rank_is_the_starting_rank_is_read_as_written():
    # The semi-real Gelendzhik file writes the starting rank there; the importer does not
    # judge the ranks (ladder.rules.file_ranks does, against the points).
    by_key = ranks(corpus("gelendzhik_sds_classic_2016_semireal.trf"))
    assert by_key == {key: key for key in range(1, 15)}
