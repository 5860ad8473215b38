"""Date formats: one written-month format per language, on every screen (FORMAT_MODULE_PATH).

Numeric dates such as 10/02/2026 read as 10 February in one country and 2 October in the
next; a month written as a word cannot be misread. Only the formats that show a date are
set here; input formats and numbers come from Django's own locale files. Machine formats
(CSV, JSON and TRF files, <time datetime> attributes, form inputs) stay ISO.
"""

from django.utils.translation import gettext_noop, pgettext_lazy

# Month names our catalogues spell otherwise than Django's own (ours are read first): CLDR's
# Hindi सितंबर, नवंबर, दिसंबर where Django writes सितमबर; German "Apr." for CLDR's abbreviated
# April (Django: "April"). Named here so that makemessages keeps the entries.
MONTH_CORRECTIONS = (
    gettext_noop("September"),
    gettext_noop("November"),
    gettext_noop("December"),
    pgettext_lazy("abbrev. month", "April"),
)
