"""The real gateway sends Stripe what Checkout and the portal need; the network is patched out."""

import stripe

from billing.gateway import CheckoutRequest, StripeGateway


class Recorded:
    def __init__(self, url):
        self.url = url
        self.calls = []

    def __call__(self, **params):
        self.calls.append(params)
        return stripe.StripeObject.construct_from({"id": "cs_test_1", "url": self.url}, "sk")


def request(**fields):
    values = {
        "club_id": 7,
        "plan": "yearly",
        "price_id": "price_1Yearly",
        "success_url": "https://clubpages.example/manage/rooks/billing/?checkout=done",
        "cancel_url": "https://clubpages.example/manage/rooks/billing/",
        "customer_id": "",
        "customer_email": "owner@example.org",
        "idempotency_key": "checkout-7-yearly-abc",
        **fields,
    }
    return CheckoutRequest(**values)


def test_checkout_is_a_subscription_tagged_with_the_club_and_an_idempotency_key(monkeypatch):
    create = Recorded("https://checkout.stripe.com/c/pay/cs_test_1")
    monkeypatch.setattr(stripe.checkout.Session, "create", create)
    url = StripeGateway("sk_test_1").create_checkout_session(request())
    assert url == "https://checkout.stripe.com/c/pay/cs_test_1"
    (params,) = create.calls
    assert params == {
        "api_key": "sk_test_1",
        "idempotency_key": "checkout-7-yearly-abc",
        "mode": "subscription",
        "line_items": [{"price": "price_1Yearly", "quantity": 1}],
        "client_reference_id": "7",
        "metadata": {"club_id": "7", "plan": "yearly"},
        "subscription_data": {"metadata": {"club_id": "7", "plan": "yearly"}},
        "success_url": "https://clubpages.example/manage/rooks/billing/?checkout=done",
        "cancel_url": "https://clubpages.example/manage/rooks/billing/",
        "customer_email": "owner@example.org",
    }


def test_checkout_reuses_a_known_customer(monkeypatch):
    create = Recorded("https://checkout.stripe.com/c/pay/cs_test_2")
    monkeypatch.setattr(stripe.checkout.Session, "create", create)
    StripeGateway("sk_test_1").create_checkout_session(
        request(customer_id="cus_1", customer_email="")
    )
    (params,) = create.calls
    assert params["customer"] == "cus_1"
    assert "customer_email" not in params


def test_the_portal_returns_to_the_billing_page(monkeypatch):
    create = Recorded("https://billing.stripe.com/p/session/test_1")
    monkeypatch.setattr(stripe.billing_portal.Session, "create", create)
    url = StripeGateway("sk_test_1").create_portal_session("cus_1", "https://x/billing/")
    assert url == "https://billing.stripe.com/p/session/test_1"
    assert create.calls == [
        {"api_key": "sk_test_1", "customer": "cus_1", "return_url": "https://x/billing/"}
    ]
