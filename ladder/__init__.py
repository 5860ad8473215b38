"""The rating engine: the policies (policies/), the pure fold of a policy over events
(history.py), the replay that writes ratings (replay.py) and its store (store/), the one door
every change passes (changes.py) and the jobs it queues (jobs.py); an event's standings and
tie-breaks (standings.py, event_rules.py, tiebreaks.py), its rating lines and the printed sums
(event_ratings.py, explain.py, page_texts.py), a player's lifetime and game stats, seasons'
numbers (seasons/), what a change would do (impact/) and the roster every page starts from
(roster/). It imports only clubs and matching: never a page builder or a screen.
"""
