"""Accounts: sign-up, sign-in and its throttling, one-time sign-in links, director
invitations and which client address counts (client_address.py and throttle.py's keys).
It may import clubs' models, audit and forms (the sign-up form), nothing of the club pages.
"""
