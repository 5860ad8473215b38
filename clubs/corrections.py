"""A correction to a published event: held until the director has seen what it moves.

A file, pasted CSV or grid save on a published event changes the ladder, so it goes in two
steps. The submit step makes the write in a savepoint, replays in memory and rolls it back
(ladder.what_if.write_impact), and holds the corrected results in the director's session;
the confirm step makes the very same write through clubs/results.py. The event's
edit_version taken at submit is the one the confirmation claims, so a confirmation after
any other change to the event is refused, and a token ties the confirm page to the
correction it showed (a newer one submitted in another tab replaces it). Drafts do not
touch the ladder and are saved at once, as before.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from clubs import results
from clubs.date_notes import from_stored, stored_date
from clubs.importers import ImportedEvent, ImportedGame, ImportedPlayer
from clubs.models import Event, User
from ladder.impact import LadderImpact
from ladder.results import Result
from ladder.what_if import write_impact

SESSION_KEY = "pending_corrections"
# Per session, the corrections of this many events wait at once; an older one is dropped.
MAX_PENDING = 3


@dataclass(frozen=True)
class PendingCorrection:
    event_id: int
    version: int  # the event's edit_version when the correction was submitted
    source: str
    replace_entries: bool
    round_no: int | None  # the grid of a large event saves one round
    imported: ImportedEvent
    next_url: str  # where the director goes once it is applied
    newcomer_start: str | None = None
    token: str = dataclasses.field(default_factory=lambda: secrets.token_urlsafe(12))


def needs_confirmation(event: Event) -> bool:
    """A change to a published event moves the ladder: it is shown before it applies."""
    return event.status == Event.Status.PUBLISHED and event.deleted_at is None


def apply(pending: PendingCorrection, user: User | None) -> Event:
    """Store the corrected results, as a draft's are stored at once."""
    if pending.round_no is None:
        return results.set_results(
            pending.event_id,
            pending.version,
            pending.imported,
            user,
            source=pending.source,
            replace_entries=pending.replace_entries,
            newcomer_start=pending.newcomer_start,
        )
    return results.set_round_results(
        pending.event_id, pending.version, pending.round_no, pending.imported, user
    )


def preview(event: Event, pending: PendingCorrection, user: User | None) -> LadderImpact:
    """What applying `pending` would move; raises what applying it would raise."""
    return write_impact(event.club_id, lambda: apply(pending, user))


# Holding it between the two steps ---------------------------------------------------------


def hold(session: MutableMapping[str, Any], pending: PendingCorrection) -> None:
    held = dict(session.get(SESSION_KEY) or {})
    held.pop(str(pending.event_id), None)
    held[str(pending.event_id)] = _to_json(pending)
    # Dicts keep insertion order: the oldest go first.
    session[SESSION_KEY] = dict(list(held.items())[-MAX_PENDING:])


def take(session: MutableMapping[str, Any], event_id: int, token: str) -> PendingCorrection | None:
    """The correction held for the event, if `token` is the one its confirm page showed."""
    data = (session.get(SESSION_KEY) or {}).get(str(event_id))
    if not data or not secrets.compare_digest(str(data.get("token", "")), token):
        return None
    try:
        return _from_json(data)
    except (KeyError, TypeError, ValueError):
        # Held by an older version of the code, or damaged: it is submitted again.
        return None


def drop(session: MutableMapping[str, Any], event_id: int) -> None:
    held = dict(session.get(SESSION_KEY) or {})
    if held.pop(str(event_id), None) is not None:
        session[SESSION_KEY] = held


_PLAYER_FIELDS = [f.name for f in dataclasses.fields(ImportedPlayer)]
_GAME_FIELDS = [f.name for f in dataclasses.fields(ImportedGame)]


def _to_json(pending: PendingCorrection) -> dict[str, Any]:
    imported = pending.imported
    return {
        "event_id": pending.event_id,
        "version": pending.version,
        "source": pending.source,
        "replace_entries": pending.replace_entries,
        "round_no": pending.round_no,
        "next_url": pending.next_url,
        "newcomer_start": pending.newcomer_start,
        "token": pending.token,
        "name": imported.name,
        "date": imported.date.isoformat() if imported.date else None,
        "file_date": stored_date(imported.date, imported.date_source),
        "time_control": imported.time_control,
        "rounds": imported.rounds,
        "rounds_from_order": imported.rounds_from_order,
        "warnings": list(imported.warnings),
        # Rows of values under their field names: a 1,000-entrant event stays small.
        "player_fields": _PLAYER_FIELDS,
        "players": [[getattr(p, name) for name in _PLAYER_FIELDS] for p in imported.players],
        "game_fields": _GAME_FIELDS,
        "games": [
            [g.result.value if name == "result" else getattr(g, name) for name in _GAME_FIELDS]
            for g in imported.games
        ],
    }


def _from_json(data: dict[str, Any]) -> PendingCorrection:
    if data["player_fields"] != _PLAYER_FIELDS or data["game_fields"] != _GAME_FIELDS:
        raise ValueError("held by another version of the importers")
    players = tuple(
        ImportedPlayer(**dict(zip(_PLAYER_FIELDS, row, strict=True))) for row in data["players"]
    )
    games = []
    for row in data["games"]:
        values = dict(zip(_GAME_FIELDS, row, strict=True))
        values["result"] = Result(values["result"])
        games.append(ImportedGame(**values))
    read = from_stored(data["file_date"])
    imported = ImportedEvent(
        name=data["name"],
        date=read[0] if read else (dt.date.fromisoformat(data["date"]) if data["date"] else None),
        time_control=data["time_control"],
        rounds=int(data["rounds"]),
        players=players,
        games=tuple(games),
        warnings=tuple(data["warnings"]),
        rounds_from_order=bool(data["rounds_from_order"]),
        date_source=read[1] if read else None,
    )
    return PendingCorrection(
        event_id=int(data["event_id"]),
        version=int(data["version"]),
        source=str(data["source"]),
        replace_entries=bool(data["replace_entries"]),
        round_no=None if data["round_no"] is None else int(data["round_no"]),
        imported=imported,
        next_url=str(data["next_url"]),
        newcomer_start=data["newcomer_start"],
        token=str(data["token"]),
    )
