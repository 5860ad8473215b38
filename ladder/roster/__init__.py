"""The roster every club page and export starts from: rosters.py loads the club's players once and
keeps it per process, display.py (pure) is the one rule for the names they show, ladders.py a
club's first ladder and the one writer of a ladder's kinds. It may import clubs, the policies
and ladder.page_texts (the numbers' rounding), never a page or a view.
"""
