"""The roster every club page and export starts from: rosters.py loads the club's players once and
keeps it per process, display.py (pure) is the one rule for the names they show. It may import
clubs.models, the policies and ladder.page_texts (the numbers' rounding), never views.
"""
