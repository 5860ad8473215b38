"""What a director's screen or command was shown, checked against the round as it is now.

Two tabs at one evening: tab A shows board 1 as Bram – Jan, tab B re-pairs the round so
board 1 becomes Anna – Jan. Every result form carries the pair it showed and the round's
pairing version (clubs.models.night.Round), so tab A's tap is refused, naming the pair now
on the board, instead of being stored for two other players. A tap may also say the result it
was based on (a tap kept offline, or a second director's screen): once the board holds
another result, the tap is refused naming it, instead of overwriting a later one.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from clubs.labels.results import RESULT_LABELS
from clubs.models import Board, Entry, Event, Round
from clubs.results import Result
from directors.edits import PublishingError


@dataclass(frozen=True)
class Shown:
    """The round's pairing version a screen or command showed and, for one board, the
    entrants it showed on it (a command knows only the version)."""

    pairing: int
    white: int | None = None
    black: int | None = None


# What a tap based on a board without a result says it was based on.
NO_RESULT_YET = "none"


class StalePairing(PublishingError):
    """The round or the board is no longer what the director was shown: nothing is stored."""


def pair_text(board: Board) -> str:
    """Both players of a board as the director's screens name them (the roster's name)."""
    return f"{_name(board.white)} – {_name(board.black)}"


def _name(entry: Entry | None) -> str:
    if entry is None:
        return ""
    return entry.player.name if entry.player is not None else entry.typed_name


def refuse_stale(event: Event, round_number: int, board_number: int | None, shown: Shown) -> None:
    """Refuse, in one sentence naming the pair now on that board, when the round was paired
    again or the board holds another pair than the one shown."""
    now = Round.pairing_of(event.pk, round_number)
    board = None
    if board_number is not None:
        board = (
            event.boards.filter(round=round_number, number=board_number)
            .select_related("white__player", "black__player")
            .first()
        )
    same_pair = (
        board is None
        or shown.white is None  # a command names the round's version, not the pair
        or (board.white_id, board.black_id) == (shown.white, shown.black)
    )
    if now == shown.pairing and same_pair:
        return  # (a board that never was is refused as such by the caller)
    facts = {"round": round_number, "board": board_number, "pairing": shown.pairing, "now": now}
    if board_number is None:
        raise StalePairing(
            _(
                "Round %(round)d was paired again since pairing %(pairing)d (it is pairing "
                "%(now)d now), so nothing was stored."
            )
            % facts
        )
    if board is None:
        raise StalePairing(
            _(
                "Round %(round)d was paired again and has no board %(board)d now, so nothing "
                "was stored."
            )
            % facts
        )
    raise StalePairing(
        _(
            "Round %(round)d was paired again since your screen showed it: board %(board)d "
            "now holds %(pair)s, so nothing was stored."
        )
        % {**facts, "pair": pair_text(board)}
    )


class StaleResult(PublishingError):
    """The board's result changed since the tap was made: nothing is stored."""


def result_moved(now: str, based_on: str | None, tapped: str) -> bool:
    """Whether a tap based on `based_on` (NO_RESULT_YET, a result code, or None: not said)
    comes too late for a board that now holds `now` ("" without a result). A tap that
    agrees with the board as it is now moves nothing and is not refused."""
    if based_on is None or now == tapped:
        return False
    return (now or NO_RESULT_YET) != based_on


def refuse_moved_result(board: Board, based_on: str) -> None:
    """Refuse, naming the board's result now and the one the tap was based on."""
    now = board.game.result_code if board.game is not None else None
    raise StaleResult(
        _(
            "Board %(board)d of round %(round)d holds %(now)s, not %(shown)s as your screen "
            "showed when the result was tapped (another director or a correction changed it), "
            "so nothing was stored."
        )
        % {
            "board": board.number,
            "round": board.round,
            "now": result_text(now),
            "shown": result_text(None if based_on == NO_RESULT_YET else Result(based_on)),
        }
    )


def result_text(result: Result | None) -> str:
    """A board's result as the results screen shows it, or "no result"."""
    if result is None:
        return _("no result")
    return str(RESULT_LABELS[result].short)
