"""The directors' club-night screens: manage/<slug>/night/..."""

from django.urls import URLPattern, path

from directors.night import app_views, board_views, round_views, section_views, tool_views, views

_NIGHT = "manage/<slug:slug>/night/<int:event_id>/"
_ROUND = f"{_NIGHT}round/<int:round_number>/"

urlpatterns: list[URLPattern] = [
    # The club night's service worker: no club data, registered for the whole site.
    path("manage/sw.js", app_views.night_service_worker, name="night_service_worker"),
    path(
        "manage/<slug:slug>/night/app.webmanifest", app_views.night_manifest, name="night_manifest"
    ),
    path("manage/<slug:slug>/night/new/", views.night_start, name="night_start"),
    path(_NIGHT, views.night_evening, name="night_evening"),
    path(f"{_NIGHT}seed/", views.night_seed, name="night_seed"),
    path(f"{_NIGHT}withdraw/", views.night_withdraw, name="night_withdraw"),
    path(f"{_NIGHT}bye/", views.night_bye, name="night_bye"),
    path(f"{_NIGHT}byes/", views.night_byes, name="night_byes"),
    path(f"{_NIGHT}add/", views.night_add, name="night_add"),
    path(f"{_NIGHT}rules/", section_views.night_rules, name="night_rules"),
    path(f"{_NIGHT}move/", section_views.night_move, name="night_move"),
    path(f"{_NIGHT}pair/", views.night_pair, name="night_pair"),
    path(f"{_NIGHT}unpair/", views.night_unpair, name="night_unpair"),
    path(f"{_NIGHT}publish/", views.night_publish, name="night_publish"),
    path(f"{_NIGHT}standings/", round_views.night_standings, name="night_standings"),
    path(f"{_NIGHT}never-pair/", tool_views.night_never_pair, name="night_never_pair"),
    path(f"{_NIGHT}change/", tool_views.night_hand_change, name="night_hand_change"),
    path(f"{_ROUND}print/", tool_views.night_print, name="night_print"),
    path(
        "manage/<slug:slug>/players/never-pair/",
        tool_views.roster_never_pair,
        name="roster_never_pair",
    ),
    path(_ROUND, round_views.night_results, name="night_results"),
    path(f"{_ROUND}sheet/", round_views.night_sheet, name="night_sheet"),
    path(f"{_ROUND}sections/", section_views.night_sections_sheet, name="night_sections_sheet"),
    path(
        f"{_ROUND}board/<int:board_number>/",
        round_views.night_result,
        name="night_result",
    ),
    path(f"{_ROUND}reports/", board_views.night_reports, name="night_reports"),
    path(f"{_NIGHT}board-reports/", board_views.night_board_switch, name="night_board_switch"),
    # The players' page behind a result slip's code: short, to type by hand from the slip.
    path("b/<str:board_code>/", board_views.board_report, name="board_report"),
]
