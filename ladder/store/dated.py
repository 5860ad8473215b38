"""The ladder as it stood at the end of any day, read from what the replay stored.

Never replayed: each player's last stored result dated that day or before, through
ladder.store.ladder_before, the one reading of "before an event". The pages' `?on=` and
export_ladder --on read it (ladder/roster/rosters.py, members/files/export.py).
"""

from __future__ import annotations

import datetime as dt

from django.db import models

from clubs.models import Club, Ladder, Player
from ladder.models import PlayerEventResult, RatedEvent
from ladder.policies import get_policy
from ladder.policies.base import PlayerState
from ladder.store import PlayerSummary, ladder_before, starting_states


def ladder_on(
    club: Club, day: dt.date, ladder: Ladder | None = None
) -> list[tuple[int, PlayerSummary]]:
    """Every player not merged away as `ladder` (the club's first if None) stood at the end
    of `day`, in ladder order,
    from the stored results (never replayed): each one's last result dated `day` or before,
    else their starting state, flagged provisional as replay._rebuild flags it. Only stored
    (published, not deleted) events count; pages leave out who has no rated game."""
    ladder = ladder or club.first_ladder()
    policy = get_policy(ladder.rating_policy)
    settings = policy.parse_settings(ladder.rating_settings)
    # Positions follow dates: the events up to `day` end at the last position stored with that
    # date or earlier. One result probed per event, newest first: a few ms, not a 40,000-row scan.
    stored_date = PlayerEventResult.objects.filter(event_id=models.OuterRef("event_id"))
    last = (
        RatedEvent.objects.filter(ladder_id=ladder.pk)
        .alias(day=models.Subquery(stored_date.order_by().values("event_date")[:1]))
        .filter(day__lte=day)
        .order_by("-position")
        .values_list("position", flat=True)
        .first()
    )
    # By name in the database's collation, an order summaries keeps: the stable sort below
    # then breaks ties exactly as PlayerQuerySet.in_ladder_order does.
    players = Player.objects.filter(club_id=club.pk).active().order_by("name", "id")
    states = starting_states(club.pk, ladder.pk, policy.start_rating(settings))
    initial = {pid: states[pid] for pid in players.values_list("id", flat=True) if pid in states}
    _states, summaries = ladder_before(club.pk, ladder.pk, 0 if last is None else last + 1, initial)
    rows = [
        (pid, s._replace(provisional=policy.is_provisional(PlayerState(*s[:2]), settings)))
        for pid, s in summaries.items()
    ]
    rows.sort(key=lambda row: (row[1].provisional, -row[1].rating))
    return rows
