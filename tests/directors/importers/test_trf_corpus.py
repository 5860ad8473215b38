"""The real TRF files in /work/shared/trf-corpus (read in place, never copied)."""

import json
from collections import Counter
from datetime import date

import pytest

from clubs.results import Result
from directors.importers import ImportedEvent, parse_file
from tests.corpus import TRF_CORPUS

CORPUS = TRF_CORPUS

FACTS_FILE = CORPUS / "expected_facts.json"
pytestmark = pytest.mark.skipif(
    not FACTS_FILE.is_file(), reason=f"the shared TRF corpus is not at {CORPUS}"
)
FACTS = json.loads(FACTS_FILE.read_text()) if FACTS_FILE.is_file() else {}

# Byes and rounds that the files announce but that were never played (pairing-engine input
# written before the round): nothing is stored for them.
ANNOUNCED = {
    "open_gros_donostia_2010_round5_input.trf": {"rounds": 1, "H": 1, "Z": 2},
    "synthetic_edge_cases/bbp_dutch_2025_C5_zero_point_bye.trf": {"rounds": 1, "Z": 1},
}
BYE_CODES = {
    "H": Result.BYE_HALF,
    "U": Result.BYE_PAIRING,
    "Z": Result.BYE_ZERO,
    "+": Result.BYE_FULL,
}

START_DATES = {
    "karl_mala_gedenkturnier_2005.trf": date(2005, 7, 28),
    "lichess_swiss_2020_05_mai5plus0.trf": date(2020, 5, 29),
    "lichess_swiss_2020_06_juni_blitz.trf": date(2020, 6, 26),
    "open_gros_donostia_2010_round5_input.trf": date(2010, 9, 24),
    "open_capo_dorso_2012_accelerated.trf": date(2012, 2, 6),
    "greek_friendship_cup_heraklion_2024_team.trf": date(2024, 11, 23),
    "gelendzhik_sds_classic_2016_semireal.trf": date(2016, 6, 28),
    "synthetic_edge_cases/bbp_dutch_2025_C5_zero_point_bye.trf": None,
    "synthetic_edge_cases/bbp_issue15_cr_line_endings.trf": None,
}

_cache: dict[str, ImportedEvent] = {}


def corpus_event(name: str) -> ImportedEvent:
    if name not in _cache:
        _cache[name] = parse_file((CORPUS / name).read_bytes(), "trf")
    return _cache[name]


def counts(event: ImportedEvent) -> Counter:
    return Counter(game.result for game in event.games)


# What programs call the bye's dummy, spelled out here rather than read from the importer.
DUMMY_NAMES = {"spielfrei", "freilos", "bye", "bye player", "exempt", "descanso", "vrij"}


def _dummy_lines(name: str) -> list[str]:
    """The corpus file's 001 lines whose whole name (columns 15-47) is a bye dummy's: every
    other line is an entrant, a never-paired, unrated one too (issue 33)."""
    text = (CORPUS / name).read_bytes().decode("utf-8", "replace")
    return [
        line
        for line in text.splitlines()
        if line.startswith("001") and line[14:47].strip().casefold() in DUMMY_NAMES
    ]


def test_the_one_dummy_of_the_corpus_is_karl_malas_spielfrei():
    found = {name: len(_dummy_lines(name)) for name in FACTS if _dummy_lines(name)}
    assert found == {"karl_mala_gedenkturnier_2005.trf": 1}


@pytest.mark.parametrize("name", sorted(FACTS))
def test_real_file_has_the_expected_players_and_games(name):
    facts, event = FACTS[name], corpus_event(name)
    found = counts(event)
    ratings = {player.key: player.rating for player in event.players}
    both_rated = [
        game
        for game in event.games
        if game.result.is_played and ratings[game.white] and ratings[game.black]
    ]
    # The corpus counts every 001 line, a bye dummy ("spielfrei") too: it is no entrant here.
    assert len(event.players) == facts["player_lines"] - len(_dummy_lines(name))
    assert sum(n for result, n in found.items() if result.is_played) == facts["played_games"]
    assert len(both_rated) == facts["played_games_both_players_rated"]
    assert (
        found[Result.WHITE_FORFEIT_WIN] + found[Result.BLACK_FORFEIT_WIN] == facts["forfeit_games"]
    )
    assert found[Result.DOUBLE_FORFEIT] == facts["double_forfeits"]


@pytest.mark.parametrize("name", sorted(FACTS))
def test_real_file_stores_its_byes_and_rounds_except_announced_ones(name):
    facts, event = FACTS[name], corpus_event(name)
    announced = ANNOUNCED.get(name, {})
    expected = Counter()
    for key, number in facts["cells_without_opponent"].items():
        code = key.removeprefix("no_opponent:")
        if code in BYE_CODES:
            expected[BYE_CODES[code]] += number - announced.get(code, 0)
    found = Counter({result: n for result, n in counts(event).items() if result.is_bye})
    assert found == +expected
    assert event.rounds == facts["rounds_with_data"] - announced.get("rounds", 0)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_real_file_start_date(name):
    assert corpus_event(name).date == START_DATES[name]


@pytest.mark.parametrize("name", sorted(FACTS))
def test_real_file_never_pairs_a_player_twice_in_a_round(name):
    seen = Counter()
    for game in corpus_event(name).games:
        seen[(game.round, game.white)] += 1
        if game.black is not None:
            seen[(game.round, game.black)] += 1
    assert max(seen.values()) == 1


WARNINGS = [
    pytest.param(
        "karl_mala_gedenkturnier_2005.trf",
        [
            "Line 297: 'spielfrei' is the placeholder a tournament program writes for a bye, not a "
            "person: it is no entrant, and a pairing against it is its opponent's bye."
        ],
        id="Karl Mala: spielfrei noted",
    ),
    pytest.param("lichess_swiss_2020_05_mai5plus0.trf", [], id="lichess 13 players: clean"),
    pytest.param("lichess_swiss_2020_06_juni_blitz.trf", [], id="lichess 9 players: clean"),
    pytest.param(
        "open_gros_donostia_2010_round5_input.trf",
        [
            "Line 35: round 5 has no game between two players, only byes or absences (3 of them); "
            "it looks announced but not played, so nothing was stored for it."
        ],
        id="Donostia: round 5 announced",
    ),
    pytest.param("open_capo_dorso_2012_accelerated.trf", [], id="Capo d'Orso: XXA silent"),
    pytest.param(
        "synthetic_edge_cases/bbp_dutch_2025_C5_zero_point_bye.trf",
        [
            "Line 5: round 3 has no game between two players, only byes or absences (1 of them); "
            "it looks announced but not played, so nothing was stored for it."
        ],
        id="bbp C5: round 3 announced",
    ),
    pytest.param("synthetic_edge_cases/bbp_issue15_cr_line_endings.trf", [], id="CR only: clean"),
]


@pytest.mark.parametrize(("name", "warnings"), WARNINGS)
def test_real_file_warnings(name, warnings):
    assert list(corpus_event(name).warnings) == warnings


def test_greek_team_file_flags_the_twelve_inflated_point_totals_and_skips_rulers():
    event = corpus_event("greek_friendship_cup_heraklion_2024_team.trf")
    assert len(event.warnings) == 12
    assert all("the points column says" in warning for warning in event.warnings)
    assert event.warnings[0] == (
        "Line 28: the points column says 3.5 for player 9 (Hatzidakis,Nikolaos), but the round "
        "results add up to 2.5; the round results were used (a team file's points column "
        "counts its team's points too, so no bye is read from it)."
    )
    assert event.name == "ΔΙΑΣΥΛΛΟΓΙΚΟ ΚΥΠΕΛΛΟ ΚΡΗΤΙΚΗΣ ΦΙΛΙΑΣ 2024"
    assert event.time_control == "15 minutes plus 10 sec per move"


def test_gelendzhik_zero_points_column_is_reported_for_everyone_and_ignored():
    event = corpus_event("gelendzhik_sds_classic_2016_semireal.trf")
    assert len(event.warnings) == 14
    assert {player.declared_points for player in event.players} == {0.0}
    assert len(event.games) == 49


def test_karl_mala_bye_written_as_forfeit_win_is_a_full_point_bye():
    event = corpus_event("karl_mala_gedenkturnier_2005.trf")
    assert [(g.round, g.result) for g in event.games if g.white == 282 and g.black is None] == [
        (5, Result.BYE_FULL)
    ]
    # "spielfrei" (284), the bye's dummy opponent, is no entrant and in no game.
    assert event.players[-1].key == 283 and 284 not in {p.key for p in event.players}
    assert not [g for g in event.games if 284 in (g.white, g.black)]


def test_karl_mala_no_show_is_a_forfeit_not_a_game():
    event = corpus_event("karl_mala_gedenkturnier_2005.trf")
    [game] = [g for g in event.games if 13 in (g.white, g.black)]
    assert (game.round, game.white, game.black) == (1, 13, 153)
    assert game.result is Result.BLACK_FORFEIT_WIN


def test_karl_mala_names_and_juniors():
    event = corpus_event("karl_mala_gedenkturnier_2005.trf")
    by_key = {player.key: player for player in event.players}
    assert by_key[27].name == "Kiese,Matthias,Dr."
    assert (by_key[19].name, by_key[19].junior) == ("Becker,Martin Alexander", True)  # 1987.09.20
    assert by_key[1].junior is False


def test_donostia_round_five_stores_nothing():
    event = corpus_event("open_gros_donostia_2010_round5_input.trf")
    assert max(game.round for game in event.games) == 4
    assert event.players[27].name == "Moreno Romero Ernesto"  # registered, never played
    assert [(g.round, g.result) for g in event.games if 28 in (g.white, g.black)] == [
        (round_number, Result.BYE_ZERO) for round_number in (1, 2, 3, 4)
    ]


def test_capo_dorso_acceleration_points_never_count():
    event = corpus_event("open_capo_dorso_2012_accelerated.trf")
    assert event.name == "4° Open Capo D' Orso 2012"
    assert event.players[0].declared_points == 7.5
    assert "Dall`ora Gianfranco" in {player.name for player in event.players}


def test_lichess_usernames_and_byes():
    event = corpus_event("lichess_swiss_2020_06_juni_blitz.trf")
    assert event.players[0].name == "mattderkuerschner"
    assert Counter(g.white for g in event.games if g.result is Result.BYE_PAIRING) == {
        key: 1 for key in range(1, 10)
    }


def test_greek_birth_years_give_juniors_where_they_can():
    event = corpus_event("greek_friendship_cup_heraklion_2024_team.trf")
    by_key = {player.key: player for player in event.players}
    assert by_key[1].junior is True  # 2014/00/00
    assert by_key[7].junior is False  # 1997/00/00
    assert by_key[34].junior is None  # 2006/00/00: 17 or 18 on 23 November 2024
