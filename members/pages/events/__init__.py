"""An event's pages: its standings and rating changes as shown, rounds, wall chart and their
tables, and the list of events. Read only, like every page builder; the standings
themselves are the engine's (ladder/standings.py).
"""
