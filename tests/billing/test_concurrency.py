"""Two deliveries at the same moment: PostgreSQL's unique index lets only one through."""

import threading
import time

import pytest
from django.db import connection
from django.test import Client

from billing import webhooks
from billing.models import ProcessedStripeEvent, Subscription
from billing.status import page_is_active
from tests.billing.stripe_events import load_event, post_event

pytestmark = [pytest.mark.postgres, pytest.mark.usefixtures("billing_on")]


def post_together(events):
    """Post each event from its own thread and connection, all released at once."""
    start = threading.Barrier(len(events))
    statuses = [None] * len(events)

    def deliver(index, event):
        try:
            start.wait()
            statuses[index] = post_event(Client(), event).status_code
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver, args=item) for item in enumerate(events)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return statuses


@pytest.fixture
def slow_handlers(monkeypatch):
    """Hold each handler's transaction open long enough for the other thread to collide."""
    calls = []
    original = webhooks.observe

    def slow(state, seen):
        calls.append(seen)
        time.sleep(0.5)
        return original(state, seen)

    monkeypatch.setattr(webhooks, "observe", slow)
    return calls


def test_the_same_event_delivered_twice_at_once_is_processed_once(
    transactional_db, club, slow_handlers
):
    event = load_event("customer_subscription_created", club.pk)
    assert post_together([event, event]) == [200, 200]
    assert len(slow_handlers) == 1
    assert ProcessedStripeEvent.objects.count() == 1
    assert page_is_active(club)


def test_two_events_for_a_new_subscription_at_once_share_one_row(
    transactional_db, club, slow_handlers
):
    events = [
        load_event("customer_subscription_created", club.pk),
        load_event("customer_subscription_updated", club.pk),
    ]
    assert post_together(events) == [200, 200]
    assert len(slow_handlers) == 2
    subscription = Subscription.objects.get()
    assert (subscription.plan, subscription.status) == ("yearly", "active")
