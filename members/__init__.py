"""What members (and anyone a club lets in) read: the club's pages and their builders
(pages/, read only), the pages' HTTP side (web/: the one club_view, the views, urls, the
page cache), the downloads (files/), a season's page (seasons.py), a Grand Prix series'
standings (series.py), the template tags and the members' commands (export_ladder,
export_event, season_summary, series_standings). It may import clubs, ladder, billing and
matching; never the directors' app.
"""
