"""The club night: check-in, rounds, pairing (pairing/, whose swiss.py alone speaks to
py4swiss), results by board (taps kept offline applied once: taps.py), hand changes, the
evening's views, forms and urls, and the installable app's worker and manifest (app_views.py).
It may import clubs, ladder, the events' drafts and the roster's writes, and the members'
tables for its standings.
"""
