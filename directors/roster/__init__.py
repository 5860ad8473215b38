"""The roster: a director's writes to players, duplicates, merges and their undo,
re-pointing, erasure, the starting ladder's CSV, and the roster's views and urls.
It may import clubs' models, access, audit, event drafts, forms and confirmation, matching
and ladder's changes; nothing of the night.
"""
