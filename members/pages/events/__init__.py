"""An event's pages: its standings and rating changes, rounds, wall chart and their tables.

Read only, like every page builder; may import the ladder's core, members.pages' shared
texts and tables, ladder.roster and ladder.labels, never a view.
"""
