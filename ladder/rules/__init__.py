"""The club's rules applied to an event: file_ranks.py (pure) when an event's standings may
follow its tournament file's ranks. The page that writes the rules out is the members'
(members/pages/rating_rules.py).
"""
