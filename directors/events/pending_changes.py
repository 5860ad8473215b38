"""A change to a published event, held until the director has seen what it moves.

Every change to a published event moves the ladder, so it goes in two steps. The submit
step makes the write in a savepoint, replays in memory and rolls it back
(ladder.impact.what_if.write_impact), and holds the change in the director's session; the confirm
step makes the very same write through the very same function, so the one door
(ladder.changes.club_changed) and the audit entry are written once, then. The event's
edit_version taken at submit is the one the confirmation claims, so a confirmation after any
other change to the event is refused; a token ties the confirm page to the change it showed
(a newer change to the same event, of any kind, submitted in another tab replaces it).
Drafts do not touch the ladder and are saved at once.

The kinds of change (results corrections in directors/events/corrections.py; details, names and
re-points in directors/events/changes.py) are dataclasses that say how they apply and how they
are held as JSON; this module holds, finds and previews any of them.
"""

from __future__ import annotations

import secrets
from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

from clubs.models import Event, User
from ladder.impact.compare import LadderImpact
from ladder.impact.what_if import write_impact

SESSION_KEY = "pending_corrections"  # the name it had when only results were held
# Per session, the changes of this many events wait at once; an older one is dropped.
MAX_PENDING = 3
KIND_KEY = "change_kind"  # beside the kind's own fields (an event's details have a "kind")


def new_token() -> str:
    return secrets.token_urlsafe(12)


class PendingChange(Protocol):
    """One held change. `kind` names it in the session; `version` is the event's edit_version
    at submit, which `apply` claims."""

    kind: ClassVar[str]

    # Read-only in the protocol: the kinds are frozen dataclasses.
    @property
    def event_id(self) -> int: ...

    @property
    def version(self) -> int: ...

    @property
    def token(self) -> str: ...

    def apply(self, user: User | None) -> object: ...

    def to_json(self) -> dict[str, Any]: ...

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Self: ...


_KINDS: dict[str, type[PendingChange]] = {}
K = TypeVar("K", bound=type[PendingChange])


def register(cls: K) -> K:
    """A class decorator: the kind can be held in, and read back from, the session."""
    _KINDS[cls.kind] = cls
    return cls


def needs_confirmation(event: Event) -> bool:
    """A change to a published event moves the ladder: it is shown before it applies."""
    return event.status == Event.Status.PUBLISHED and event.deleted_at is None


@dataclass(frozen=True)
class Preview:
    impact: LadderImpact
    result: object  # what the rolled-back write returned (what confirming would return)


def preview(club_id: int, change: PendingChange, user: User | None) -> Preview:
    """What applying `change` would move; raises what applying it would raise."""
    returned: list[object] = []
    impact = write_impact(club_id, lambda: returned.append(change.apply(user)))
    return Preview(impact, returned[0] if returned else None)


# Holding it between the two steps ---------------------------------------------------------


def hold(session: MutableMapping[str, Any], change: PendingChange) -> None:
    held = dict(session.get(SESSION_KEY) or {})
    held.pop(str(change.event_id), None)
    held[str(change.event_id)] = {**change.to_json(), KIND_KEY: change.kind}
    # Dicts keep insertion order: the oldest go first.
    session[SESSION_KEY] = dict(list(held.items())[-MAX_PENDING:])


def take(session: MutableMapping[str, Any], event_id: int, token: str) -> PendingChange | None:
    """The change held for the event, if `token` is the one its confirm page showed."""
    data = (session.get(SESSION_KEY) or {}).get(str(event_id))
    if not isinstance(data, dict) or not token:
        return None
    # As bytes: compare_digest raises TypeError on a str with non-ASCII characters (a forged
    # token), which would be a 500.
    if not secrets.compare_digest(str(data.get("token", "")).encode(), token.encode()):
        return None
    # Held before changes had kinds: a results correction.
    kind = _KINDS.get(str(data.get(KIND_KEY, "results")))
    if kind is None:
        return None
    try:
        change = kind.from_json(data)
    except (KeyError, TypeError, ValueError):
        # Held by an older version of the code, or damaged: it is submitted again.
        return None
    return change if change.event_id == event_id else None


def drop(session: MutableMapping[str, Any], event_id: int) -> None:
    held = dict(session.get(SESSION_KEY) or {})
    if held.pop(str(event_id), None) is not None:
        session[SESSION_KEY] = held
