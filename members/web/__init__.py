"""The ladder's side of HTTP: the club pages' views and urls, the live page's view, the page's
language, the whole-page cache for visitors and the 404 page. Thin views: they may import
ladder's other rooms (pages, roster, rules), its core, and clubs' models and access helper.
"""
