"""Accounts: sign-up, sign-in and its throttling, one-time sign-in links, director
invitations and which client address counts (client_address.py and throttle.py's keys).
Everyone who signs in passes here, whatever they do next, so it sits with the data; it
imports only the clubs app.
"""
