"""How events, arriving in any order, bring one Stripe subscription to the state Stripe holds.

Pure values only: the webhook handlers turn each event into an Observation and
store what observe() returns.

Each observation carries the `created` time of its event. A status older than
the one stored is ignored; a status that ends the subscription (canceled,
incomplete_expired) is final, whatever arrives after it. Plan and period are
tracked with their own time because only whole subscription objects carry them.
Events created in the same second cannot be ordered: the one processed last wins.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

ACTIVE_STATUSES = frozenset({"active", "trialing"})
ENDED_STATUSES = frozenset({"canceled", "incomplete_expired"})


@dataclass(frozen=True)
class Details:
    plan: str
    current_period_end: int | None
    cancel_at_period_end: bool


@dataclass(frozen=True)
class Observation:
    """What one event says about a subscription at the moment Stripe created the event."""

    created: int
    status: str | None = None
    details: Details | None = None


@dataclass(frozen=True)
class SubscriptionState:
    status: str = ""
    ended: bool = False
    status_as_of: int = 0
    plan: str = ""
    current_period_end: int | None = None
    cancel_at_period_end: bool = False
    details_as_of: int = 0

    @property
    def is_active(self) -> bool:
        return not self.ended and self.status in ACTIVE_STATUSES


def observe(state: SubscriptionState, seen: Observation) -> SubscriptionState:
    if state.ended:
        return state
    if seen.details is not None and seen.created >= state.details_as_of:
        state = replace(
            state,
            plan=seen.details.plan,
            current_period_end=seen.details.current_period_end,
            cancel_at_period_end=seen.details.cancel_at_period_end,
            details_as_of=seen.created,
        )
    if seen.status in ENDED_STATUSES:
        return replace(
            state,
            status=seen.status,
            ended=True,
            status_as_of=max(state.status_as_of, seen.created),
        )
    if seen.status is not None and seen.created >= state.status_as_of:
        state = replace(state, status=seen.status, status_as_of=seen.created)
    return state
