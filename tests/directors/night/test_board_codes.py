"""The board codes and the agreement of two reports, without a database (issue 36)."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from django.conf import settings

from clubs.board_codes import (
    ALPHABET,
    CODE_LENGTH,
    code_space,
    grouped,
    guess_chance,
    new_code,
    normalised,
)
from clubs.results import Result
from directors.night.agreement import Kind, State, board_state, decide

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


def test_the_alphabet_has_32_symbols_and_no_look_alikes():
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert not set("01IO") & set(ALPHABET)
    assert ALPHABET.upper() == ALPHABET


def test_a_code_is_drawn_from_the_alphabet_at_full_length():
    codes = [new_code() for _ in range(2000)]
    assert all(len(code) == CODE_LENGTH >= 8 for code in codes)
    assert all(set(code) <= set(ALPHABET) for code in codes)
    assert len(set(codes)) == len(codes)
    # Every symbol turns up, none far more than its share (24,000 draws, 750 expected each).
    counts = Counter("".join(codes))
    assert set(counts) == set(ALPHABET)
    assert max(counts.values()) < 950 and min(counts.values()) > 550


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("K7M4-XQPR-T9WC", "K7M4XQPRT9WC"),
        ("k7m4xqprt9wc", "K7M4XQPRT9WC"),
        (" K7M4 XQPR T9WC ", "K7M4XQPRT9WC"),
        ("K7M4XQPRT9W", None),  # too short
        ("K7M4XQPRT9WC2", None),  # too long
        ("K7M4XQPRT9W0", None),  # 0 is no symbol
        ("K7M4XQPRT9WO", None),  # O is no symbol
        ("K7M4XQPRT9W1", None),
        ("../../etc", None),
        ("", None),
    ],
)
def test_what_a_player_types_reads_as_the_code_or_as_nothing(typed, stored):
    assert normalised(typed) == stored


def test_a_code_prints_in_two_groups_that_read_back():
    code = new_code()
    assert grouped(code)[4] == grouped(code)[9] == "-"
    assert normalised(grouped(code)) == code


def test_within_the_rate_limit_guessing_a_live_code_in_an_evening_is_negligible():
    """A 6-hour evening, every request the address limit allows a fresh guess, a club of
    2,000 players (1,000 live codes), and even a thousand addresses at once."""
    chance = guess_chance(
        live_codes=1000,
        requests_per_window=settings.BOARD_REPORT_ADDRESS_LIMIT,
        window_seconds=settings.BOARD_REPORT_WINDOW_SECONDS,
        attack_seconds=6 * 3600,
        addresses=1000,
    )
    assert chance < 1e-6
    assert code_space() == 32**12 == 2**60
    # The bound is the plain arithmetic: guesses × live codes ÷ codes there are.
    windows = math.ceil(6 * 3600 / settings.BOARD_REPORT_WINDOW_SECONDS)
    guesses = settings.BOARD_REPORT_ADDRESS_LIMIT * windows * 1000
    assert chance == pytest.approx(guesses * 1000 / 2**60)


def test_a_short_code_or_no_limit_would_not_be_safe():
    # The same attack against 6-symbol codes, or without the limit (a request every 10 ms),
    # is not negligible: the test above is not true of any code.
    weak = guess_chance(
        live_codes=1000, requests_per_window=300, window_seconds=600, attack_seconds=6 * 3600,
        addresses=1000, length=6,
    )  # fmt: skip
    unlimited = guess_chance(
        live_codes=1000, requests_per_window=60_000, window_seconds=600, attack_seconds=6 * 3600,
        addresses=1000,
    )  # fmt: skip
    assert weak > 1e-6 and unlimited > 1e-6


@pytest.mark.parametrize(
    ("white", "black", "kind", "result"),
    [
        (None, None, Kind.NONE, None),
        (W, None, Kind.WAITING, W),
        (None, D, Kind.WAITING, D),
        (W, W, Kind.CONFIRMED, W),
        (D, D, Kind.CONFIRMED, D),
        (B, B, Kind.CONFIRMED, B),
        (W, B, Kind.DISPUTED, None),
        (D, W, Kind.DISPUTED, None),
    ],
)
def test_two_reports_decide(white, black, kind, result):
    decision = decide(white, black)
    assert (decision.kind, decision.result) == (kind, result)


@pytest.mark.parametrize(
    ("white", "black", "stored", "state"),
    [
        (None, None, None, State.NONE),
        (None, None, W, State.NONE),  # the director's own tap
        (W, None, None, State.REPORTED),
        (W, B, None, State.DISPUTED),
        (W, W, W, State.CONFIRMED),
        (W, B, D, State.SETTLED),  # the director overruled a dispute
        (W, None, D, State.SETTLED),
        (W, W, D, State.SETTLED),  # confirmed, then corrected by the director
    ],
)
def test_the_directors_screen_shows_each_board_state(white, black, stored, state):
    assert board_state(white, black, stored).state == state
