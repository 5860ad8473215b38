"""The files the club's data goes out as: the ladder as CSV, JSON and a seeding list, one event
as TRF16 or CSV, and the formula-proof CSV cells under both. They may import the engine
(ladder), clubs and the page builders' final ranking, never a view.
"""
