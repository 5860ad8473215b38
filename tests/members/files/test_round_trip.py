"""export_event then import_event gives the same games, variants and entrants (issue 23), for
every real file of the shared corpus, every importer fixture and events with variants."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pytest
from django.core.management import call_command

from clubs.models import Club, Entry, Event
from clubs.results import Result
from tests.corpus import TRF_CORPUS
from tests.directors.importers.trf_lines import player
from tests.factories import make_club, make_event, make_players

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
CORPUS = TRF_CORPUS
FIXTURES = ROOT / "tests" / "directors" / "importers" / "files"
FILES = sorted(
    [*(CORPUS.glob("*.trf") if CORPUS.is_dir() else []), *FIXTURES.iterdir()],
    key=lambda p: p.name,
)
FORMATS = {".trf": "trf", ".pgn": "pgn", ".csv": "csv"}

VARIANTS_PGN = """[Event "Odd Tuesday"]
[Date "2026.11.03"]
[Round "1"]
[White "Ann Alder"]
[Black "Bob Birch"]
[Result "1-0"]
[Variant "Chess960"]
[FEN "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1"]
[SetUp "1"]

1. e4 1-0

[Event "Odd Tuesday"]
[Date "2026.11.03"]
[Round "1"]
[White "Cid Cedar"]
[Black "Dee Dogwood"]
[Result "1/2-1/2"]
[Variant "Crazyhouse"]

1. e4 e5 1/2-1/2

[Event "Odd Tuesday"]
[Date "2026.11.03"]
[Round "2"]
[White "Ann Alder"]
[Black "Cid Cedar"]
[Result "0-1"]

1. d4 d5 0-1
"""


def import_path(club: Club, path: Path, file_format: str) -> Event:
    out = io.StringIO()
    call_command(
        "import_event", club.slug, str(path), "--format", file_format, "--publish",
        "--name", "Read back", "--date", "2026-11-03", stdout=out, stderr=io.StringIO(),
    )  # fmt: skip
    return Event.objects.get(pk=int(out.getvalue()))


def export(club: Club, event: Event, file_format: str) -> str:
    out = io.StringIO()
    call_command("export_event", club.slug, str(event.pk), "--format", file_format, stdout=out)
    return out.getvalue()


def games_of(event: Event, *, variants: bool = True) -> Counter:
    """Each game once: its round, both entrants' names, result and variant."""
    names = {e.pk: e.player.name if e.player else e.typed_name for e in event.entries.all()}
    return Counter(
        (g.round, names[g.white_id], names.get(g.black_id), g.result, g.variant if variants else "")
        for g in event.games.all()
    )


def entrants_of(event: Event) -> Counter:
    return Counter(e.player.name if e.player else e.typed_name for e in event.entries.all())


def round_trip(tmp_path: Path, original: Event, file_format: str, number: int) -> Event:
    text = export(original.club, original, file_format)
    path = tmp_path / f"again-{number}.{file_format}"
    path.write_text(text, encoding="utf-8")
    club = make_club(slug=f"again-{number}")
    return import_path(club, path, file_format)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_an_export_reads_back_as_the_same_games_and_entrants(tmp_path, path):
    club = make_club(slug="original")
    original = import_path(club, path, FORMATS[path.suffix])
    for number, file_format in enumerate(("csv", "trf")):
        again = round_trip(tmp_path, original, file_format, number)
        # TRF has no variants: a variant goes out with the unrated codes (never rated).
        assert games_of(again, variants=file_format == "csv") == games_of(
            original, variants=file_format == "csv"
        ) or (file_format == "trf" and _same_but_variants_unrated(original, again)), file_format
        assert entrants_of(again) == entrants_of(original), file_format


def _same_but_variants_unrated(original: Event, again: Event) -> bool:
    unrated = {"1-0": "1-0u", "0-1": "0-1u", "1/2": "1/2u"}
    expected = Counter(
        (r, w, b, unrated.get(result, result) if variant else result, "")
        for (r, w, b, result, variant), n in games_of(original).items()
        for _ in range(n)
    )
    return games_of(again, variants=False) == expected


def test_a_csv_export_keeps_each_games_variant_so_it_is_never_rated(tmp_path):
    path = tmp_path / "variants.pgn"
    path.write_text(VARIANTS_PGN, encoding="utf-8")
    club = make_club(slug="variants")
    original = import_path(club, path, "pgn")
    assert sorted(v for *_rest, v in games_of(original)) == ["", "Chess960", "Crazyhouse"]
    text = export(club, original, "csv")
    assert text.splitlines()[0] == "round,white,black,result,variant"
    again = round_trip(tmp_path, original, "csv", 7)
    assert games_of(again) == games_of(original)
    assert again.games.exclude(variant="").count() == 2
    # Only the standard game moved a rating, as in the original.
    from ladder.models import PlayerEventResult

    counted = sorted(
        PlayerEventResult.objects.filter(event=again).values_list("games_counted", flat=True)
    )
    assert counted == sorted(
        PlayerEventResult.objects.filter(event=original).values_list("games_counted", flat=True)
    )


def test_a_csv_export_lists_an_entrant_without_games_and_reads_it_back(tmp_path):
    club = make_club(slug="absent")
    ann, bob = make_players(club, ["Ann Alder", "Bob Birch"])
    original = make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Autumn open")
    Entry.objects.create(event=original, typed_name="Cid Cedar", start_rank=3)
    text = export(club, original, "csv")
    assert text.splitlines()[-1].split(",")[:2] == ["", "Cid Cedar"]
    again = round_trip(tmp_path, original, "csv", 8)
    assert entrants_of(again) == entrants_of(original)
    assert again.entries.count() == 3


def eight_player_trf() -> str:
    """Eight entrants: six play, "Fox, Anthony" only took a bye and "Bye, Tom" never came;
    both unrated and without a federation, as a club's own file often has them."""
    lines = [
        "012 Autumn rapid",
        "042 2026/10/01",
        player(1, "Ann Alder", (2, "w", "1"), (3, "b", "="), rating="1500", points="1.5"),
        player(2, "Frei, Lars", (1, "b", "0"), (4, "w", "1"), rating="1450", points="1.0"),
        player(3, "Cid Cedar", (4, "w", "="), (1, "w", "="), rating="1400", points="1.0"),
        player(4, "Dee Dogwood", (3, "b", "="), (2, "b", "0"), rating="1350", points="0.5"),
        player(5, "Eve Elm", (6, "w", "1"), (6, "b", "0"), rating="1300", points="1.0"),
        player(6, "Gus Gum", (5, "b", "0"), (5, "w", "1"), rating="1250", points="1.0"),
        player(7, "Fox, Anthony", (0, "-", "H"), (0, "-", "-"), points="0.5"),
        player(8, "Bye, Tom", None, None, points="0.0"),
    ]
    return "".join(f"{line}\r\n" for line in lines)


def test_an_eight_player_event_keeps_its_eight_entrants_through_export_and_import(tmp_path):
    """Issue 33: an entrant who played no game goes out unrated, with no points and only
    "0000 - -" cells; read back, that is a no-show, not a bye's dummy."""
    path = tmp_path / "autumn.trf"
    path.write_text(eight_player_trf(), encoding="utf-8")
    original = import_path(make_club(slug="autumn"), path, "trf")
    assert original.entries.count() == 8
    # Fox's half-point bye is his in the standings, so he is a player; Tom scored nothing.
    assert original.entries.get(typed_name="Fox, Anthony").player_id
    assert not original.entries.get(typed_name="Bye, Tom").player_id
    again = original
    for number in range(2):  # twice: what one re-import keeps, the next keeps too
        again = round_trip(tmp_path, again, "trf", 20 + number)
        assert again.entries.count() == 8
        assert entrants_of(again) == entrants_of(original)
        assert games_of(again) == games_of(original)
