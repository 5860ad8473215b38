"""Every call this project makes to Stripe goes through here; tests replace get_gateway()."""

from __future__ import annotations

from dataclasses import dataclass

import stripe
from django.conf import settings
from stripe.params.checkout import SessionCreateParams


@dataclass(frozen=True)
class CheckoutRequest:
    club_id: int
    plan: str
    price_id: str
    success_url: str
    cancel_url: str
    # An existing Stripe customer of the club, or "" to let Checkout create one for customer_email.
    customer_id: str
    customer_email: str
    idempotency_key: str


class StripeGateway:
    def __init__(self, api_key: str) -> None:
        self.api_key = api_key

    def create_checkout_session(self, request: CheckoutRequest) -> str:
        """Start a subscription Checkout and answer the URL to send the owner to."""
        metadata = {"club_id": str(request.club_id), "plan": request.plan}
        params: SessionCreateParams = {
            "api_key": self.api_key,
            "idempotency_key": request.idempotency_key,
            "mode": "subscription",
            "line_items": [{"price": request.price_id, "quantity": 1}],
            "client_reference_id": str(request.club_id),
            "metadata": metadata,
            "subscription_data": {"metadata": metadata},
            "success_url": request.success_url,
            "cancel_url": request.cancel_url,
        }
        # Stripe takes either an existing customer or an e-mail for a new one, never both.
        if request.customer_id:
            params["customer"] = request.customer_id
        else:
            params["customer_email"] = request.customer_email
        session = stripe.checkout.Session.create(**params)
        return str(session.url)

    def create_portal_session(self, customer_id: str, return_url: str) -> str:
        """A customer-portal session where the owner changes card or plan, or cancels."""
        session = stripe.billing_portal.Session.create(
            api_key=self.api_key, customer=customer_id, return_url=return_url
        )
        return str(session.url)


def get_gateway() -> StripeGateway:
    return StripeGateway(settings.STRIPE_SECRET_KEY or "")
