"""The directors' API token screens (directors/token_views.py)."""

from django.urls import URLPattern, path

from directors import token_views as views

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/tokens/", views.token_list, name="token_list"),
    path(
        "manage/<slug:slug>/tokens/<int:token_id>/revoke/",
        views.token_revoke,
        name="token_revoke",
    ),
]
