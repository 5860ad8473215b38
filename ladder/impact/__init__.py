"""What a change would do to the ladder, worked out in memory and written nowhere: what_if.py
replays the club's history with other settings or corrected results, compare.py (pure) counts
the moves. It may import the replay's core at ladder/ (store, history, policies) and clubs.models.
"""
