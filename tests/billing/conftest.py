from __future__ import annotations

import pytest
import stripe

from billing import gateway
from tests.billing.stripe_events import PRICE_MONTHLY, PRICE_YEARLY, WEBHOOK_SECRET


@pytest.fixture
def billing_on(settings):
    settings.STRIPE_SECRET_KEY = "sk_test_club_pages"
    settings.STRIPE_PUBLISHABLE_KEY = "pk_test_club_pages"
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_PRICE_MONTHLY = PRICE_MONTHLY
    settings.STRIPE_PRICE_YEARLY = PRICE_YEARLY
    settings.BILLING_ENABLED = True
    settings.SITE_URL = "https://clubpages.example"


@pytest.fixture
def billing_off(settings):
    settings.STRIPE_SECRET_KEY = None
    settings.STRIPE_WEBHOOK_SECRET = None
    settings.STRIPE_PRICE_MONTHLY = None
    settings.STRIPE_PRICE_YEARLY = None
    settings.BILLING_ENABLED = False


class FakeGateway:
    """Stands in for StripeGateway: records what would have been sent to Stripe."""

    def __init__(self) -> None:
        self.checkouts: list[gateway.CheckoutRequest] = []
        self.portals: list[tuple[str, str]] = []
        self.down = False

    def create_checkout_session(self, request: gateway.CheckoutRequest) -> str:
        if self.down:
            raise stripe.APIConnectionError("Network error: connection refused")
        self.checkouts.append(request)
        return f"https://checkout.stripe.com/c/pay/cs_test_{request.idempotency_key[-12:]}"

    def create_portal_session(self, customer_id: str, return_url: str) -> str:
        if self.down:
            raise stripe.APIConnectionError("Network error: connection refused")
        self.portals.append((customer_id, return_url))
        return f"https://billing.stripe.com/p/session/test_{customer_id}"


@pytest.fixture
def fake_gateway(monkeypatch):
    fake = FakeGateway()
    monkeypatch.setattr(gateway, "get_gateway", lambda: fake)
    return fake
