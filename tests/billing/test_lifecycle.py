"""Whatever order Stripe's events arrive in, the club ends in the state Stripe holds."""

import datetime as dt
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from billing.models import Subscription
from billing.state import Details, Observation, SubscriptionState, observe
from billing.status import page_is_active
from tests.billing.stripe_events import LIFECYCLE, load_event, post_event

# What each recorded event says: (created, status, plan or None when the event carries none).
RECORDED = {
    "customer_subscription_created": (1767261600, "active", "monthly"),
    "checkout_session_completed": (1767261602, "active", None),
    "invoice_paid": (1767261603, "active", None),
    "customer_subscription_updated": (1767693600, "active", "yearly"),
    "invoice_payment_failed": (1799233200, "past_due", None),
    "customer_subscription_deleted": (1801044000, "canceled", "yearly"),
}


def stripe_holds(delivered):
    """The state Stripe holds as of the newest event among those delivered."""
    names = set(delivered)
    newest = max(names, key=lambda name: RECORDED[name][0])
    with_plan = [name for name in names if RECORDED[name][2]]
    plan = RECORDED[max(with_plan, key=lambda name: RECORDED[name][0])][2] if with_plan else ""
    status = RECORDED[newest][1]
    return status, "customer_subscription_deleted" in names, plan


def deliver_all(client, club, order):
    for name in order:
        assert post_event(client, load_event(name, club.pk)).status_code == 200


example_settings = hypothesis_settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def test_the_recorded_events_match_the_table_above():
    for name, (created, _status, _plan) in RECORDED.items():
        assert load_event(name, club_id=1)["created"] == created


@pytest.mark.django_db
@pytest.mark.usefixtures("billing_on")
@example_settings
@given(order=st.permutations(LIFECYCLE))
def test_every_order_of_the_whole_lifecycle_ends_deleted_and_inactive(client, club, order):
    with transaction.atomic():
        deliver_all(client, club, order)
        subscription = Subscription.objects.get()
        assert (subscription.status, subscription.ended, subscription.plan) == (
            "canceled",
            True,
            "yearly",
        )
        assert subscription.current_period_end == dt.datetime(2028, 1, 6, 10, tzinfo=dt.UTC)
        assert not page_is_active(club)
        transaction.set_rollback(True)


@pytest.mark.django_db
@pytest.mark.usefixtures("billing_on")
@example_settings
@given(order=st.lists(st.sampled_from(LIFECYCLE), min_size=1, max_size=9))
def test_any_part_of_the_lifecycle_in_any_order_with_repeats_ends_as_stripe_holds(
    client, club, order
):
    with transaction.atomic():
        deliver_all(client, club, order)
        subscription = Subscription.objects.get()
        status, ended, plan = stripe_holds(order)
        assert (subscription.status, subscription.ended, subscription.plan) == (status, ended, plan)
        assert page_is_active(club) == (status == "active" and not ended)
        transaction.set_rollback(True)


# The pure core, exhaustively: every order of six observations.
OBSERVATIONS = [
    Observation(100, "active", Details("monthly", 200, False)),
    Observation(102, "active"),
    Observation(103, "active"),
    Observation(150, "active", Details("yearly", 500, False)),
    Observation(400, "past_due"),
    Observation(600, "canceled", Details("yearly", 500, False)),
]


def fold(observations):
    state = SubscriptionState()
    for seen in observations:
        state = observe(state, seen)
    return state


def test_every_order_of_the_observations_gives_the_same_state():
    expected = SubscriptionState(
        status="canceled",
        ended=True,
        status_as_of=600,
        plan="yearly",
        current_period_end=500,
        details_as_of=600,
    )
    for order in itertools.permutations(OBSERVATIONS):
        assert fold(order) == expected, order


def test_an_ended_subscription_ignores_even_newer_news():
    ended = fold([Observation(600, "canceled")])
    assert fold([Observation(600, "canceled"), Observation(900, "active")]) == ended
    assert not ended.is_active


def test_incomplete_expired_ends_a_subscription_too():
    assert fold([Observation(10, "incomplete_expired"), Observation(20, "active")]).ended


def test_without_a_plan_an_older_plan_fills_in_but_never_overrides_a_newer_one():
    state = fold(
        [
            Observation(400, "past_due"),
            Observation(100, "active", Details("monthly", 200, False)),
            Observation(150, "active", Details("yearly", 500, True)),
        ]
    )
    assert (state.status, state.plan, state.current_period_end, state.cancel_at_period_end) == (
        "past_due",
        "yearly",
        500,
        True,
    )


def test_trialing_counts_as_active_and_past_due_does_not():
    assert fold([Observation(1, "trialing")]).is_active
    assert not fold([Observation(1, "past_due")]).is_active
    assert not SubscriptionState().is_active
