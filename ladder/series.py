"""A Grand Prix's standings from its events' final places: the scoring, pure (no Django).

A series stores no result (clubs/models/series.py): its standings are worked out here from
each event's final places whenever they are shown, so a correction, deletion or merge
changes them through the events. The reader (members/series.py) hands in the places and the
players who may be ranked; this module decides each place's points, which results count,
the totals and the ranks, in exact fractions so a shared place's points add up as printed.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

SHARE = "share"  # Series.Ties.SHARE: tied places share the sum of their places' points
HIGHER = "higher"  # Series.Ties.HIGHER: each tied player takes the higher place's points
TIES = (SHARE, HIGHER)

# The fractions a shared place can leave that a reader knows as one character.
_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


@dataclass(frozen=True)
class Rules:
    points: tuple[int, ...]  # by final place, 1st first; () = the player's game points
    best: int | None  # the best N results count; None: every result
    ties: str  # SHARE or HIGHER
    min_events: int  # fewer results than this: listed after the ranked players, unranked


@dataclass(frozen=True)
class Placing:
    """One entrant's final place in an event. Every entrant of the event is given, also
    those who can never be ranked (no player, or not a member where only members count), as
    they still hold their place: the points of the places come from the whole field."""

    player: int
    place: int  # the event's final rank, shared by tied entrants
    game_points: Fraction


@dataclass(frozen=True)
class EventPlaces:
    event: int
    placings: tuple[Placing, ...]


@dataclass(frozen=True)
class Scored:
    event: int
    place: int
    points: Fraction
    counted: bool  # False: a result past the best N, shown as discarded


@dataclass(frozen=True)
class Row:
    rank: int | None  # None: fewer results than the rules' minimum
    player: int
    total: Fraction  # the sum of the counted results
    results: tuple[Scored, ...]  # in event order, one per event played


def place_points(placings: Sequence[Placing], rules: Rules) -> dict[int, tuple[int, Fraction]]:
    """Each player's place and its points in one event (their best place, should a merge
    have left a player twice in one event)."""
    best_place: dict[int, Placing] = {}
    for placing in placings:
        held = best_place.get(placing.player)
        if held is None or placing.place < held.place:
            best_place[placing.player] = placing
    if not rules.points:
        return {player: (p.place, p.game_points) for player, p in best_place.items()}
    # Tied entrants share a place: the number sharing it is counted over the whole field.
    sharing: dict[int, int] = {}
    for placing in placings:
        sharing[placing.place] = sharing.get(placing.place, 0) + 1
    return {
        player: (p.place, _tied_points(p.place, sharing[p.place], rules))
        for player, p in best_place.items()
    }


def _tied_points(place: int, tied: int, rules: Rules) -> Fraction:
    if rules.ties == HIGHER or tied == 1:
        return _by_place(place, rules.points)
    places = range(place, place + tied)
    return Fraction(sum(_by_place(p, rules.points) for p in places), tied)


def _by_place(place: int, points: tuple[int, ...]) -> Fraction:
    return Fraction(points[place - 1]) if 1 <= place <= len(points) else Fraction(0)


def score(events: Sequence[EventPlaces], rules: Rules, players: Collection[int]) -> list[Row]:
    """The standings of `players` (those who may be ranked: the members, or one group) over
    `events` in event order: ranked players by total, equal totals sharing a rank (1, 1, 3),
    then those with fewer results than the minimum, unranked; inside either by player id
    (the reader orders equal ranks by name)."""
    wanted = set(players)
    results: dict[int, list[Scored]] = {}
    for event in events:
        for player, (place, points) in place_points(event.placings, rules).items():
            if player in wanted:
                results.setdefault(player, []).append(Scored(event.event, place, points, True))
    rows = [_row(player, played, rules.best) for player, played in results.items()]
    ranked = sorted(
        (row for row in rows if len(row.results) >= rules.min_events),
        key=lambda row: (-row.total, row.player),
    )
    unranked = sorted(
        (row for row in rows if len(row.results) < rules.min_events),
        key=lambda row: (-row.total, row.player),
    )
    placed: list[Row] = []
    for position, row in enumerate(ranked, start=1):
        shares = placed and placed[-1].total == row.total
        rank = placed[-1].rank if shares else position
        placed.append(Row(rank, row.player, row.total, row.results))
    return placed + unranked


def _row(player: int, played: list[Scored], best: int | None) -> Row:
    """The player's results with those past the best N marked discarded: the highest count,
    and between equal results the earlier event's."""
    by_value = sorted(range(len(played)), key=lambda i: (-played[i].points, i))
    kept = set(by_value if best is None else by_value[:best])
    results = tuple(Scored(s.event, s.place, s.points, i in kept) for i, s in enumerate(played))
    total = sum((s.points for s in results if s.counted), Fraction(0))
    return Row(None, player, total, results)


def section_of(played: Sequence[str], order: Sequence[str]) -> str:
    """The section a player of a series grouped by section is ranked in: the one of most of
    their events (each played event's section, "" for an event of none); a section beats ""
    whatever the counts, as "" only means an event not split into sections; between equally
    many, the higher section, the earlier in `order` (the sections highest first). All of
    the player's results count in that one group."""
    counts: dict[str, int] = {}
    for section in played:
        counts[section] = counts.get(section, 0) + 1
    named = [section for section in counts if section] or [""]
    rank = {section: place for place, section in enumerate(order)}
    return min(
        named,
        key=lambda section: (-counts.get(section, 0), rank.get(section, len(rank)), section),
    )


def points_text(value: Fraction) -> str:
    """24½, 7⅓, 3 2/7, ⅔: the whole part and what is left, as a reader writes it by hand."""
    if value < 0:
        return f"−{points_text(-value)}"
    whole, rest = divmod(value, 1)
    if not rest:
        return str(whole)
    part = _VULGAR.get(rest, f"{rest.numerator}/{rest.denominator}")
    if not whole:
        return part
    return f"{whole}{part}" if rest in _VULGAR else f"{whole} {part}"


def sum_text(row: Row) -> str:
    """ "10 + 8 + 6½ = 24½": the counted results in event order and their total, so a parent
    can add it up; a single counted result is just its points."""
    counted = [points_text(s.points) for s in row.results if s.counted]
    if len(counted) <= 1:
        return points_text(row.total)
    return f"{' + '.join(counted)} = {points_text(row.total)}"
