"""A club night while it is played: the round on the boards and the standings so far, for
the club's members under the club's own visibility and name rules.

The standings are the event page's (members/pages/events/event_pages.py), from the results entered
so
far; the boards of the round being played come from the club night's pairing
(clubs.models.Board), with "playing" where no result is in yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from clubs.labels.results import RESULT_LABELS
from clubs.models import Event
from ladder.roster.rosters import Roster
from members.pages.events.event_pages import EventPage, event_page


@dataclass(frozen=True)
class LiveSide:
    player_id: int | None
    name: str


@dataclass(frozen=True)
class LiveBoard:
    number: int
    white: LiveSide
    black: LiveSide | None  # None: the pairing-allocated bye
    result: str | None  # None while the game is played


@dataclass(frozen=True)
class LivePage:
    event: Event
    round: int  # the round on the boards; 0 before the first is paired
    planned: int
    boards: list[LiveBoard]
    results: EventPage  # the standings and finished rounds, up to `round`
    # Entries withdrawn by the next round, marked in the standings as the director's are.
    withdrawn: frozenset[int] = frozenset()


def live_page(event: Event, roster: Roster, unconfirmed: str) -> LivePage:
    current = event.paired_rounds()
    boards = event.round_boards(current)

    def side(player_id: int | None) -> LiveSide:
        name = roster.names.get(player_id) if player_id is not None else None
        return LiveSide(player_id if name else None, name or unconfirmed)

    shown = [
        LiveBoard(
            board.number,
            side(board.white.player_id),
            side(board.black.player_id) if board.black is not None else None,
            str(RESULT_LABELS[board.game.result_code].text) if board.game else None,
        )
        for board in boards
    ]
    # A requested bye for a later round is a game already; the standings stop at the
    # round on the boards, as the director's do.
    results = event_page(event, roster, unconfirmed, after=current or None)
    withdrawn = event.entries.filter(withdrawn_from_round__lte=current + 1)
    return LivePage(
        event,
        current,
        event.planned_rounds or 0,
        shown,
        results,
        frozenset(withdrawn.values_list("pk", flat=True)),
    )
