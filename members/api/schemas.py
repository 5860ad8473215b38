"""The API's answers, one class each: the OpenAPI schema is made from these, and the fuzz
test (tests/members/api/test_fuzz.py) holds every answer to it."""

from __future__ import annotations

import datetime as dt

from ninja import Schema


class Error(Schema):
    """Every 4xx: what went wrong, in words (a 404 is always "Not found.")."""

    detail: str


class LadderSummary(Schema):
    slug: str
    name: str
    position: int
    rating_policy: str
    # False while a change waits for its replay: the ladder's numbers are the last good ones.
    current: bool


class Club(Schema):
    slug: str
    name: str
    visibility: str  # "public", "unlisted" or "director"
    language: str
    # The month (1 = January) each of the club's seasons starts, and the current season's days.
    season_start_month: int
    season_start: dt.date
    season_end: dt.date
    page: str  # the club page's path, as this caller reached the club (with its secret)
    ladders: list[LadderSummary]


class LadderRow(Schema):
    rank: int
    player_id: int
    name: str  # as the ladder page shows it (a junior without consent as initials)
    rating: int | None
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    last_change: float | None


class Standings(Schema):
    """One page of a ladder's rows, as its page (with ?on=, as it stood that day)."""

    ladder: str
    name: str
    current: bool
    on: dt.date | None  # the day asked for; None for today's ladder (or a future day)
    shown_day: dt.date | None  # the day whose ladder is shown: None for today's
    provisional_below: int | None
    count: int
    limit: int
    offset: int
    items: list[LadderRow]


class RosterPlayer(Schema):
    id: int
    name: str
    rank: int | None  # None: not on the first ladder
    rating: int | None
    rated_games: int
    provisional: bool
    last_played: dt.date | None


class Players(Schema):
    count: int
    limit: int
    offset: int
    items: list[RosterPlayer]


class Record(Schema):
    played: int
    won: int
    drawn: int
    lost: int
    score: float
    byes: int
    forfeits_won: int
    forfeits_lost: int


class Player(Schema):
    id: int
    name: str
    rank: int | None
    rating: int | None
    rated_games: int
    provisional: bool
    last_played: dt.date | None
    events: int  # every event of the player's history, on every ladder of the first's kinds
    record: Record


class Winner(Schema):
    player_id: int | None  # None: an entrant not matched to a player of the roster
    name: str


class EventSummary(Schema):
    id: int
    name: str
    date: dt.date
    kind: str  # the kind's code ("standard", "rapid", …)
    rated: bool
    players: int
    winners: list[Winner]


class Events(Schema):
    count: int
    limit: int
    offset: int
    items: list[EventSummary]


class RatingLine(Schema):
    before: float
    expected: float
    score: float
    change: float
    after: float
    games_counted: int
    k: float | None


class Standing(Schema):
    rank: int
    player_id: int | None
    name: str
    start_rank: int
    points: float
    played: int
    byes: int
    forfeits: int
    # The club's tie-breaks in its order, by code (ladder.tiebreaks.Tiebreak); empty when the
    # standings follow the tournament file's ranks that the tie-breaks would contradict.
    tiebreaks: dict[str, float]
    performance: int | None
    rating: RatingLine | None


class Event(Schema):
    id: int
    name: str
    date: dt.date
    kind: str
    rated: bool
    rounds: int
    ranks_from_file: bool
    tiebreak_order: list[str]
    current: bool  # False while the ladder it feeds is being recalculated
    standings: list[Standing]


class Invalid(Schema):
    """422: a path or query value of the wrong type or out of range (ninja's own answer),
    one line per value."""

    detail: list[dict[str, object]]


class ScheduledDate(Schema):
    """One date of the club's schedule from today on, as its upcoming events page shows it."""

    uid: str  # stable while the entry exists, as the calendar feed's UID
    name: str
    date: dt.date
    starts_at: dt.datetime  # in the club's time zone, with its offset
    time_zone: str  # the club's (IANA name)
    place: str
    kind: str  # the kind's code ("standard", "rapid", …)
    notes: str
    cancelled: bool
    reason: str  # why it is cancelled; "" otherwise
    event_id: int | None  # the event's results, once published


class Schedule(Schema):
    count: int
    limit: int
    offset: int
    items: list[ScheduledDate]
