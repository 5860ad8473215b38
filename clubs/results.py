"""The vocabulary of game results shared by importers, models and rating policies.

Pure Python: no Django imports, so parsers and policies can use it in tests
that need no database.
"""

from __future__ import annotations

import enum


class Result(enum.StrEnum):
    """How one pairing (or bye) ended.

    Only the three ``PLAYED_*`` codes between two people in a rated event can
    change a rating. Everything else still scores points in the standings.
    """

    # Played over the board.
    WHITE_WIN = "1-0"
    DRAW = "1/2"
    BLACK_WIN = "0-1"
    # Forfeits and games without a result (TRF "+", "-").
    WHITE_FORFEIT_WIN = "+-"
    BLACK_FORFEIT_WIN = "-+"
    DOUBLE_FORFEIT = "--"
    NO_RESULT = "*"
    # Finished but marked unrated (TRF "W", "D", "L": less than one move).
    UNRATED_WHITE_WIN = "1-0u"
    UNRATED_DRAW = "1/2u"
    UNRATED_BLACK_WIN = "0-1u"
    # Byes: only the white side is set, there is no opponent.
    BYE_FULL = "bye1"  # requested full-point bye (TRF "F")
    BYE_HALF = "bye½"  # requested half-point bye (TRF "H")
    BYE_ZERO = "bye0"  # zero-point bye or known absence (TRF "Z", blank)
    BYE_PAIRING = "byeU"  # pairing-allocated bye, odd number of players (TRF "U")
    # The same bye where a club night scores it ½ or 0 (clubs.models.PairingBye): still the
    # pairing's, not the player's choice, so never a voluntary unplayed round (C.07 16.2).
    BYE_PAIRING_HALF = "byeU½"
    BYE_PAIRING_ZERO = "byeU0"

    @property
    def is_bye(self) -> bool:
        return self in _BYES

    @property
    def is_played(self) -> bool:
        """Played over the board and eligible for rating."""
        return self in _PLAYED

    @property
    def is_forfeit(self) -> bool:
        return self in _FORFEITS

    @property
    def is_unrated_result(self) -> bool:
        return self in _UNRATED_RESULTS

    @property
    def scores(self) -> tuple[float, float]:
        """Points for (white, black) in the standings; black is 0 for a bye."""
        return RESULT_SCORES[self]


_PLAYED = frozenset({Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN})
_FORFEITS = frozenset(
    {Result.WHITE_FORFEIT_WIN, Result.BLACK_FORFEIT_WIN, Result.DOUBLE_FORFEIT, Result.NO_RESULT}
)
_UNRATED_RESULTS = frozenset(
    {Result.UNRATED_WHITE_WIN, Result.UNRATED_DRAW, Result.UNRATED_BLACK_WIN}
)
_BYES = frozenset(
    {
        Result.BYE_FULL,
        Result.BYE_HALF,
        Result.BYE_ZERO,
        Result.BYE_PAIRING,
        Result.BYE_PAIRING_HALF,
        Result.BYE_PAIRING_ZERO,
    }
)
# Every bye the pairing gave, whatever it scores.
PAIRING_BYES = frozenset({Result.BYE_PAIRING, Result.BYE_PAIRING_HALF, Result.BYE_PAIRING_ZERO})

# Public for hot loops, where a dict lookup is several times cheaper than the
# ``Result.scores`` property.
RESULT_SCORES: dict[Result, tuple[float, float]] = {
    Result.WHITE_WIN: (1.0, 0.0),
    Result.DRAW: (0.5, 0.5),
    Result.BLACK_WIN: (0.0, 1.0),
    Result.WHITE_FORFEIT_WIN: (1.0, 0.0),
    Result.BLACK_FORFEIT_WIN: (0.0, 1.0),
    Result.DOUBLE_FORFEIT: (0.0, 0.0),
    Result.NO_RESULT: (0.0, 0.0),
    Result.UNRATED_WHITE_WIN: (1.0, 0.0),
    Result.UNRATED_DRAW: (0.5, 0.5),
    Result.UNRATED_BLACK_WIN: (0.0, 1.0),
    Result.BYE_FULL: (1.0, 0.0),
    Result.BYE_HALF: (0.5, 0.0),
    Result.BYE_ZERO: (0.0, 0.0),
    Result.BYE_PAIRING: (1.0, 0.0),
    Result.BYE_PAIRING_HALF: (0.5, 0.0),
    Result.BYE_PAIRING_ZERO: (0.0, 0.0),
}

# The one event kind that never moves the ladder: a team game (clubs.models.Event.Kind).
BUGHOUSE = "bughouse"


def moves_ladder(rated: bool, kind: str) -> bool:
    """Rated by the director and not bughouse: the event can change ratings.
    Event.moves_ladder and EventQuerySet.moving_ladder say it for a model and a query."""
    return rated and kind != BUGHOUSE
