# 10 feb 2026 (see config/formats/__init__.py).
DATE_FORMAT = "j b Y"
SHORT_DATE_FORMAT = "j b Y"
DATETIME_FORMAT = "j b Y, H:i"
SHORT_DATETIME_FORMAT = "j b Y, H:i"
MONTH_DAY_FORMAT = "j b"
