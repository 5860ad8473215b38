"""The short codes printed on a club night's result slips (issue 36: results at the board).

Pure Python, no Django: the model (clubs.models.night.BoardCode) stores them, the access helper
(clubs.access.board_code_for_visitor) reads one back from an address a player typed or scanned.

A code is CODE_LENGTH symbols drawn with `secrets` from a 32-symbol alphabet without look-alikes
(no 0/O, 1/I), so it reads aloud and types on a phone without doubt: 60 random bits. How little
that leaves to a guesser within the rate limit is `guess_chance`, tested.
"""

from __future__ import annotations

import secrets

# Digits 2-9 and the capitals without I and O: 8 + 24 = 32 symbols, 5 bits each.
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
CODE_LENGTH = 12
# Printed in groups for typing by hand ("K7M4-XQPR-T9WC"); the hyphens are optional when typed.
GROUP = 4
SHOWN_PREFIX = 4  # how much of a code the audit log names ("K7M4…")


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def normalised(text: str) -> str | None:
    """The code as stored, from what a player typed (any case, with hyphens or spaces); None
    for text that cannot be a code, so a forged address costs no database query."""
    cleaned = text.replace("-", "").replace(" ", "").upper()
    if len(cleaned) != CODE_LENGTH or any(symbol not in ALPHABET for symbol in cleaned):
        return None
    return cleaned


def grouped(code: str) -> str:
    """The code as printed for typing by hand."""
    return "-".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def shown_prefix(code: str) -> str:
    """What the audit log says of a code: enough to find the slip, not enough to use it."""
    return f"{code[:SHOWN_PREFIX]}…"


def code_space(alphabet_size: int = len(ALPHABET), length: int = CODE_LENGTH) -> int:
    space: int = pow(alphabet_size, length)
    return space


def guess_chance(
    *,
    live_codes: int,
    requests_per_window: int,
    window_seconds: int,
    attack_seconds: int,
    addresses: int = 1,
    alphabet_size: int = len(ALPHABET),
    length: int = CODE_LENGTH,
) -> float:
    """An upper bound on the chance that an attacker hits any live code: every request the rate
    limit lets through (per network address, for `addresses` addresses, over `attack_seconds`)
    is a fresh guess, each hitting one of `live_codes` out of the whole code space (the union
    bound, so never an underestimate)."""
    windows = -(-attack_seconds // window_seconds)  # a window started counts whole
    guesses = requests_per_window * windows * addresses
    return min(1.0, guesses * live_codes / code_space(alphabet_size, length))
