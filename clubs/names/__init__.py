"""The names step: suggestions and a director's name decisions (decisions.py), the names
table's filters, bulk decisions and candidates' details (table.py) and its rows (html.py).
It may import clubs' models, audit, event drafts, results and the roster's prepared roster,
matching and ladder's changes and policies; no views.
"""
