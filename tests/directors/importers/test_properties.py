"""Whatever bytes arrive, a parser returns an ImportedEvent or raises ImportFileError."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from directors.importers import ImportedEvent, ImportFileError, parse_file

from .trf_lines import player

FILES = Path(__file__).parent / "files"
SEEDS = {
    "trf": [
        (FILES / name).read_bytes()
        for name in (
            "every_result_code.trf",
            "swiss_manager_cp1252_crlf.trf",
            "lichess_style.trf",
            "trf26_records.trf",
            "utf8_padded_by_bytes.trf",
        )
    ],
    "pgn": [(FILES / "club_rapid_2024.pgn").read_bytes()],
    "csv": [
        (FILES / "ladder_night_comma.csv").read_bytes(),
        (FILES / "ladder_night_semicolon_cp1252.csv").read_bytes(),
    ],
}
FORMATS = sorted(SEEDS)
PROPERTY_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def check_outcome(data: bytes, fmt: str) -> None:
    try:
        event = parse_file(data, fmt)
    except ImportFileError as error:
        assert error.message
        assert error.line is None or error.line >= 1
        return
    assert isinstance(event, ImportedEvent)
    keys = {player.key for player in event.players}
    assert len(keys) == len(event.players)
    for game in event.games:
        assert game.white in keys
        assert game.black is None or game.black in keys
        assert game.black != game.white
        assert (game.black is None) == game.result.is_bye
    assert event.rounds == len({game.round for game in event.games})
    assert all(warning.startswith("Line ") for warning in event.warnings)


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS[fmt])))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                ["flip", "truncate", "duplicate", "remove", "swap", "unicode", "long", "insert"]
            )
        )
        lines = bytes(data).split(b"\n")
        index = draw(st.integers(0, max(len(lines) - 1, 0)))
        if kind == "flip" and data:
            position = draw(st.integers(0, len(data) - 1))
            data[position] ^= 1 << draw(st.integers(0, 7))
            continue
        if kind == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
            continue
        if kind == "duplicate":
            lines.insert(index, lines[index])
        elif kind == "remove":
            del lines[index]
        elif kind == "swap":
            other = draw(st.integers(0, max(len(lines) - 1, 0)))
            lines[index], lines[other] = lines[other], lines[index]
        elif kind == "unicode":
            text = draw(st.text(min_size=1, max_size=40)).encode("utf-8", "surrogatepass")
            line = lines[index]
            start = draw(st.integers(0, len(line)))
            lines[index] = line[:start] + text + line[start + len(text) :]
        elif kind == "long":
            char = draw(st.sampled_from([b"x", b" ", b"1", b"w", b"\xc3\xa9", b"[", b","]))
            lines.insert(index, lines[index][:14] + char * 10_000)
        elif kind == "insert":
            lines.insert(index, draw(st.binary(max_size=60)))
        data = bytearray(b"\n".join(lines))
    return bytes(data)


@pytest.mark.parametrize("fmt", FORMATS)
@PROPERTY_SETTINGS
@given(data=st.binary(max_size=2_000))
def test_random_bytes_give_an_event_or_an_import_error(fmt, data):
    check_outcome(data, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@PROPERTY_SETTINGS
@given(data=st.data())
def test_mutated_valid_files_give_an_event_or_an_import_error(fmt, data):
    check_outcome(data.draw(mutated(fmt)), fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@PROPERTY_SETTINGS
@given(text=st.text(max_size=500))
def test_random_text_gives_an_event_or_an_import_error(fmt, text):
    check_outcome(text.encode("utf-8", "surrogatepass"), fmt)


@PROPERTY_SETTINGS
@given(name=st.text(min_size=1, max_size=33))
def test_any_unicode_name_in_the_name_columns_is_safe(name):
    lines = [player(1, name, (2, "w", "1")), player(2, "Bob", (1, "b", "0"))]
    check_outcome("\n".join(lines).encode("utf-8", "surrogatepass"), "trf")


@pytest.mark.parametrize("fmt", FORMATS)
def test_seed_files_parse(fmt):
    for data in SEEDS[fmt]:
        assert parse_file(data, fmt).games
