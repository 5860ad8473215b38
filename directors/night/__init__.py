"""The club night: check-in, rounds, pairing (pairing/, whose swiss.py alone speaks to
py4swiss), results by board, hand changes, and the evening's views, forms and urls.
It may import clubs, ladder, the events' drafts and the roster's writes, and the members'
tables for its standings.
"""
