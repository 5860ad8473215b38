"""The directors' Grand Prix series screens (directors/series_views.py)."""

from django.urls import URLPattern, path

from directors import series_views as views

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/series/", views.series_list, name="series_list"),
    path("manage/<slug:slug>/series/new/", views.series_new, name="series_new"),
    path("manage/<slug:slug>/series/<slug:series>/", views.series_edit, name="series_edit"),
    path(
        "manage/<slug:slug>/series/<slug:series>/delete/",
        views.series_delete,
        name="series_delete",
    ),
]
