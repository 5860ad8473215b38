from django.urls import path

from billing import views

app_name = "billing"

urlpatterns = [
    path("manage/<slug:slug>/billing/", views.billing_page, name="page"),
    path("manage/<slug:slug>/billing/subscribe/", views.subscribe, name="subscribe"),
    path("manage/<slug:slug>/billing/portal/", views.portal, name="portal"),
    path("stripe/webhook/", views.stripe_webhook, name="webhook"),
]
