"""The translated words for the ladder's vocabulary: results.py every game result's (Game.result's
choices too), tiebreaks.py every tie-break's. They may import only the lazy gettext and the pure
vocabulary they label (clubs.results, ladder.tiebreaks), so models, forms and pages can use them.
"""
