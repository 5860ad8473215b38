"""The owner's billing page, its two buttons, and the Stripe webhook. Thin views only."""

from __future__ import annotations

import logging

import stripe
from django.conf import settings
from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from billing import checkout, webhooks
from billing.plans import Plan
from billing.status import current_subscription, page_is_active
from clubs.access import AuthedRequest, club_for_owner

logger = logging.getLogger(__name__)

STRIPE_UNREACHABLE = gettext_lazy("Stripe could not be reached. Please try again in a moment.")


def billing_page(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_owner(request, slug)
    return render(
        request,
        "billing/billing.html",
        {
            "club": club,
            "billing_enabled": settings.BILLING_ENABLED,
            "page_is_active": page_is_active(club),
            "subscription": current_subscription(club),
            "plans": Plan,
            "back_from_checkout": request.GET.get("checkout") == "done",
        },
    )


@require_POST
def subscribe(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_owner(request, slug)
    if not settings.BILLING_ENABLED:
        return redirect("billing:page", slug=club.slug)
    try:
        plan = Plan(request.POST.get("plan", ""))
    except ValueError:
        return HttpResponseBadRequest(_("Choose the monthly or the yearly plan."))
    if page_is_active(club):
        messages.info(request, _("The club is subscribed already; change the plan in the portal."))
        return redirect("billing:page", slug=club.slug)
    try:
        url = checkout.checkout_url(club, plan, request.user.email)
    except stripe.StripeError:
        logger.exception("Stripe Checkout could not start for club %s", club.pk)
        messages.error(request, STRIPE_UNREACHABLE)
        return redirect("billing:page", slug=club.slug)
    return redirect(url)


@require_POST
def portal(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_owner(request, slug)
    if not settings.BILLING_ENABLED:
        return redirect("billing:page", slug=club.slug)
    try:
        url = checkout.portal_url(club)
    except stripe.StripeError:
        logger.exception("The Stripe portal could not open for club %s", club.pk)
        messages.error(request, STRIPE_UNREACHABLE)
        return redirect("billing:page", slug=club.slug)
    if url is None:
        messages.info(request, _("There is no subscription to manage yet."))
        return redirect("billing:page", slug=club.slug)
    return redirect(url)


@csrf_exempt
@require_POST
def stripe_webhook(request: HttpRequest) -> HttpResponse:
    if not settings.BILLING_ENABLED:
        raise Http404("Billing is off.")
    try:
        event = webhooks.verify(request.body, request.headers.get("Stripe-Signature"))
    except webhooks.BadEvent as error:
        logger.warning("Refused a Stripe webhook: %s", error)
        return HttpResponseBadRequest()
    try:
        webhooks.process(event)
    except Exception:
        # Nothing was stored; Stripe delivers the event again later.
        logger.exception("Stripe event %s (%s) failed", event.id, event.type)
        return HttpResponse(status=500)
    return HttpResponse(status=200)
