"""What each public page shows: the builders of the event, player, list and live pages, their
tables, texts and chart. Builders only read; they may import ladder's core, its roster (and the
one rule for shown names there), labels and rules, clubs.models and each other, never views.
"""
