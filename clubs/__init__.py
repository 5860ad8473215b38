"""The data every other app shares: clubs, their users and roles, players, events, entries,
games, ladders, a club night's boards, uploads and the records of directors' decisions
(models/), the one access helper (access.py), accounts and sign-in (accounts/), the audit
log's record() (audit/), and the vocabulary the models store (results.py, labels/,
rating_policies.py). It imports no other app but pure matching: the rating engine, the
members' pages and the directors' screens all build on it.
"""
