"""What each public page shows: the builders of the event, player, list and live pages, their
tables, texts, chart and the one rule for shown names. Builders only read; they may import ladder's
core, its roster, labels and rules, clubs.models and each other, never views.
"""
