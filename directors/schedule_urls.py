"""The directors' schedule screens (directors/schedule_views.py)."""

from django.urls import URLPattern, path

from directors import schedule_views as views

_ENTRY = "manage/<slug:slug>/schedule/<int:schedule_id>/"

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/schedule/", views.schedule_list, name="schedule_list"),
    path("manage/<slug:slug>/schedule/new/", views.schedule_new, name="schedule_new"),
    path(_ENTRY, views.schedule_edit, name="schedule_edit"),
    path(f"{_ENTRY}delete/", views.schedule_delete, name="schedule_delete"),
    path(f"{_ENTRY}<str:day>/cancel/", views.schedule_cancel, name="schedule_cancel"),
    path(f"{_ENTRY}<str:day>/reinstate/", views.schedule_reinstate, name="schedule_reinstate"),
    path(f"{_ENTRY}<str:day>/draft/", views.schedule_start_draft, name="schedule_start_draft"),
]
