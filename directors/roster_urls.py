"""The directors' roster: players, possible duplicates, merges and re-pointed entries."""

from django.urls import URLPattern, path

from directors import roster_edit_views as edits
from directors import roster_import_views as imports
from directors import roster_views as views

urlpatterns: list[URLPattern] = [
    path("manage/<slug:slug>/players/", views.players, name="roster_players"),
    path("manage/<slug:slug>/players/add/", edits.player_add, name="roster_player_add"),
    path("manage/<slug:slug>/players/import/", imports.roster_import, name="roster_import"),
    path(
        "manage/<slug:slug>/players/import/choose/",
        imports.roster_import_choose,
        name="roster_import_choose",
    ),
    path(
        "manage/<slug:slug>/players/import/save/",
        imports.roster_import_save,
        name="roster_import_save",
    ),
    path(
        "manage/<slug:slug>/players/first-last/",
        edits.player_first_last,
        name="roster_first_last",
    ),
    path("manage/<slug:slug>/players/<int:player_id>/", views.player, name="roster_player"),
    path(
        "manage/<slug:slug>/players/<int:player_id>/details/",
        views.player_details,
        name="roster_player_details",
    ),
    path(
        "manage/<slug:slug>/players/<int:player_id>/rename/",
        edits.player_rename,
        name="roster_player_rename",
    ),
    path(
        "manage/<slug:slug>/players/<int:player_id>/release/",
        edits.player_release,
        name="roster_player_release",
    ),
    path(
        "manage/<slug:slug>/players/<int:player_id>/delete/",
        edits.player_delete,
        name="roster_player_delete",
    ),
    path("manage/<slug:slug>/players/duplicates/", views.duplicates, name="roster_duplicates"),
    path(
        "manage/<slug:slug>/players/duplicates/dismiss/",
        views.dismiss,
        name="roster_dismiss",
    ),
    path(
        "manage/<slug:slug>/players/merge/confirm/",
        views.merge_confirm,
        name="roster_merge_confirm",
    ),
    path("manage/<slug:slug>/players/merge/", views.merge, name="roster_merge"),
    path("manage/<slug:slug>/players/merges/", views.merges, name="roster_merges"),
    path(
        "manage/<slug:slug>/players/merges/<int:merge_id>/undo/",
        views.merge_undo,
        name="roster_merge_undo",
    ),
    path(
        "manage/<slug:slug>/players/entries/<int:entry_id>/repoint/",
        views.repoint,
        name="roster_repoint",
    ),
]
