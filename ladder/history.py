"""Replay: the ladder as a pure fold of a policy over events.

Pure Python: no Django imports. Persisting the steps and deciding where to
resume is the caller's job; this module guarantees that resuming from the
states at any point gives exactly what replaying from the beginning gives,
because each event sees nothing but its participants' states.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ladder.policies.base import (
    EventInput,
    EventRating,
    PlayerState,
    RatingPolicy,
    SettingsT,
    participants,
)


@dataclass(frozen=True)
class HistoryStep:
    event_id: int
    rating: EventRating


def rate_history(
    policy: RatingPolicy[SettingsT],
    settings: SettingsT,
    events: Sequence[EventInput],
    states: Mapping[int, PlayerState],
) -> tuple[list[HistoryStep], dict[int, PlayerState]]:
    """Rate ``events`` in the given order, starting from ``states``.

    ``states`` must hold every player appearing in any of the events as they
    stood before the first one (the caller gives newcomers the start rating or
    a director's estimate). Returns one step per event and the final states of
    all players in ``states``, as a new dict; ``states`` is not modified.
    """
    current = dict(states)
    steps = list(rate_events(policy, settings, events, current))
    return steps, current


def rate_events(
    policy: RatingPolicy[SettingsT],
    settings: SettingsT,
    events: Iterable[EventInput],
    current: dict[int, PlayerState],
) -> Iterator[HistoryStep]:
    """``rate_history`` one event at a time: yields each step as soon as it is rated.

    ``current`` is updated in place, so after the last step it holds the final
    states. A caller that stores the steps can write each one while the next is
    rated (a full replay overlaps its database writes with the rating this way).
    """
    for event in events:
        players = participants(event)
        missing = sorted(players - current.keys())
        if missing:
            raise ValueError(f"event {event.id}: no starting state for players {missing}")
        # Only participants are passed, so a policy cannot depend on anyone
        # else; this is what makes replaying from the middle exact.
        before = {player: current[player] for player in players}
        rating = policy.rate_event(event, before, settings)
        for player in players:
            outcome = rating.players[player]
            current[player] = PlayerState(
                rating=outcome.post_rating,
                rated_games=outcome.rated_games_after,
                junior=current[player].junior,
            )
        yield HistoryStep(event_id=event.id, rating=rating)
