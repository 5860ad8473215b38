"""A club's Stripe subscriptions and the webhook events already processed."""

from __future__ import annotations

import datetime as dt
from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _

from billing.plans import Plan
from billing.state import ACTIVE_STATUSES, SubscriptionState

STATUS_LABELS = {
    "active": _("Active"),
    "trialing": _("Trial"),
    "past_due": _("Payment failed; Stripe is retrying"),
    "unpaid": _("Unpaid"),
    "incomplete": _("Waiting for the first payment"),
    "incomplete_expired": _("First payment failed"),
    "canceled": _("Canceled"),
    "paused": _("Paused"),
}


class SubscriptionQuerySet(models.QuerySet["Subscription"]):
    def active(self) -> SubscriptionQuerySet:
        return self.filter(ended=False, status__in=ACTIVE_STATUSES)


class Subscription(models.Model):
    """One Stripe subscription of a club, as the webhook events last described it.

    A club that cancels and subscribes again has a second row: an ended
    subscription id never becomes active again.
    """

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="subscriptions")
    stripe_subscription_id = models.CharField(max_length=255, unique=True)
    stripe_customer_id = models.CharField(max_length=255, blank=True, db_index=True)
    plan = models.CharField(max_length=10, choices=Plan.choices, blank=True)
    # Stripe's own status: active, trialing, past_due, unpaid, incomplete, canceled…
    status = models.CharField(max_length=32, blank=True)
    current_period_end = models.DateTimeField(null=True, blank=True)
    cancel_at_period_end = models.BooleanField(default=False)
    ended = models.BooleanField(default=False)
    # The `created` time (Unix seconds) of the newest event applied to status, and to plan/period.
    last_event_created = models.PositiveBigIntegerField(default=0)
    details_event_created = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = SubscriptionQuerySet.as_manager()

    class Meta:
        ordering: ClassVar[list[str]] = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.stripe_subscription_id} ({self.status or '?'}) of {self.club}"

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS.get(self.status, self.status))

    @property
    def is_active(self) -> bool:
        return self.to_state().is_active

    def to_state(self) -> SubscriptionState:
        return SubscriptionState(
            status=self.status,
            ended=self.ended,
            status_as_of=self.last_event_created,
            plan=self.plan,
            current_period_end=(
                int(self.current_period_end.timestamp()) if self.current_period_end else None
            ),
            cancel_at_period_end=self.cancel_at_period_end,
            details_as_of=self.details_event_created,
        )

    def set_state(self, state: SubscriptionState) -> None:
        self.status = state.status
        self.ended = state.ended
        self.last_event_created = state.status_as_of
        self.plan = state.plan
        self.current_period_end = (
            dt.datetime.fromtimestamp(state.current_period_end, tz=dt.UTC)
            if state.current_period_end is not None
            else None
        )
        self.cancel_at_period_end = state.cancel_at_period_end
        self.details_event_created = state.details_as_of


class ProcessedStripeEvent(models.Model):
    """A webhook event applied once; inserted in the same transaction as its changes."""

    event_id = models.CharField(max_length=255, unique=True)
    type = models.CharField(max_length=100)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("processed Stripe event")

    def __str__(self) -> str:
        return f"{self.event_id} ({self.type})"
