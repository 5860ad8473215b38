"""A correction to a published event: held until the director has seen what it moves.

A file, pasted CSV or grid save on a published event changes the ladder, so it goes in the
two steps of directors/events/pending_changes.py: previewed in a rolled-back savepoint, held in the
director's session, and made on confirmation through directors/events/results.py, claiming the
event's
edit_version taken at submit. Drafts do not touch the ladder and are saved at once, as before.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, ClassVar

from clubs.models import Event, User
from clubs.results import Result
from directors.date_notes import from_stored, stored_date
from directors.events import pending_changes, results
from directors.importers import ImportedEvent, ImportedGame, ImportedPlayer


@pending_changes.register
@dataclass(frozen=True)
class PendingCorrection:
    kind: ClassVar[str] = "results"
    event_id: int
    version: int  # the event's edit_version when the correction was submitted
    source: str
    replace_entries: bool
    round_no: int | None  # the grid of a large event saves one round
    imported: ImportedEvent
    next_url: str  # where the director goes once it is applied
    newcomer_start: str | None = None
    token: str = dataclasses.field(default_factory=pending_changes.new_token)

    def apply(self, user: User | None) -> Event:
        """Store the corrected results, as a draft's are stored at once."""
        if self.round_no is None:
            return results.set_results(
                self.event_id,
                self.version,
                self.imported,
                user,
                source=self.source,
                replace_entries=self.replace_entries,
                newcomer_start=self.newcomer_start,
            )
        return results.set_round_results(
            self.event_id, self.version, self.round_no, self.imported, user
        )

    def to_json(self) -> dict[str, Any]:
        return _to_json(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingCorrection:
        return _from_json(data)


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
        "round_robin": imported.round_robin,
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
        # A correction held before files said their type: as if the file said nothing.
        round_robin=data.get("round_robin"),
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
