"""The club pages' side of HTTP: the one way to a club page (club_view.py), the views and urls,
the live page's view, the page's language, the whole-page cache for visitors and the 404
page. Thin views over the page builders (members/pages/), the engine and clubs.
"""
