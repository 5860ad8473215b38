"""Each event brings the club's subscription to the state Stripe holds, once."""

import datetime as dt
import json

import pytest

from billing import webhooks
from billing.models import ProcessedStripeEvent, Subscription
from billing.status import page_is_active
from tests.billing.stripe_events import (
    CUSTOMER_ID,
    SUBSCRIPTION_ID,
    load_event,
    post_event,
    post_payload,
    sign,
)
from tests.factories import make_club

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("billing_on")]


def deliver(client, club, *names):
    for name in names:
        assert post_event(client, load_event(name, club.pk)).status_code == 200, name


def test_a_new_subscription_makes_the_page_active(client, club):
    assert not page_is_active(club)
    deliver(client, club, "customer_subscription_created")
    subscription = Subscription.objects.get()
    assert subscription.club == club
    assert subscription.stripe_subscription_id == SUBSCRIPTION_ID
    assert subscription.stripe_customer_id == CUSTOMER_ID
    assert subscription.plan == "monthly"
    assert subscription.status == "active"
    assert subscription.current_period_end == dt.datetime(2026, 2, 1, 10, tzinfo=dt.UTC)
    assert page_is_active(club)


def test_a_completed_checkout_alone_makes_the_page_active(client, club):
    deliver(client, club, "checkout_session_completed")
    subscription = Subscription.objects.get()
    assert (subscription.club, subscription.status, subscription.plan) == (club, "active", "")
    assert subscription.stripe_customer_id == CUSTOMER_ID
    assert page_is_active(club)


def test_an_unpaid_checkout_does_not_make_the_page_active(client, club):
    event = load_event("checkout_session_completed", club.pk)
    event["data"]["object"]["payment_status"] = "unpaid"
    assert post_event(client, event).status_code == 200
    assert not page_is_active(club)


def test_a_switch_to_the_yearly_plan_is_recorded(client, club):
    deliver(client, club, "customer_subscription_created", "customer_subscription_updated")
    subscription = Subscription.objects.get()
    assert subscription.plan == "yearly"
    assert subscription.current_period_end == dt.datetime(2027, 1, 6, 10, tzinfo=dt.UTC)


def test_a_failed_renewal_makes_the_page_inactive_and_a_later_payment_restores_it(client, club):
    deliver(client, club, "customer_subscription_created", "invoice_payment_failed")
    assert Subscription.objects.get().status == "past_due"
    assert not page_is_active(club)
    paid = load_event("invoice_paid", club.pk)
    paid["id"] = "evt_1U0RetryPaid"
    paid["created"] = load_event("invoice_payment_failed", club.pk)["created"] + 86400
    assert post_event(client, paid).status_code == 200
    assert page_is_active(club)


def test_a_deleted_subscription_makes_the_page_inactive(client, club):
    deliver(client, club, "customer_subscription_created", "customer_subscription_deleted")
    subscription = Subscription.objects.get()
    assert subscription.ended
    assert subscription.status == "canceled"
    assert not page_is_active(club)


def test_a_late_active_never_revives_a_deleted_subscription(client, club):
    deliver(client, club, "customer_subscription_deleted", "customer_subscription_updated")
    deliver(client, club, "invoice_paid", "checkout_session_completed")
    assert not page_is_active(club)
    # Even an "active" created after the deletion: an ended subscription id stays ended.
    newer = load_event("customer_subscription_updated", club.pk)
    newer["id"] = "evt_AfterTheEnd"
    newer["created"] = load_event("customer_subscription_deleted", club.pk)["created"] + 60
    assert post_event(client, newer).status_code == 200
    assert not page_is_active(club)
    assert Subscription.objects.get().status == "canceled"


def test_a_new_subscription_id_makes_the_club_active_again(client, club):
    deliver(client, club, "customer_subscription_created", "customer_subscription_deleted")
    again = load_event("customer_subscription_created", club.pk)
    again["id"] = "evt_1V0SubscribedAgain"
    again["created"] = again["created"] + 400 * 86400
    again["data"]["object"]["id"] = "sub_1V0SecondSubscription"
    assert post_event(client, again).status_code == 200
    assert page_is_active(club)
    assert Subscription.objects.filter(club=club).count() == 2
    assert Subscription.objects.filter(club=club, ended=True).count() == 1


def test_an_older_status_does_not_overwrite_a_newer_one(client, club):
    deliver(client, club, "invoice_payment_failed", "customer_subscription_created")
    subscription = Subscription.objects.get()
    assert subscription.status == "past_due"
    # The older event still fills in what the newer one did not carry.
    assert subscription.plan == "monthly"


def test_the_same_event_twice_is_processed_once(client, club, monkeypatch):
    calls = []
    original = webhooks.observe
    monkeypatch.setattr(webhooks, "observe", lambda *a: calls.append(a) or original(*a))
    event = load_event("customer_subscription_created", club.pk)
    assert post_event(client, event).status_code == 200
    assert post_event(client, event).status_code == 200
    assert len(calls) == 1
    assert ProcessedStripeEvent.objects.count() == 1


def test_a_redelivered_old_event_does_not_undo_newer_ones(client, club):
    deliver(client, club, "customer_subscription_created", "customer_subscription_deleted")
    deliver(client, club, "customer_subscription_created")
    assert not page_is_active(club)


def test_a_failure_inside_a_handler_stores_nothing_and_redelivery_succeeds(
    client, club, monkeypatch
):
    def broken(*args):
        raise RuntimeError("database went away")

    event = load_event("customer_subscription_created", club.pk)
    with monkeypatch.context() as patch:
        patch.setattr(webhooks, "observe", broken)
        response = post_event(client, event)
    assert response.status_code == 500
    assert not ProcessedStripeEvent.objects.exists()
    assert not Subscription.objects.exists()

    assert post_event(client, event).status_code == 200
    assert ProcessedStripeEvent.objects.get().event_id == event["id"]
    assert page_is_active(club)


def test_a_failure_after_the_row_was_written_rolls_it_back(client, club, monkeypatch):
    deliver(client, club, "customer_subscription_created")

    original_save = Subscription.save

    def save_then_fail(self, *args, **kwargs):
        original_save(self, *args, **kwargs)
        raise RuntimeError("disk full")

    monkeypatch.setattr(Subscription, "save", save_then_fail)
    assert (
        post_event(client, load_event("customer_subscription_deleted", club.pk)).status_code == 500
    )
    monkeypatch.undo()
    assert not Subscription.objects.get().ended
    assert ProcessedStripeEvent.objects.count() == 1


@pytest.mark.parametrize(
    "name", ["customer_subscription_created", "invoice_paid", "customer_subscription_deleted"]
)
def test_an_event_for_a_price_that_is_not_ours_is_ignored(client, club, name):
    payload = json.dumps(load_event(name, club.pk))
    for ours in ("price_1SkMonthlyLzR2Vb8eYtA299", "price_1SkYearlyLzR2Vb8eYtA2499"):
        payload = payload.replace(ours, "price_1SomeOtherProduct")
    assert post_payload(client, payload, sign(payload)).status_code == 200
    assert not Subscription.objects.exists()
    assert not page_is_active(club)


def test_an_event_for_no_known_club_is_ignored(client, club):
    event = load_event("customer_subscription_created", club.pk + 1000)
    assert post_event(client, event).status_code == 200
    assert not Subscription.objects.exists()


def test_a_subscription_without_metadata_is_found_by_its_customer(client, club):
    deliver(client, club, "checkout_session_completed")
    event = load_event("customer_subscription_updated", club.pk)
    event["data"]["object"]["metadata"] = {}
    assert post_event(client, event).status_code == 200
    assert Subscription.objects.get().plan == "yearly"


def test_metadata_cannot_move_a_known_subscription_to_another_club(client, club):
    deliver(client, club, "customer_subscription_created")
    other = make_club(slug="bishops")
    event = load_event("customer_subscription_updated", other.pk)
    assert post_event(client, event).status_code == 200
    assert Subscription.objects.get().club == club
    assert not page_is_active(other)


def test_event_types_we_do_not_handle_are_acknowledged(client, club):
    event = load_event("invoice_paid", club.pk)
    event["id"], event["type"] = "evt_1Finalized", "invoice.finalized"
    assert post_event(client, event).status_code == 200
    assert not Subscription.objects.exists()


def test_a_one_off_payment_checkout_is_ignored(client, club):
    event = load_event("checkout_session_completed", club.pk)
    event["data"]["object"].update(mode="payment", subscription=None)
    assert post_event(client, event).status_code == 200
    assert not Subscription.objects.exists()
