"""The contract between rating policies and the rest of the code base.

Pure Python: no Django imports. A policy sees an event as plain frozen
dataclasses, plus every participant's state before the event, and returns what
the event does to each player and each game. Storing, ordering and replaying
events is the caller's job (see ``ladder.history``).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple, Protocol, TypeVar, runtime_checkable

from clubs.results import Result


class PlayerState(NamedTuple):
    """A player's state before an event."""

    # NamedTuples, like GameInput and PlayerOutcome: a full replay creates
    # 40,000 of each, and a frozen dataclass costs four times as much to build.

    rating: float
    rated_games: int
    junior: bool = False


class GameInput(NamedTuple):
    # A NamedTuple, not a frozen dataclass: a full replay builds 100,000 of
    # them, and a tuple is several times cheaper to create.
    id: int  # game key
    round: int
    white: int  # player key
    black: int | None  # None for a bye
    result: Result
    variant: bool = False  # not standard chess (Chess960, a set-up position, ...): never rated


@dataclass(frozen=True)
class EventInput:
    id: int
    rated: bool  # the director's rated flag
    bughouse: bool  # kind == bughouse: never rated
    games: tuple[GameInput, ...]


class UnratedReason(enum.StrEnum):
    """Why a game did not change a rating (for one side or both)."""

    BYE = "bye"
    FORFEIT = "forfeit"  # also double forfeits and games without a result
    UNRATED_RESULT = "unrated_result"  # finished but marked unrated (TRF W, D, L)
    UNRATED_EVENT = "unrated_event"  # the director marked the whole event unrated
    BUGHOUSE = "bughouse"
    VARIANT = "variant"  # the game was not standard chess (Chess960, a set-up position, ...)
    # Protection rule: the named side is established, the other provisional.
    PROTECTED_WHITE = "protected_white"  # rated for black only
    PROTECTED_BLACK = "protected_black"  # rated for white only


@dataclass(frozen=True)
class GameOutcome:
    rated_for_white: bool
    rated_for_black: bool
    reason: UnratedReason | None  # None when rated for both sides


class PlayerOutcome(NamedTuple):
    pre_rating: float
    k: float | None  # None for policies without K (hsb)
    provisional: bool  # at the start of the event
    games_counted: int  # games that count toward this player's rated games
    expected: float  # sum of expected scores over counted games (hsb: games x p)
    actual: float  # score in counted games
    change: float
    post_rating: float
    rated_games_after: int


@dataclass(frozen=True)
class EventRating:
    players: dict[int, PlayerOutcome]  # every player appearing in any game or bye of the event
    games: dict[int, GameOutcome]


@dataclass(frozen=True)
class PolicySettings:
    """The base of every policy's own frozen settings dataclass (empty: each policy adds its
    fields). Code outside a policy holds settings by this type and never reads a field."""


SettingsT = TypeVar("SettingsT", bound=PolicySettings)


@runtime_checkable
class RatingPolicy(Protocol[SettingsT]):
    """A pluggable way of turning events into rating changes.

    ``SettingsT`` is the policy's own frozen settings dataclass; the rest of the
    code base only ever stores it as the dict from ``settings_to_dict``.
    """

    name: str
    label: str  # shown in the club settings form

    def parse_settings(self, raw: Mapping[str, object]) -> SettingsT:
        """Fill defaults and validate; ValueError names the offending field."""
        ...

    def default_settings(self) -> SettingsT: ...

    def settings_to_dict(self, settings: SettingsT) -> dict[str, object]:
        """JSON-serialisable; ``parse_settings`` of the result gives ``settings`` back."""
        ...

    def start_rating(self, settings: SettingsT) -> float: ...

    def is_provisional(self, state: PlayerState, settings: SettingsT) -> bool: ...

    def rate_event(
        self, event: EventInput, before: Mapping[int, PlayerState], settings: SettingsT
    ) -> EventRating:
        """Rate one event from the participants' pre-event states.

        ``before`` holds every player appearing in the event. The result must
        not depend on the order of ``event.games``.
        """
        ...


# ---------------------------------------------------------------------------
# Helpers shared by policies, so each new policy does not re-decide what is
# "never rated" (SPEC §2) or re-validate its input.


def participants(event: EventInput) -> frozenset[int]:
    """Every player appearing in any game or bye of the event."""
    players: set[int] = set()
    for game in event.games:
        players.add(game.white)
        if game.black is not None:
            players.add(game.black)
    return frozenset(players)


def check_event(event: EventInput, before: Mapping[int, PlayerState]) -> frozenset[int]:
    """Reject malformed input loudly: a silent mis-rating would be far worse.

    Raises ValueError for duplicate game keys, byes with an opponent, pairings
    without one, a player paired with themselves, or a participant missing
    from ``before``. Returns the participants, which every policy needs next.
    """
    seen: set[int] = set()
    players: set[int] = set()
    for game in event.games:
        if game.id in seen:
            raise ValueError(f"event {event.id}: game {game.id} appears twice")
        seen.add(game.id)
        bye = game.result.is_bye
        if bye and game.black is not None:
            raise ValueError(
                f"event {event.id}, game {game.id}: a bye ({game.result.value}) has no opponent"
            )
        if not bye and game.black is None:
            raise ValueError(
                f"event {event.id}, game {game.id}: result {game.result.value} needs two players"
            )
        if game.white == game.black:
            raise ValueError(
                f"event {event.id}, game {game.id}: player {game.white} is paired with themselves"
            )
        players.add(game.white)
        if game.black is not None:
            players.add(game.black)
    missing = sorted(players - before.keys())
    if missing:
        raise ValueError(f"event {event.id}: no pre-event state for players {missing}")
    return frozenset(players)


def unrated_reason(event: EventInput, game: GameInput) -> UnratedReason | None:
    """Why ``game`` is never rated for either side, or None if it is eligible.

    Event-wide reasons come first (bughouse, then the director's unrated flag)
    so that a whole event's games share one explanation; then a game that was
    not standard chess; only then does the game's own result decide. The
    protection rule is policy-specific and not decided here.
    """
    return event_unrated_reason(event) or game_unrated_reason(game)


def game_unrated_reason(game: GameInput) -> UnratedReason | None:
    """Why the game itself is never rated (a variant, then its result), or None."""
    if game.variant:
        return UnratedReason.VARIANT
    return RESULT_UNRATED_REASON[game.result]


def event_unrated_reason(event: EventInput) -> UnratedReason | None:
    """The reason every game of the event shares, if the event is never rated."""
    if event.bughouse:
        return UnratedReason.BUGHOUSE
    if not event.rated:
        return UnratedReason.UNRATED_EVENT
    return None


def _result_reason(result: Result) -> UnratedReason | None:
    if result.is_bye:
        return UnratedReason.BYE
    if result.is_forfeit:
        return UnratedReason.FORFEIT
    if result.is_unrated_result:
        return UnratedReason.UNRATED_RESULT
    if result.is_played:
        return None
    # A Result added later that nobody classified must not be rated by accident.
    raise ValueError(f"result {result.value!r} is not classified as played or unplayed")


# Decided once per result code at import, not once per game: a full replay
# asks for 100,000 games.
RESULT_UNRATED_REASON: dict[Result, UnratedReason | None] = {r: _result_reason(r) for r in Result}


def outcome(
    rated_for_white: bool, rated_for_black: bool, reason: UnratedReason | None
) -> GameOutcome:
    """The shared GameOutcome for these values (they are immutable, so one of each suffices)."""
    return _OUTCOMES[(rated_for_white, rated_for_black, reason)]


_OUTCOMES = {
    (white, black, reason): GameOutcome(white, black, reason)
    for white in (True, False)
    for black in (True, False)
    for reason in (None, *UnratedReason)
}


class SettingError(ValueError):
    """A refused setting: the message names the field, for logs and the admin; `field`, `low`
    and `high` (the allowed range, when there is one) and `at_least` (the field this one may
    not be below) let a form say the same in the director's language."""

    def __init__(
        self,
        field: str,
        message: str,
        *,
        low: float | None = None,
        high: float | None = None,
        at_least: str | None = None,
    ) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.low = low
        self.high = high
        self.at_least = at_least


def require_finite(field: str, value: object, *, low: float, high: float) -> float:
    """A real number (int or float, not bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingError(field, f"expected a number, got {value!r}", low=low, high=high)
    if not math.isfinite(value) or not low <= value <= high:
        raise SettingError(
            field, f"must be between {low:g} and {high:g}, got {value!r}", low=low, high=high
        )
    return float(value)


def require_int(field: str, value: object, *, low: int, high: int) -> int:
    """A whole number in [low, high]; a float with no fractional part is accepted."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingError(field, f"expected a whole number, got {value!r}", low=low, high=high)
    if not low <= value <= high:
        raise SettingError(
            field, f"must be between {low} and {high}, got {value!r}", low=low, high=high
        )
    return value


def require_bool(field: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise SettingError(field, f"expected true or false, got {value!r}")
    return value


def reject_unknown(raw: Mapping[str, object], known: frozenset[str]) -> None:
    """A misspelt setting must not silently fall back to its default."""
    unknown = sorted(str(key) for key in raw.keys() - known)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(unknown)}")
