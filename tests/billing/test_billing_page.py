"""The owner's billing page: status, renewal, subscribe and portal; 404 for anyone else."""

import datetime as dt

import pytest
from django.urls import reverse

from billing.checkout import idempotency_key
from billing.gateway import CheckoutRequest
from billing.models import Subscription
from tests.billing.stripe_events import CUSTOMER_ID, PRICE_MONTHLY, PRICE_YEARLY

pytestmark = pytest.mark.django_db


def page(club):
    return reverse("billing:page", args=[club.slug])


def subscribe(client, club, plan="monthly"):
    return client.post(reverse("billing:subscribe", args=[club.slug]), {"plan": plan})


def portal(client, club):
    return client.post(reverse("billing:portal", args=[club.slug]))


def make_subscription(club, **fields):
    values = {
        "stripe_subscription_id": "sub_1Test",
        "stripe_customer_id": CUSTOMER_ID,
        "plan": "yearly",
        "status": "active",
        "current_period_end": dt.datetime(2027, 1, 6, 10, tzinfo=dt.UTC),
        **fields,
    }
    return Subscription.objects.create(club=club, **values)


@pytest.mark.usefixtures("billing_on")
@pytest.mark.parametrize("persona", ["anonymous", "director", "outsider"])
def test_only_the_owner_reaches_the_billing_page_and_its_buttons(
    client, club, director, outsider, fake_gateway, persona
):
    make_subscription(club, status="canceled", ended=True)
    if persona == "director":
        client.force_login(director)
    elif persona == "outsider":
        client.force_login(outsider)
    assert client.get(page(club)).status_code == 404
    assert subscribe(client, club).status_code == 404
    assert portal(client, club).status_code == 404
    assert fake_gateway.checkouts == fake_gateway.portals == []


@pytest.mark.usefixtures("billing_on")
def test_an_unsubscribed_owner_sees_an_inactive_page_and_two_plans(client, club, owner):
    client.force_login(owner)
    response = client.get(page(club))
    assert response.status_code == 200
    html = response.content.decode()
    assert "The club page is inactive" in html
    assert 'value="monthly"' in html
    assert 'value="yearly"' in html
    assert "$2.99 a month" in html
    assert "$24.99 a year" in html
    assert reverse("billing:portal", args=[club.slug]) not in html


@pytest.mark.usefixtures("billing_on")
def test_a_subscribed_owner_sees_plan_status_renewal_and_the_portal(client, club, owner):
    make_subscription(club)
    client.force_login(owner)
    html = client.get(page(club)).content.decode()
    assert "The club page is active." in html
    assert "Yearly, $24.99 a year" in html
    assert "Active" in html
    assert "Next renewal" in html
    assert "6 Jan 2027" in html
    assert reverse("billing:portal", args=[club.slug]) in html
    assert 'value="monthly"' not in html


@pytest.mark.usefixtures("billing_on")
def test_a_subscription_set_to_cancel_shows_when_it_ends(client, club, owner):
    make_subscription(club, cancel_at_period_end=True)
    client.force_login(owner)
    html = client.get(page(club)).content.decode()
    assert "Ends on" in html
    assert "Next renewal" not in html


@pytest.mark.usefixtures("billing_on")
def test_after_a_failed_payment_the_owner_can_subscribe_or_fix_the_card(client, club, owner):
    make_subscription(club, status="past_due")
    client.force_login(owner)
    html = client.get(page(club)).content.decode()
    assert "Payment failed; Stripe is retrying" in html
    assert "Update the card in the portal" in html
    assert 'value="monthly"' in html
    assert reverse("billing:portal", args=[club.slug]) in html


def test_with_billing_off_the_page_says_so_and_nothing_reaches_stripe(
    client, club, owner, billing_off, fake_gateway
):
    client.force_login(owner)
    html = client.get(page(club)).content.decode()
    assert "Billing is off" in html
    assert 'value="monthly"' not in html
    assert subscribe(client, club).status_code == 302
    assert portal(client, club).status_code == 302
    assert fake_gateway.checkouts == fake_gateway.portals == []


@pytest.mark.usefixtures("billing_on")
@pytest.mark.parametrize(("plan", "price"), [("monthly", PRICE_MONTHLY), ("yearly", PRICE_YEARLY)])
def test_subscribing_sends_the_owner_to_checkout_for_the_chosen_price(
    client, club, owner, fake_gateway, plan, price
):
    client.force_login(owner)
    response = subscribe(client, club, plan)
    assert response.status_code == 302
    assert response["Location"].startswith("https://checkout.stripe.com/")
    (sent,) = fake_gateway.checkouts
    assert (sent.club_id, sent.plan, sent.price_id) == (club.pk, plan, price)
    assert sent.customer_id == ""
    assert sent.customer_email == "owner@example.org"
    assert sent.success_url == "https://clubpages.example/manage/rooks/billing/?checkout=done"
    assert sent.cancel_url == "https://clubpages.example/manage/rooks/billing/"
    assert sent.idempotency_key.startswith(f"checkout-{club.pk}-{plan}-")


@pytest.mark.usefixtures("billing_on")
def test_a_second_click_replays_the_same_checkout(client, club, owner, fake_gateway):
    client.force_login(owner)
    first, second = subscribe(client, club), subscribe(client, club)
    assert first["Location"] == second["Location"]
    keys = [sent.idempotency_key for sent in fake_gateway.checkouts]
    assert keys[0] == keys[1]
    subscribe(client, club, "yearly")
    assert fake_gateway.checkouts[2].idempotency_key != keys[0]


@pytest.mark.usefixtures("billing_on")
def test_after_a_subscription_ends_a_new_checkout_gets_a_new_key(client, club, owner, fake_gateway):
    client.force_login(owner)
    subscribe(client, club)
    make_subscription(club, status="canceled", ended=True)
    subscribe(client, club)
    first, second = fake_gateway.checkouts
    assert first.idempotency_key != second.idempotency_key
    # The club's Stripe customer is used again rather than creating another.
    assert (second.customer_id, second.customer_email) == (CUSTOMER_ID, "")


def test_the_idempotency_key_is_deterministic():
    request = CheckoutRequest(7, "monthly", "price_1", "https://s", "https://c", "", "o@x", "")
    day = dt.date(2026, 3, 1)
    assert idempotency_key(request, "none", day) == idempotency_key(request, "none", day)
    assert idempotency_key(request, "none", day) != idempotency_key(
        request, "sub_1:canceled:1", day
    )
    assert idempotency_key(request, "none", day) != idempotency_key(
        request, "none", day + dt.timedelta(days=1)
    )
    assert len(idempotency_key(request, "none", day)) <= 255


@pytest.mark.usefixtures("billing_on")
def test_an_active_club_is_not_sent_to_checkout_again(client, club, owner, fake_gateway):
    make_subscription(club)
    client.force_login(owner)
    response = subscribe(client, club)
    assert response.status_code == 302
    assert response["Location"] == page(club)
    assert fake_gateway.checkouts == []


@pytest.mark.usefixtures("billing_on")
def test_an_unknown_plan_is_refused(client, club, owner, fake_gateway):
    client.force_login(owner)
    assert subscribe(client, club, "lifetime").status_code == 400
    assert fake_gateway.checkouts == []


@pytest.mark.usefixtures("billing_on")
def test_when_stripe_is_unreachable_the_owner_gets_a_plain_message(
    client, club, owner, fake_gateway
):
    fake_gateway.down = True
    make_subscription(club, status="past_due")
    client.force_login(owner)
    for response in (subscribe(client, club), portal(client, club)):
        assert response.status_code == 302
        assert response["Location"] == page(club)
    html = client.get(page(club)).content.decode()
    assert "Stripe could not be reached" in html
    assert "connection refused" not in html


@pytest.mark.usefixtures("billing_on")
def test_the_portal_opens_for_the_clubs_customer(client, club, owner, fake_gateway):
    make_subscription(club)
    client.force_login(owner)
    response = portal(client, club)
    assert response.status_code == 302
    assert response["Location"] == f"https://billing.stripe.com/p/session/test_{CUSTOMER_ID}"
    assert fake_gateway.portals == [
        (CUSTOMER_ID, "https://clubpages.example/manage/rooks/billing/")
    ]


@pytest.mark.usefixtures("billing_on")
def test_without_a_customer_there_is_no_portal(client, club, owner, fake_gateway):
    client.force_login(owner)
    response = portal(client, club)
    assert response["Location"] == page(club)
    assert fake_gateway.portals == []


@pytest.mark.usefixtures("billing_on")
def test_subscribe_and_portal_only_accept_post(client, club, owner):
    client.force_login(owner)
    assert client.get(reverse("billing:subscribe", args=[club.slug])).status_code == 405
    assert client.get(reverse("billing:portal", args=[club.slug])).status_code == 405


@pytest.mark.usefixtures("billing_on")
def test_back_from_checkout_before_the_webhook_the_owner_is_told_to_wait(client, club, owner):
    client.force_login(owner)
    html = client.get(page(club) + "?checkout=done").content.decode()
    assert "Stripe is confirming the payment" in html
