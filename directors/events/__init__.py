"""Events, as a director handles them: drafts and their details (drafts.py), results from a
file, pasted CSV or the grid (results.py, uploads.py), the names step (names.py and its
table, names_table.py and names_html.py), the preview (preview.py), publishing
(publishing.py), and every change to a published event shown before it is made
(pending_changes.py, changes.py, corrections.py, confirmation.py), with the screens'
forms, views and urls. It may import clubs, ladder, matching, the importers, the roster's
writes and the members' file writers.
"""
