"""The club's rules, applied and written out: file_ranks.py (pure) when an event's standings may
follow its tournament file's ranks, rating_rules.py the page "How ratings are calculated" from
the club's settings. They may import members.pages (its sums and formats), policies and
clubs.models.
"""
