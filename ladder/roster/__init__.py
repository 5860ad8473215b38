"""The roster every club page starts from: rosters.py loads the club's players once, with their
shown names and ladder numbers, and keeps the built roster per process. It may import
clubs.models, the policies and the name rules and numbers of ladder.pages (display, page_texts).
"""
