"""The translated words for the data's vocabulary: results.py every game result's
(Game.result's choices too). Lazy gettext and clubs.results only.
"""
