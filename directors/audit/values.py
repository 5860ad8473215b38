"""How an audit sentence writes the fields and values of a change: "family consent from yes to
no", a page setting's choice in words, a rating policy by its name (directors.audit.sentences)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from django.core.exceptions import FieldDoesNotExist
from django.db.models import Field
from django.utils.formats import number_format
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Event
from directors.forms import FIELD_LABELS as RATING_LABELS
from directors.forms import POLICY_LABELS


def value_text(value: object) -> str:
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if value is None or value == "":
        return _("none")
    if isinstance(value, float):
        return number_format(value, decimal_pos=0 if value.is_integer() else 1)
    return str(value)


def field_label(labels: Mapping[str, object], field: str) -> str:
    return str(labels.get(field, field.replace("_", " ")))


def changes_text(labels: Mapping[str, object], changed: object, shown: Callable[..., str]) -> str:
    """ "family consent from yes to no and junior flag from no to yes" for a dict of
    field -> [old, new]; just the fields' words for a list of names (staff edits)."""
    if isinstance(changed, dict):
        parts = [
            _("%(field)s from %(old)s to %(new)s")
            % {
                "field": field_label(labels, field),
                "old": shown(field, pair[0]),
                "new": shown(field, pair[1]),
            }
            for field, pair in changed.items()
            if isinstance(pair, list) and len(pair) == 2
        ]
    elif isinstance(changed, list):
        parts = [field_label(labels, str(field)) for field in changed]
    else:
        parts = []
    return str(get_text_list(parts, _("and"))) if parts else _("nothing")


def plain_value(_field: str, value: object) -> str:
    return value_text(value)


def page_value(field: str, value: object) -> str:
    """A page setting's choice in words ("Public"); the stored value for one unknown."""
    try:
        found = Club._meta.get_field(field)
    except FieldDoesNotExist:
        return value_text(value)
    choices = dict(found.flatchoices) if isinstance(found, Field) else {}
    return str(choices.get(value, value_text(value)))


def rating_value(field: str, value: object) -> str:
    if field == "rating_policy" and isinstance(value, str):
        return str(POLICY_LABELS.get(value, value))
    return value_text(value)


RATING_FIELDS: dict[str, object] = {
    "rating_policy": gettext_lazy("rating policy"),
    **RATING_LABELS,
}


def kinds_text(kinds: object) -> str:
    """ "Blitz and Rapid": event kinds in the event form's words."""
    labels = dict(Event.Kind.choices)
    names = [str(labels.get(kind, kind)) for kind in kinds] if isinstance(kinds, list) else []
    return str(get_text_list(names, _("and"))) if names else _("nothing")


def taken_text(taken: object, names: object) -> str:
    """ "Blitz from Ladder": the kinds a move took, with the ladders that rated them (by the
    names the entry quoted); empty when it took none."""
    if not isinstance(taken, dict) or not taken:
        return ""
    quoted = names if isinstance(names, dict) else {}
    parts = [
        _("%(kinds)s from %(ladder)s")
        % {"kinds": kinds_text(kinds), "ladder": quoted.get(slug, slug)}
        for slug, kinds in taken.items()
    ]
    return str(get_text_list(parts, _("and")))
