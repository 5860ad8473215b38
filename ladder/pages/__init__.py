"""What each public page shows: the builders of the event, player, list and live pages, their
tables, texts, chart and the one rule for shown names. Builders only read; they may import the
replay's core at ladder/ (rosters, tie-breaks, labels), clubs.models and each other, never views.
"""
