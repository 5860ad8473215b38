"""Stripe webhook events: verified, applied exactly once, correct in any order of arrival."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import stripe
from django.conf import settings
from django.db import IntegrityError, transaction

from billing.models import ProcessedStripeEvent, Subscription
from billing.plans import Plan, plan_for_price
from billing.state import Details, Observation, observe
from clubs.models import Club

logger = logging.getLogger(__name__)


class BadEvent(Exception):
    """The request is not an event signed by Stripe with our secret."""


@dataclass(frozen=True)
class StripeEvent:
    id: str
    type: str
    created: int
    object: dict[str, Any]


def verify(payload: bytes, signature: str | None) -> StripeEvent:
    try:
        event = stripe.Webhook.construct_event(payload, signature, settings.STRIPE_WEBHOOK_SECRET)
    except stripe.SignatureVerificationError as error:
        raise BadEvent("missing, malformed, wrong or stale signature") from error
    except (ValueError, AttributeError) as error:
        # The SDK parses the body once the signature holds: a body that is not UTF-8
        # JSON raises ValueError, JSON that is not an object AttributeError.
        raise BadEvent("the body is not a JSON object") from error
    data = event.to_dict()
    inner = data.get("data")
    obj = inner.get("object") if isinstance(inner, dict) else None
    if not (
        isinstance(data.get("id"), str)
        and isinstance(data.get("type"), str)
        and isinstance(data.get("created"), int)
        and isinstance(obj, dict)
    ):
        raise BadEvent("the body is not a Stripe event")
    return StripeEvent(id=data["id"], type=data["type"], created=data["created"], object=obj)


def process(event: StripeEvent) -> bool:
    """Apply the event unless it was applied before; False for a repeat.

    The event id is inserted in the same transaction as the handler's changes.
    A concurrent delivery of the same event waits on the unique index, then
    finds it taken; a handler that fails rolls the id back with everything else.
    """
    with transaction.atomic():
        try:
            with transaction.atomic():
                ProcessedStripeEvent.objects.create(event_id=event.id, type=event.type)
        except IntegrityError:
            logger.info("Stripe event %s was already processed", event.id)
            return False
        handler = HANDLERS.get(event.type)
        if handler is None:
            logger.info("Stripe event %s: type %s is not handled", event.id, event.type)
        else:
            handler(event)
    return True


def checkout_completed(event: StripeEvent) -> None:
    session = event.object
    subscription_id = _id(session.get("subscription"))
    if session.get("mode") != "subscription" or not subscription_id:
        logger.info("Stripe event %s: not a subscription checkout; ignored", event.id)
        return
    paid = session.get("payment_status") == "paid"
    _record(
        event,
        subscription_id,
        customer_id=_id(session.get("customer")),
        club_id=_club_id(session.get("metadata"), session.get("client_reference_id")),
        seen=Observation(event.created, status="active" if paid else None),
    )


def subscription_changed(event: StripeEvent) -> None:
    subscription = event.object
    plan = _plan(_subscription_prices(subscription))
    if plan is None:
        logger.warning("Stripe event %s: not one of our prices; ignored", event.id)
        return
    status: str | None
    if event.type == "customer.subscription.deleted":
        status = "canceled"
    else:
        status = str(subscription.get("status") or "") or None
    details = Details(
        plan=plan.value,
        current_period_end=_period_end(subscription),
        cancel_at_period_end=bool(subscription.get("cancel_at_period_end")),
    )
    _record(
        event,
        str(subscription["id"]),
        customer_id=_id(subscription.get("customer")),
        club_id=_club_id(subscription.get("metadata")),
        seen=Observation(event.created, status=status, details=details),
    )


def invoice_paid(event: StripeEvent) -> None:
    _invoice(event, "active")


def invoice_payment_failed(event: StripeEvent) -> None:
    # A failed first payment leaves the subscription incomplete; a failed renewal, past due.
    first = event.object.get("billing_reason") == "subscription_create"
    _invoice(event, "incomplete" if first else "past_due")


HANDLERS: dict[str, Callable[[StripeEvent], None]] = {
    "checkout.session.completed": checkout_completed,
    "customer.subscription.created": subscription_changed,
    "customer.subscription.updated": subscription_changed,
    "customer.subscription.deleted": subscription_changed,
    "invoice.paid": invoice_paid,
    "invoice.payment_failed": invoice_payment_failed,
}


def _invoice(event: StripeEvent, status: str) -> None:
    invoice = event.object
    # API versions from 2025 put the subscription under parent.subscription_details.
    details = _dict(_dict(invoice.get("parent")).get("subscription_details")) or _dict(
        invoice.get("subscription_details")
    )
    subscription_id = _id(details.get("subscription")) or _id(invoice.get("subscription"))
    if not subscription_id:
        logger.info("Stripe event %s: invoice without a subscription; ignored", event.id)
        return
    prices = _invoice_prices(invoice)
    if prices and _plan(prices) is None:
        logger.warning("Stripe event %s: not one of our prices; ignored", event.id)
        return
    _record(
        event,
        subscription_id,
        customer_id=_id(invoice.get("customer")),
        club_id=_club_id(details.get("metadata")),
        seen=Observation(event.created, status=status),
    )


def _record(
    event: StripeEvent,
    subscription_id: str,
    *,
    customer_id: str,
    club_id: int | None,
    seen: Observation,
) -> None:
    rows = Subscription.objects.select_for_update()
    row = rows.filter(stripe_subscription_id=subscription_id).first()
    if row is None:
        club = _find_club(club_id, customer_id)
        if club is None:
            logger.warning(
                "Stripe event %s: subscription %s belongs to no club; ignored",
                event.id,
                subscription_id,
            )
            return
        created, _ = Subscription.objects.get_or_create(
            stripe_subscription_id=subscription_id, defaults={"club": club}
        )
        row = rows.get(pk=created.pk)
    if customer_id and not row.stripe_customer_id:
        row.stripe_customer_id = customer_id
    row.set_state(observe(row.to_state(), seen))
    row.save()


def _find_club(club_id: int | None, customer_id: str) -> Club | None:
    if club_id is not None:
        club = Club.objects.filter(pk=club_id).first()
        if club is not None:
            return club
    if customer_id:
        known = Subscription.objects.filter(stripe_customer_id=customer_id).first()
        if known is not None:
            return known.club
    return None


def _club_id(metadata: Any, reference: Any = None) -> int | None:
    for value in (_dict(metadata).get("club_id"), reference):
        if value is None:
            continue
        try:
            return int(value)
        except (TypeError, ValueError):
            continue
    return None


def _plan(prices: Iterable[str]) -> Plan | None:
    for price in prices:
        plan = plan_for_price(price)
        if plan is not None:
            return plan
    return None


def _subscription_prices(subscription: Mapping[str, Any]) -> list[str]:
    items = _dict(subscription.get("items")).get("data") or []
    return [_id(_dict(item).get("price")) for item in items if _id(_dict(item).get("price"))]


def _invoice_prices(invoice: Mapping[str, Any]) -> list[str]:
    prices = []
    for line in _dict(invoice.get("lines")).get("data") or []:
        line = _dict(line)
        price_details = _dict(_dict(line.get("pricing")).get("price_details"))
        price = _id(price_details.get("price")) or _id(line.get("price"))
        if price:
            prices.append(price)
    return prices


def _period_end(subscription: Mapping[str, Any]) -> int | None:
    # API versions from 2025 keep the period on each item rather than the subscription.
    ends = [subscription.get("current_period_end")] + [
        _dict(item).get("current_period_end")
        for item in _dict(subscription.get("items")).get("data") or []
    ]
    known = [end for end in ends if isinstance(end, int)]
    return max(known) if known else None


def _id(value: Any) -> str:
    """An id from a field Stripe sends either as an id or as the expanded object."""
    if isinstance(value, dict):
        value = value.get("id")
    return value if isinstance(value, str) else ""


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}
