"""Do the two players at a board agree? (issue 36: results reported at the board.)

Pure: plain values in, a plain answer out, tested without a database. What each side said
comes from clubs.models.BoardReport; directors/night/board_reports.py stores the result when
this says the report is confirmed, and the director's results screen shows `board_state`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from clubs.results import Result


class Kind(enum.StrEnum):
    NONE = "none"  # nobody reported
    WAITING = "waiting"  # one side reported: the other side (or the director) confirms
    CONFIRMED = "confirmed"  # both sides said the same: store it
    DISPUTED = "disputed"  # both sides spoke and disagree: store nothing, tell the director


@dataclass(frozen=True)
class Decision:
    kind: Kind
    result: Result | None = None  # CONFIRMED: the result both said; WAITING: the one said


def decide(white: Result | None, black: Result | None) -> Decision:
    """What two reports (None: that side has not reported) decide."""
    if white is None and black is None:
        return Decision(Kind.NONE)
    if white is None or black is None:
        return Decision(Kind.WAITING, white if white is not None else black)
    if white == black:
        return Decision(Kind.CONFIRMED, white)
    return Decision(Kind.DISPUTED)


class State(enum.StrEnum):
    """A board as the director's results screen shows it."""

    NONE = "none"  # no report (a result, if any, is the director's own)
    REPORTED = "reported"  # one side reported, the result waits
    CONFIRMED = "confirmed"  # stored as both players reported it
    DISPUTED = "disputed"  # the players disagree; nothing stored
    SETTLED = "settled"  # the director's stored result stands over the players' reports


@dataclass(frozen=True)
class BoardState:
    state: State
    white: Result | None  # what each side reported
    black: Result | None


def board_state(white: Result | None, black: Result | None, stored: Result | None) -> BoardState:
    """A board's reports beside its stored result (None: no result yet)."""
    decision = decide(white, black)
    if stored is None:
        state = {
            Kind.NONE: State.NONE,
            Kind.WAITING: State.REPORTED,
            Kind.CONFIRMED: State.CONFIRMED,  # stored in the same transaction: only a moment
            Kind.DISPUTED: State.DISPUTED,
        }[decision.kind]
    elif decision.kind is Kind.NONE:
        state = State.NONE
    elif decision.kind is Kind.CONFIRMED and decision.result == stored:
        state = State.CONFIRMED
    else:
        state = State.SETTLED
    return BoardState(state, white, black)
