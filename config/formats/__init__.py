"""Date formats: one written-month format per language, on every screen (FORMAT_MODULE_PATH).

Numeric dates such as 10/02/2026 read as 10 February in one country and 2 October in the
next; a month written as a word cannot be misread. Only the formats that show a date are
set here; input formats and numbers come from Django's own locale files. Machine formats
(CSV, JSON and TRF files, <time datetime> attributes, form inputs) stay ISO.
"""
