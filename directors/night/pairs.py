"""What a director's screen or command was shown, checked against the round as it is now.

Two tabs at one evening: tab A shows board 1 as Bram – Jan, tab B re-pairs the round so
board 1 becomes Anna – Jan. Every result form carries the pair it showed and the round's
pairing version (clubs.models.night.Round), so tab A's tap is refused, naming the pair now
on the board, instead of being stored for two other players.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from clubs.models import Board, Entry, Event, Round
from directors.edits import PublishingError


@dataclass(frozen=True)
class Shown:
    """The round's pairing version a screen or command showed and, for one board, the
    entrants it showed on it (a command knows only the version)."""

    pairing: int
    white: int | None = None
    black: int | None = None


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
