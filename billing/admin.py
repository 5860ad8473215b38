from __future__ import annotations

from django.contrib import admin

from billing.models import ProcessedStripeEvent, Subscription


@admin.register(Subscription)
class SubscriptionAdmin(admin.ModelAdmin):
    list_display = ("club", "plan", "status", "ended", "current_period_end", "updated_at")
    list_filter = ("status", "plan", "ended")
    search_fields = ("club__name", "club__slug", "stripe_subscription_id", "stripe_customer_id")
    raw_id_fields = ("club",)
    readonly_fields = ("last_event_created", "details_event_created", "created_at", "updated_at")


@admin.register(ProcessedStripeEvent)
class ProcessedStripeEventAdmin(admin.ModelAdmin):
    list_display = ("event_id", "type", "received_at")
    search_fields = ("event_id",)
    list_filter = ("type",)
