"""The translated words for the engine's vocabulary: tiebreaks.py every tie-break's, a short
label for a table's column and the full name. Lazy gettext and ladder.tiebreaks only.
"""
