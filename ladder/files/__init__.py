"""The files the ladder writes out: the ladder as CSV, JSON and a seeding list, one event as
TRF16 or CSV, and the formula-proof CSV cells under both. Writers apart from the pages, as they
build bytes for other programs; they may import ladder's core, clubs.models and each other.
"""
