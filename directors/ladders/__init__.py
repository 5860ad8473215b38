"""The directors' ladders: a club's ladders listed, added, renamed, and event kinds moved
between them, each with the preview of how the ladders move (ladder/impact/ladders.py).

changes.py is the one place these writes are made (the screen here and the add_ladder command
both call it), each through the one door (ladder.changes.club_changed) and into the audit log.
The per-ladder rating settings are directors/rating_settings_views.py.
"""
