"""What directors do: the upload-and-publish flow and every change to an event (events/), the
file importers (importers/, pure), the club night (night/), the roster's writes (roster/)
and screens (roster_views.py, roster_edit_views.py, roster_urls.py), the ladders (ladders/),
the club's settings and rating settings, the audit log's sentences (audit/), the admin,
the demo club and the directors' commands. It is the top app: it may import clubs, ladder,
billing, matching and the members' page builders (never their views); nothing imports it
but the project's urls, probes and cron.
"""
