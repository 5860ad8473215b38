"""One board's result corrected, before or after the club night is published (the
correct_result command).

Before publishing, the result changes in place (directors.night.rounds.enter_result). After,
the correction moves the ladder like one made in the browser: it claims the event's edit
version, so a page opened before it is refused, and the one door marks the ladder out of
date in the same transaction, so the worker replays it.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Event, Game, User
from clubs.results import Result
from directors.edits import PublishingError, claim
from directors.night.pairs import Shown, pair_text, refuse_stale
from directors.night.rounds import BOARD_RESULTS, BoardChange, enter_result, played_board
from ladder.changes import LadderInput, club_changed


def correct_result(
    event_id: int,
    round_number: int,
    board_number: int,
    result: Result,
    user: User | None,
    *,
    shown: Shown | None = None,
) -> BoardChange:
    """Set one board's result of a club night, published or not."""
    if result not in BOARD_RESULTS:
        raise PublishingError(_("Choose a result from the list."))
    event = Event.objects.get(pk=event_id)
    if event.status != Event.Status.PUBLISHED:
        return enter_result(event_id, round_number, board_number, result, user, shown=shown)
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("club").get(pk=event_id)
        if event.deleted_at is not None:
            raise PublishingError(_("This event is deleted: restore it before changing it."))
        if shown is not None:
            refuse_stale(event, round_number, board_number, shown)
        board = played_board(event, round_number, board_number)
        if board.game is None:
            raise PublishingError(_("There is no such board in this round."))
        old = board.game.result_code
        if old == result:
            # Run twice (or from a second tab): nothing changes, so no open page turns
            # stale and the ladder does not replay.
            return BoardChange(board, old, result, ())
        event = claim(event_id, event.edit_version)
        Game.objects.filter(pk=board.game.pk).update(result=result)
        board.game.result = result
        audit.record(
            event.club_id, user, "board_result.entered", event_id=event.pk,
            round=round_number, board=board_number, result=result.value,
            pair=pair_text(board), old=old.value,
        )  # fmt: skip
        club_changed(event.club_id, LadderInput.of_event(event))
    return BoardChange(board, old, result, ())
