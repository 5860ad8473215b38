# 10. Feb. 2026, 10. Juli 2026, 10. Sept. 2026: CLDR's abbreviated German months (Django's
# "N", with the one month it spells otherwise corrected in our catalogue; see
# config/formats/__init__.py).
DATE_FORMAT = "j. N Y"
SHORT_DATE_FORMAT = "j. N Y"
DATETIME_FORMAT = "j. N Y, H:i"
SHORT_DATETIME_FORMAT = "j. N Y, H:i"
MONTH_DAY_FORMAT = "j. N"
