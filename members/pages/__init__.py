"""What each club page shows: the builders of the event, player, list and live pages, their
tables, texts and chart, and the "How ratings are calculated" page (rating_rules.py).
Builders only read; they may import the engine (ladder), clubs and each other, never views.
"""
