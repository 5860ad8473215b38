"""The roster's writes: a director's changes to players (players.py), duplicates, merges and
their undo, re-pointed entries (merging.py), erasure (erasure.py) and the starting ladder's
CSV (starting_ladder.py, which asks about the names close to roster players with
close_names.py, pure). Below the events, which link names to players through it; its
screens (directors/roster_views.py and roster_edit_views.py) sit above both, as a
re-pointed entry of a published event is confirmed through the events' confirmation.
"""
