# 10 फ़रवरी 2026 (see config/formats/__init__.py).
DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "j F Y, H:i"
MONTH_DAY_FORMAT = "j F"
