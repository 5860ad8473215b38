"""The directors' event screens: manage/<slug>/events/..."""

from django.urls import URLPattern, path

from directors.events import results_views, views

_EVENT = "manage/<slug:slug>/events/<int:event_id>/"

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/events/", views.event_list, name="event_list"),
    path("manage/<slug:slug>/events/new/", views.event_create, name="event_create"),
    path(_EVENT, views.event_detail, name="event_detail"),
    path(f"{_EVENT}edit/", views.event_edit, name="event_edit"),
    path(f"{_EVENT}results/", results_views.event_results, name="event_results"),
    path(f"{_EVENT}results/upload/", results_views.event_upload, name="event_upload"),
    path(
        f"{_EVENT}results/upload/<int:upload_id>/",
        results_views.event_upload_progress,
        name="event_upload_progress",
    ),
    path(f"{_EVENT}results/paste/", results_views.event_paste, name="event_paste"),
    path(f"{_EVENT}results/grid/", results_views.event_grid, name="event_grid"),
    # One confirm step for every change to a published event; the old address of the
    # results correction's is kept for pages already open.
    path(f"{_EVENT}confirm/", views.event_change_confirm, name="event_confirm"),
    path(
        f"{_EVENT}results/correction/",
        views.event_change_confirm,
        name="event_correction",
    ),
    path(f"{_EVENT}names/", views.event_names, name="event_names"),
    path(f"{_EVENT}names/bulk/", views.event_names_bulk, name="event_names_bulk"),
    path(f"{_EVENT}names/add/", views.event_entry_add, name="event_entry_add"),
    path(
        f"{_EVENT}names/<int:entry_id>/remove/",
        views.event_entry_remove,
        name="event_entry_remove",
    ),
    path(f"{_EVENT}export.trf", views.event_export_trf, name="event_export_trf"),
    path(f"{_EVENT}export.csv", views.event_export_csv, name="event_export_csv"),
    path(f"{_EVENT}preview/", views.event_preview, name="event_preview"),
    path(f"{_EVENT}publish/", views.event_publish, name="event_publish"),
    path(f"{_EVENT}unpublish/", views.event_unpublish, name="event_unpublish"),
    path(f"{_EVENT}delete/", views.event_delete, name="event_delete"),
    path(f"{_EVENT}restore/", views.event_restore, name="event_restore"),
    path(f"{_EVENT}share/rotate/", views.event_share_rotate, name="event_share_rotate"),
]
