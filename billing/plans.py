"""The two plans and their Stripe Price ids, which come from the environment."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Plan(models.TextChoices):
    MONTHLY = "monthly", _("Monthly, $2.99 a month")
    YEARLY = "yearly", _("Yearly, $24.99 a year")


def price_for_plan(plan: Plan) -> str:
    if plan == Plan.MONTHLY:
        return settings.STRIPE_PRICE_MONTHLY or ""
    return settings.STRIPE_PRICE_YEARLY or ""


def plan_for_price(price_id: str) -> Plan | None:
    """The plan a Stripe Price id stands for; None for a price that is not ours."""
    for plan in Plan:
        if price_id and price_id == price_for_plan(plan):
            return plan
    return None
