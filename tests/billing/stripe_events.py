"""Recorded Stripe events, signed the way Stripe signs them, posted to our webhook."""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import time
from functools import cache
from pathlib import Path

from django.urls import reverse

EVENTS_DIR = Path(__file__).parent / "events"
WEBHOOK_SECRET = "whsec_test_club_pages_0123456789"
PRICE_MONTHLY = "price_1SkMonthlyLzR2Vb8eYtA299"
PRICE_YEARLY = "price_1SkYearlyLzR2Vb8eYtA2499"
SUBSCRIPTION_ID = "sub_1SkQ3pLzR2Vb8eYt0cKd9MnA"
CUSTOMER_ID = "cus_TgH5xYp2QwErTy"

# The lifecycle of one subscription, oldest first, as Stripe creates the events.
LIFECYCLE = (
    "customer_subscription_created",
    "checkout_session_completed",
    "invoice_paid",
    "customer_subscription_updated",
    "invoice_payment_failed",
    "customer_subscription_deleted",
)


@cache
def _recorded(name: str) -> dict:
    return json.loads((EVENTS_DIR / f"{name}.json").read_text())


def load_event(name: str, club_id: int) -> dict:
    """A recorded event whose club references point at club_id."""
    event = copy.deepcopy(_recorded(name))
    _point_at_club(event, str(club_id))
    return event


def _point_at_club(value: object, club_id: str) -> None:
    if isinstance(value, dict):
        for key in value:
            if key in ("club_id", "client_reference_id") and value[key] is not None:
                value[key] = club_id
            else:
                _point_at_club(value[key], club_id)
    elif isinstance(value, list):
        for item in value:
            _point_at_club(item, club_id)


def sign(payload: str, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header: t=<time>,v1=<HMAC-SHA256 of "<time>.<payload>">."""
    t = int(time.time()) if timestamp is None else timestamp
    mac = hmac.new(secret.encode(), f"{t}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def post_payload(client, payload: str | bytes, signature: str | None):
    headers = {} if signature is None else {"Stripe-Signature": signature}
    return client.post(
        reverse("billing:webhook"), data=payload, content_type="application/json", headers=headers
    )


def post_event(client, event: dict):
    payload = json.dumps(event)
    return post_payload(client, payload, sign(payload))
