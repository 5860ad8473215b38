"""The changes to a published event besides its results, held until confirmed.

The event's details (directors/events/drafts.update_event), its name decisions
(directors/events/names.apply_name_decisions) and a re-pointed entry
(directors/roster/merging.repoint_entry) each go through the two steps of
directors/events/pending_changes.py: each kind here is only what the write function needs, its
JSON form, and `apply`, which calls that very function with the event's edit version taken at
submit.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any, ClassVar

from django.utils.translation import gettext as _

from clubs.models import Entry, Event, Player, User
from directors.events import pending_changes
from directors.events.drafts import EventDetails, fields_of, update_event
from directors.events.names import Action, DecisionsApplied, NameDecision, apply_name_decisions
from directors.roster.merging import RosterChangeError, repoint_entry


@pending_changes.register
@dataclass(frozen=True)
class PendingDetails:
    kind: ClassVar[str] = "details"
    event_id: int
    version: int
    details: EventDetails
    token: str = dataclasses.field(default_factory=pending_changes.new_token)

    def apply(self, user: User | None) -> Event:
        return update_event(self.event_id, self.version, self.details, user)

    def to_json(self) -> dict[str, Any]:
        fields = fields_of(self.details)
        fields["date"] = self.details.date.isoformat()
        return {"event_id": self.event_id, "version": self.version, "token": self.token, **fields}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingDetails:
        details = EventDetails(
            name=str(data["name"]),
            date=dt.date.fromisoformat(data["date"]),
            order_in_day=int(data["order_in_day"]),
            kind=str(data["kind"]),
            rated=bool(data["rated"]),
            # Held before the director could say so, or for a club night: left as it is.
            round_robin=None if data.get("round_robin") is None else bool(data["round_robin"]),
        )
        return cls(int(data["event_id"]), int(data["version"]), details, str(data["token"]))


def changed_details(event: Event, details: EventDetails) -> list[str]:
    """The fields `details` would change, by name (after the checks update_event makes)."""
    new = fields_of(details.checked())
    return sorted(name for name, value in new.items() if getattr(event, name) != value)


@pending_changes.register
@dataclass(frozen=True)
class PendingNames:
    kind: ClassVar[str] = "names"
    event_id: int
    version: int
    decisions: tuple[NameDecision, ...]
    next_url: str
    token: str = dataclasses.field(default_factory=pending_changes.new_token)

    def apply(self, user: User | None) -> DecisionsApplied:
        return apply_name_decisions(self.event_id, self.version, self.decisions, user)

    def to_json(self) -> dict[str, Any]:
        return {
            "event_id": self.event_id,
            "version": self.version,
            "token": self.token,
            "next_url": self.next_url,
            # Rows, not objects: the names of a 1,000-entrant event stay small.
            "decisions": [
                [d.entry_id, d.action.value, d.player_id, d.start_rating] for d in self.decisions
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingNames:
        decisions = tuple(
            NameDecision(
                int(entry_id),
                Action(action),
                None if player_id is None else int(player_id),
                None if start is None else float(start),
            )
            for entry_id, action, player_id, start in data["decisions"]
        )
        return cls(
            int(data["event_id"]),
            int(data["version"]),
            decisions,
            str(data["next_url"]),
            str(data["token"]),
        )


def names_change_anything(applied: DecisionsApplied) -> bool:
    """Whether decisions changed a link (a save of the names as they are changes none)."""
    return bool(applied.linked or applied.created or applied.dropped)


def decisions_may_change(event: Event, decisions: tuple[NameDecision, ...]) -> bool:
    """Whether the decisions could change a link, read from the links as they are (one or two
    small queries) instead of a preview's replay. False only when each one leaves its entrant
    as it is, as names_change_anything would find after applying them; a decision it cannot
    judge (an entrant no longer in the event) says True, and the preview decides."""
    links = dict(event.entries.values_list("id", "player"))
    left_out: set[int] = set()
    for decision in decisions:
        if decision.entry_id not in links or decision.action == Action.NEW:
            return True
        if decision.action == Action.LINK and links[decision.entry_id] != decision.player_id:
            return True
        if decision.action == Action.NONE:
            if links[decision.entry_id] is not None:
                return True
            left_out.add(decision.entry_id)
    if not left_out:
        return False
    # Leaving an entrant without a player also takes their own byes away.
    with_byes = event.games.filter(black__isnull=True).values_list("white", flat=True)
    return not left_out.isdisjoint(with_byes)


def decisions_described(event: Event, decisions: tuple[NameDecision, ...]) -> list[str]:
    """One line per entrant the decisions would move: the typed name and where it goes."""
    entries = event.entries.in_bulk([d.entry_id for d in decisions])
    linked = {d.player_id for d in decisions if d.action == Action.LINK}
    names = dict(Player.objects.filter(pk__in=linked).values_list("id", "name"))
    lines = []
    for decision in decisions:
        entry = entries.get(decision.entry_id)
        if entry is None:
            continue
        if decision.action == Action.LINK and entry.player_id != decision.player_id:
            lines.append(
                _("“%(typed)s” counts for %(name)s")
                % {"typed": entry.typed_name, "name": names.get(decision.player_id or 0, "")}
            )
        elif decision.action == Action.NEW:
            lines.append(_("“%(typed)s” becomes a new player") % {"typed": entry.typed_name})
        elif decision.action == Action.NONE and entry.player_id is not None:
            lines.append(_("“%(typed)s” is left without a player") % {"typed": entry.typed_name})
    return lines


@pending_changes.register
@dataclass(frozen=True)
class PendingRepoint:
    kind: ClassVar[str] = "repoint"
    event_id: int
    version: int
    entry_id: int
    player_id: int | None  # None: a new player named new_name
    new_name: str
    token: str = dataclasses.field(default_factory=pending_changes.new_token)

    def apply(self, user: User | None) -> Player:
        entry = Entry.objects.filter(pk=self.entry_id, event_id=self.event_id).first()
        if entry is None:
            raise RosterChangeError(_("This entry is no longer part of the event."))
        player = None
        if self.player_id is not None:
            player = Player.objects.filter(pk=self.player_id).first()
            if player is None:
                raise RosterChangeError(_("Choose a player of this club's roster."))
        return repoint_entry(entry, player, self.new_name, user, version=self.version)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PendingRepoint:
        player_id = data["player_id"]
        return cls(
            int(data["event_id"]),
            int(data["version"]),
            int(data["entry_id"]),
            None if player_id is None else int(player_id),
            str(data["new_name"]),
            str(data["token"]),
        )
