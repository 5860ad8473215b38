"""Club pages, each at c/<slug>/… (public clubs, directors) and c/<slug>/s/<secret>/… (unlisted),
the public directory, robots.txt and the sitemap. The directors' page settings are the club's
(directors/settings_views.py), routed by config/urls.py."""

from django.urls import URLPattern, path

from members.web import (
    embed_views,
    event_views,
    ladder_views,
    live_views,
    schedule_views,
    season_views,
    series_views,
    views,
)

CLUB_PAGES = [
    ("", ladder_views.club_page, "club_page"),
    ("ladder.csv", ladder_views.ladder_csv, "club_ladder_csv"),
    ("ladder.json", ladder_views.ladder_json, "club_ladder_json"),
    ("seeding.trf", ladder_views.seeding_list_trf, "club_seeding_trf"),
    ("seeding.csv", ladder_views.seeding_list_csv, "club_seeding_csv"),
    # Each of the club's ladders (the first is the front page above), with its downloads.
    ("ladders/<slug:ladder>/", ladder_views.ladder_page, "club_ladder"),
    ("ladders/<slug:ladder>/ladder.csv", ladder_views.ladder_csv, "club_ladder_csv_of"),
    ("ladders/<slug:ladder>/ladder.json", ladder_views.ladder_json, "club_ladder_json_of"),
    ("ladders/<slug:ladder>/seeding.trf", ladder_views.seeding_list_trf, "club_seeding_trf_of"),
    ("ladders/<slug:ladder>/seeding.csv", ladder_views.seeding_list_csv, "club_seeding_csv_of"),
    ("players/", views.roster_page, "club_roster"),
    ("players/<int:player_id>/", views.player_page, "club_player"),
    ("events/", views.events_page, "club_events"),
    ("events/<int:event_id>/", event_views.event_page, "club_event"),
    ("events/<int:event_id>/rounds/", event_views.event_rounds_page, "club_event_rounds"),
    ("events/<int:event_id>/wallchart/", event_views.event_wallchart, "club_event_wallchart"),
    ("events/<int:event_id>/ratings/", event_views.event_ratings_page, "club_event_ratings"),
    ("events/<int:event_id>/live/", live_views.live_event, "club_event_live"),
    ("events/<int:event_id>/results.trf", event_views.event_results_trf, "club_event_trf"),
    ("events/<int:event_id>/results.csv", event_views.event_results_csv, "club_event_csv"),
    ("how-ratings-work/", views.rating_rules_page, "club_rating_rules"),
    ("seasons/", season_views.seasons_page, "club_seasons"),
    ("seasons/<str:season>/", season_views.season_page, "club_season"),
    ("seasons/<str:season>/<slug:ladder>/", season_views.season_page, "club_season_ladder"),
    # A Grand Prix series: its standings, and the same as a file beside it.
    ("series/", series_views.series_list_page, "club_series_list"),
    ("series/<slug:series>/", series_views.series_page, "club_series"),
    ("series/<slug:series>.csv", series_views.series_csv, "club_series_csv"),
    # What is next: the upcoming events, the club's calendar and a feed of its results.
    ("schedule/", schedule_views.schedule_page, "club_schedule"),
    ("calendar.ics", schedule_views.calendar_ics, "club_calendar"),
    ("results.atom", schedule_views.results_atom, "club_results_feed"),
    # Small pages made to be framed by the club's own website, by the sites it lists.
    ("embed/ladder/", embed_views.embed_ladder, "club_embed_ladder"),
    ("embed/ladders/<slug:ladder>/", embed_views.embed_ladder, "club_embed_ladder_of"),
    ("embed/schedule/", embed_views.embed_schedule, "club_embed_schedule"),
    ("embed/events/<int:event_id>/", embed_views.embed_event, "club_embed_event"),
]

urlpatterns: list[URLPattern] = [
    path("clubs/", views.directory, name="club_directory"),
    path("robots.txt", views.robots_txt, name="robots_txt"),
    path("sitemap.xml", views.sitemap_xml, name="sitemap"),
    path("results/<str:share_token>/", event_views.shared_event, name="shared_event"),
    path(
        "results/<str:share_token>/rounds/",
        event_views.shared_event_rounds,
        name="shared_event_rounds",
    ),
    path(
        "results/<str:share_token>/wallchart/",
        event_views.shared_event_wallchart,
        name="shared_event_wallchart",
    ),
    path(
        "results/<str:share_token>/ratings/",
        event_views.shared_event_ratings,
        name="shared_event_ratings",
    ),
]
for suffix, view, name in CLUB_PAGES:
    urlpatterns += [
        path(f"c/<slug:slug>/{suffix}", view, name=name),
        path(f"c/<slug:slug>/s/<str:secret>/{suffix}", view, name=f"{name}_secret"),
    ]
