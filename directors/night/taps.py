"""A result tap with a key: the results screen keeps taps in the browser while the venue's
network is away and sends them, in order, when it returns (static/directors/night/offline.js).

A tap may arrive twice (its answer was lost on the failing network, or the page was reloaded
while it was being sent): the key it was given in the browser is stored with the result, in
the same transaction (clubs.models.NightTap), so the second finds it and is answered with the
same outcome, writing nothing and adding no audit line. A tap that a re-pairing, a hand change
or another director made stale is refused by directors.night.rounds.enter_result, as any tap.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Event, NightTap, User
from clubs.results import Result
from directors.edits import PublishingError
from directors.night.pairs import Shown
from directors.night.rounds import BoardChange, enter_result


class TapKeyReused(PublishingError):
    """The key was already used for a tap on another board or with another result."""


@dataclass(frozen=True)
class TapOutcome:
    """What the tap's key stands for: the result applied, whether it was applied before
    (a replay) and, applied now, the change it made."""

    result: Result
    replayed: bool
    change: BoardChange | None


def enter_tap(
    event_id: int,
    round_number: int,
    board_number: int,
    result: Result,
    user: User | None,
    *,
    key: uuid.UUID,
    shown: Shown,
    based_on: str | None,
) -> TapOutcome:
    """Apply the tap once: a key already applied answers its outcome again."""
    with transaction.atomic():
        # Two copies of one tap arriving together: the second waits here for the first.
        list(Event.objects.select_for_update().filter(pk=event_id).values_list("pk"))
        done = NightTap.objects.filter(event_id=event_id, key=key).first()
        if done is not None:
            if (done.round, done.board, done.result) != (round_number, board_number, result):
                raise TapKeyReused(
                    _("This tap's key was already used for another result, so nothing was stored.")
                )
            return TapOutcome(Result(done.result), replayed=True, change=None)
        change = enter_result(
            event_id, round_number, board_number, result, user, shown=shown, based_on=based_on
        )
        NightTap.objects.create(
            event_id=event_id, key=key, round=round_number, board=board_number, result=result
        )
    return TapOutcome(result, replayed=False, change=change)
