"""Sending an owner to Stripe Checkout or to the customer portal."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import replace

from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from billing import gateway
from billing.models import Subscription
from billing.plans import Plan, price_for_plan
from clubs.models import Club


def idempotency_key(request: gateway.CheckoutRequest, state: str, day: dt.date) -> str:
    """The same club, plan and subscription state on the same day give the same key.

    A second click while Checkout is open replays the first session instead of
    starting another. The day is part of the key because a Checkout Session
    expires after 24 hours while Stripe may keep a key a little longer. The
    other request fields are hashed in so a replay never meets different
    parameters (which Stripe refuses).
    """
    material = "|".join(
        [
            str(request.club_id),
            request.plan,
            request.price_id,
            request.success_url,
            request.cancel_url,
            request.customer_id,
            request.customer_email,
            state,
            day.isoformat(),
        ]
    )
    digest = hashlib.sha256(material.encode()).hexdigest()[:40]
    return f"checkout-{request.club_id}-{request.plan}-{digest}"


def subscription_state(club: Club) -> str:
    """A fingerprint of the club's newest subscription; changes once a webhook moves it."""
    latest = Subscription.objects.filter(club=club).first()
    if latest is None:
        return "none"
    return f"{latest.stripe_subscription_id}:{latest.status}:{int(latest.ended)}"


def customer_id(club: Club) -> str:
    latest = Subscription.objects.filter(club=club).exclude(stripe_customer_id="").first()
    return latest.stripe_customer_id if latest else ""


def billing_url(club: Club) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("billing:page", args=[club.slug])


def checkout_url(club: Club, plan: Plan, email: str) -> str:
    """Create (or replay) the Checkout Session for this club and plan; answer its URL."""
    known_customer = customer_id(club)
    request = gateway.CheckoutRequest(
        club_id=club.pk,
        plan=plan.value,
        price_id=price_for_plan(plan),
        success_url=billing_url(club) + "?checkout=done",
        cancel_url=billing_url(club),
        customer_id=known_customer,
        customer_email="" if known_customer else email,
        idempotency_key="",
    )
    key = idempotency_key(request, subscription_state(club), timezone.now().date())
    return gateway.get_gateway().create_checkout_session(replace(request, idempotency_key=key))


def portal_url(club: Club) -> str | None:
    """A customer-portal URL, or None when the club has never reached Stripe Checkout's end."""
    known_customer = customer_id(club)
    if not known_customer:
        return None
    return gateway.get_gateway().create_portal_session(known_customer, billing_url(club))
