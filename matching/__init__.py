"""Player names: normalisation, ranked suggestions and possible duplicates. No Django."""

from matching.duplicates import DuplicatePair, possible_duplicates
from matching.name_order import first_last
from matching.normalize import KEY_VERSION, NameKey, clean_name, clean_sent_text, name_key
from matching.rules import Reason, is_weak
from matching.suggest import (
    PreparedRoster,
    Suggestion,
    prepare_roster,
    suggest,
    suggest_prepared,
)

__all__ = [
    "KEY_VERSION",
    "DuplicatePair",
    "NameKey",
    "PreparedRoster",
    "Reason",
    "Suggestion",
    "clean_name",
    "clean_sent_text",
    "first_last",
    "is_weak",
    "name_key",
    "possible_duplicates",
    "prepare_roster",
    "suggest",
    "suggest_prepared",
]
