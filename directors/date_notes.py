"""Which date an imported file gave and from which record, in words for the director.

Used by the upload screen (in the director's language) and by ``import_event``'s summary
(English, as management commands run without a language).
"""

from __future__ import annotations

from datetime import date

from django.utils.translation import gettext as _

from directors.importers.base import DateSource


def date_note(found: date, source: DateSource) -> str:
    """E.g. "Date 2010-09-13 read from record 042 (as YY.MM.DD, agreeing with the 132 round
    dates)." and, when another reading stays possible or another date disagrees, what to
    check."""
    values = {"date": found.isoformat(), "record": source.record, "pattern": source.pattern}
    if source.record == "132":
        text = _("Date %(date)s read from record 132 (the first round date).") % values
    elif not source.pattern:
        text = _("Date %(date)s read from record %(record)s.") % values
    elif source.agrees_with:
        values["evidence"] = _evidence(source.agrees_with)
        text = (
            _(
                "Date %(date)s read from record %(record)s (as %(pattern)s, "
                "agreeing with %(evidence)s)."
            )
            % values
        )
    else:
        text = _("Date %(date)s read from record %(record)s (as %(pattern)s).") % values
    if source.alternatives:
        others = ", ".join(
            _("%(date)s (as %(pattern)s)") % {"date": day.isoformat(), "pattern": pattern}
            for day, pattern in source.alternatives
        )
        text += " " + _("It could also be %(others)s: check the event's date.") % {"others": others}
    if source.contradicted_by:
        text += " " + _("It does not agree with %(evidence)s: check the event's date.") % {
            "evidence": _evidence(source.contradicted_by)
        }
    return text


def _evidence(records: tuple[str, ...]) -> str:
    if set(records) >= {"052", "132"}:
        return _("the end date in record 052 and the 132 round dates")
    if "052" in records:
        return _("the end date in record 052")
    return _("the 132 round dates")


def stored_date(found: date | None, source: DateSource | None) -> dict | None:
    """The file's date reading as Event.file_date keeps it (JSON), for the preview."""
    if found is None or source is None:
        return None
    return {
        "date": found.isoformat(),
        "record": source.record,
        "line": source.line,
        "written": source.written,
        "pattern": source.pattern,
        "agrees_with": list(source.agrees_with),
        "alternatives": [[day.isoformat(), pattern] for day, pattern in source.alternatives],
        "contradicted_by": list(source.contradicted_by),
    }


def from_stored(stored: dict | None) -> tuple[date, DateSource] | None:
    """Event.file_date read back; None if there is none or it is not in the shape above."""
    if not stored:
        return None
    try:
        source = DateSource(
            record=str(stored["record"]),
            line=int(stored["line"]),
            written=str(stored["written"]),
            pattern=str(stored["pattern"]),
            agrees_with=tuple(str(r) for r in stored["agrees_with"]),
            alternatives=tuple(
                (date.fromisoformat(day), str(pattern)) for day, pattern in stored["alternatives"]
            ),
            contradicted_by=tuple(str(r) for r in stored["contradicted_by"]),
        )
        return date.fromisoformat(stored["date"]), source
    except (KeyError, TypeError, ValueError):
        return None


def event_date_note(found: date, source: DateSource, event_date: date) -> str:
    """date_note, and what to do when the event keeps another date than the file's."""
    note = date_note(found, source)
    if found != event_date:
        # The event keeps the date the director gave it; the file's is only shown.
        note += " " + _(
            "This event's date is %(date)s: if the file's date is right, change it under Details."
        ) % {"date": event_date.isoformat()}
    return note
