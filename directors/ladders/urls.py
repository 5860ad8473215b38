"""The directors' ladders screen (the per-ladder rating settings are routed in config/urls.py,
beside the first ladder's old address)."""

from django.urls import URLPattern, path

from directors.ladders import views

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/ladders/", views.ladders, name="club_ladders"),
    path("manage/<slug:slug>/ladders/add/", views.ladder_add, name="ladder_add"),
    path("manage/<slug:slug>/ladders/move/", views.ladder_move, name="ladder_move"),
    path(
        "manage/<slug:slug>/ladders/<slug:ladder>/rename/",
        views.ladder_rename,
        name="ladder_rename",
    ),
]
