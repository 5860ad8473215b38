"""The files the ladder writes out: the ladder as CSV, JSON and a seeding list, one event as
TRF16 or CSV, and the formula-proof CSV cells under both. Writers apart from the pages; they may
import ladder's core, ladder.roster, clubs.models and each other.
"""
