"""A Grand Prix series as its page shows it and as series_standings prints it: read only.

The standings are worked out anew from the events' final places on every reading (the
engine is ladder/series.py, pure), so whatever changes an event (a correction, a deletion
or restore, a merge or its undoing) changes the series with it, and the pages' cache, keyed
on the club's versions, retires with the event's change. The final places are the event
page's own (members.pages.events.event_pages.final_ranking).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Event, Ladder, Player, Series
from ladder import series as engine
from ladder.series import EventPlaces, Placing, Rules, Scored
from ladder.store import dated
from members.pages.events.event_pages import final_ranking


def series_events(series: Series) -> list[Event]:
    """The events the series counts, in ladder order (date, order in the day, ...): those
    chosen one by one, else every event of its kinds in its dates; either way only the
    club's published events, not deleted."""
    events = Event.objects.filter(club_id=series.club_id).published()
    if series.kinds:
        chosen = events.filter(kind__in=series.kinds)
        if series.date_from is not None:
            chosen = chosen.filter(date__gte=series.date_from)
        if series.date_to is not None:
            chosen = chosen.filter(date__lte=series.date_to)
    else:
        chosen = events.filter(series=series)
    return list(chosen.in_ladder_order())


@dataclass(frozen=True)
class SeriesLine:
    rank: int | None  # None: fewer events played than the rules ask, not ranked
    player_id: int
    name: str
    total: Fraction
    sum_text: str  # "10 + 8 + 6½ = 24½"
    results: dict[int, Scored]  # by event id; missing = did not play

    @property
    def total_text(self) -> str:
        return engine.points_text(self.total)


@dataclass(frozen=True)
class SeriesGroup:
    label: str  # "" for a series without groups
    lines: list[SeriesLine]
    # Named once the series is finished: who holds first place (joint winners share it).
    winners: list[SeriesLine]


@dataclass(frozen=True)
class SeriesStandings:
    series: Series
    events: list[Event]
    groups: list[SeriesGroup]
    rules_sentence: str
    finished: bool


def rules_of(series: Series) -> Rules:
    return Rules(
        points=tuple(series.points),
        best=series.best,
        ties=series.ties,
        min_events=series.min_events,
    )


def series_standings(series: Series, names: Callable[[int], str] | None = None) -> SeriesStandings:
    """The series' standings per group, each line's results by event. `names` gives the name
    to show for a player id (a page passes its club's rule for shown names); None: full
    names, for the command and the directors."""
    events = series_events(series)
    places = [_event_places(event) for event in events]
    entrants = {p.player for e in places for p in e.placings if p.player > 0}
    rankable = _rankable(series, entrants)
    name_of = names or _full_names(rankable)
    rules = rules_of(series)
    finished = is_finished(series, timezone.localdate())
    groups = []
    grouped = (
        _section_groups(events, places, rankable)
        if series.by_section
        else _groups(series, events, rankable)
    )
    for label, members in grouped:
        rows = engine.score(places, rules, members)
        lines = _ordered([_line(row, name_of) for row in rows])
        groups.append(SeriesGroup(label, lines, _winners(lines) if finished else []))
    return SeriesStandings(series, events, groups, rules_sentence(series, events), finished)


def _event_places(event: Event) -> EventPlaces:
    """Every entrant's final place. An entrant without a player holds their place under the
    negative of their entry's id: it can never be followed across events, so never ranks."""
    return EventPlaces(
        event.pk,
        tuple(
            Placing(
                standing.player_id if standing.player_id is not None else -standing.entry_id,
                standing.rank,
                Fraction(standing.points),  # halves: exact as a float
            )
            for standing in final_ranking(event).standings
        ),
    )


def _rankable(series: Series, entrants: set[int]) -> set[int]:
    """Who may be ranked: every entrant linked to a player, or for members only those on
    the club's roster (not held: met in a draft and never added by a director)."""
    if not series.members_only:
        return entrants
    return set(
        Player.objects.filter(club_id=series.club_id, pk__in=entrants, held=False).values_list(
            "pk", flat=True
        )
    )


def _full_names(players: set[int]) -> Callable[[int], str]:
    found = dict(Player.objects.filter(pk__in=players).values_list("pk", "name"))
    return lambda pid: found.get(pid, "")


def _line(row: engine.Row, name_of: Callable[[int], str]) -> SeriesLine:
    return SeriesLine(
        rank=row.rank,
        player_id=row.player,
        name=name_of(row.player),
        total=row.total,
        sum_text=engine.sum_text(row),
        results={scored.event: scored for scored in row.results},
    )


def _ordered(lines: list[SeriesLine]) -> list[SeriesLine]:
    """Ranked players by rank and inside a rank by name; the unranked after, by total, then
    by name."""
    ranked = [line for line in lines if line.rank is not None]
    unranked = [line for line in lines if line.rank is None]
    ranked.sort(key=lambda line: (line.rank, line.name.casefold(), line.player_id))
    unranked.sort(key=lambda line: (-line.total, line.name.casefold(), line.player_id))
    return ranked + unranked


def _winners(lines: list[SeriesLine]) -> list[SeriesLine]:
    return [line for line in lines if line.rank == 1]


def is_finished(series: Series, today: dt.date) -> bool:
    """Past its last day, or (events chosen one by one) every chosen event published and
    dated before today."""
    if series.date_to is not None:
        return series.date_to < today
    if series.kinds:
        return False
    chosen = list(series.events.all())
    return bool(chosen) and all(event.is_published and event.date < today for event in chosen)


# --- groups by rating ---------------------------------------------------------------------------


def series_ladder(series: Series, events: Sequence[Event]) -> Ladder:
    """The ladder that rates the series' kinds (its events' kinds, when chosen one by one),
    else the club's first: the one whose ratings make the groups."""
    kinds = series.kinds or sorted({event.kind for event in events})
    rating = {Ladder.objects.of_kind(series.club_id, kind) for kind in kinds} - {None}
    if len(rating) == 1:
        return rating.pop()  # type: ignore[return-value]
    first = Ladder.objects.first_of(series.club_id)
    assert first is not None  # every club has a first ladder
    return first


def rating_day(series: Series, events: Sequence[Event]) -> dt.date | None:
    """The day whose ratings make the groups: the one before the series' first day (its
    first event's, for events chosen one by one); None before any event."""
    first = series.date_from or (events[0].date if events else None)
    return None if first is None else first - dt.timedelta(days=1)


def _groups(
    series: Series, events: Sequence[Event], players: set[int]
) -> list[tuple[str, set[int]]]:
    """(label, players) of each group, the highest band first; one unnamed group without
    bands. A player without a rating on that day (no rated game yet) is in the lowest."""
    bands: list[int] = list(series.rating_bands)
    if not bands:
        return [("", players)]
    day = rating_day(series, events)
    ratings: dict[int, float] = {}
    if day is not None and players:
        ladder = series_ladder(series, events)
        ratings = {
            pid: summary.rating
            for pid, summary in dated.ladder_on(series.club, day, ladder)
            if pid in players and summary.rated_games > 0
        }
    members: list[set[int]] = [set() for _band in range(len(bands) + 1)]
    for player in players:
        rating = ratings.get(player)
        band = 0 if rating is None else sum(rating >= low for low in bands)
        members[band].add(player)
    labels = band_labels(bands)
    return [(labels[band], members[band]) for band in reversed(range(len(bands) + 1))]


def band_labels(bands: Sequence[int]) -> list[str]:
    """ "below 1200", "1200–1599", "1600 and up" for the bands [1200, 1600], lowest first."""
    labels = [_("below %(rating)d") % {"rating": bands[0]}]
    for low, high in pairwise(bands):
        labels.append(f"{low}–{high - 1}")  # the same in every language
    labels.append(_("%(rating)d and up") % {"rating": bands[-1]})
    return labels


# --- groups by section -------------------------------------------------------------------------


def section_order(events: Sequence[Event]) -> list[str]:
    """The sections' names highest first: by their place in their evenings (an Open above a
    Minor), then by name; read from every section of the events' evenings, so a section
    left out of the series still keeps the others in their places."""
    evenings = {event.evening_id for event in events if event.evening_id is not None}
    place: dict[str, int] = {}
    if evenings:
        found = (
            Event.objects.filter(evening_id__in=evenings)
            .not_deleted()
            .order_by("evening_id", "order_in_day", "id")
            .values_list("evening_id", "section")
        )
        position: dict[int, int] = {}
        for evening_id, section in found:
            at = position.get(evening_id, 0)
            position[evening_id] = at + 1
            place[section] = min(place.get(section, at), at)
    named = {event.section for event in events if event.section}
    return sorted(named, key=lambda section: (place.get(section, len(place)), section))


def _section_groups(
    events: Sequence[Event], places: Sequence[EventPlaces], players: set[int]
) -> list[tuple[str, set[int]]]:
    """(section, players) highest section first, each player in the section of most of
    their events (ladder.series.section_of); those who played no section last."""
    order = section_order(events)
    played: dict[int, list[str]] = {}
    for event, event_places in zip(events, places, strict=True):
        for placing in event_places.placings:
            if placing.player in players:
                played.setdefault(placing.player, []).append(event.section)
    members: dict[str, set[int]] = {}
    for player, sections in played.items():
        members.setdefault(engine.section_of(sections, order), set()).add(player)
    groups = [(section, members[section]) for section in order if section in members]
    if "" in members:
        groups.append((_("without a section"), members[""]))
    return groups or [("", set())]


# --- the rules in one sentence ------------------------------------------------------------------


def rules_sentence(series: Series, events: Sequence[Event] = ()) -> str:
    """The rules as the page states them above the standings, in the reader's language."""
    parts = []
    if series.points:
        table = ", ".join(str(points) for points in series.points)
        parts.append(_("points by final place: %(points)s, then 0") % {"points": table})
        if series.ties == Series.Ties.HIGHER:
            parts.append(_("tied places each take the higher place's points"))
        else:
            parts.append(_("tied places share their points"))
    else:
        parts.append(_("the game points scored in each event"))
    if series.best is None:
        parts.append(_("every result counts"))
    else:
        parts.append(
            ngettext("the best result counts", "the best %(count)d results count", series.best)
            % {"count": series.best}
        )
    if series.members_only:
        parts.append(_("members only"))
    if series.min_events > 1:
        parts.append(
            ngettext(
                "ranked from %(count)d event played",
                "ranked from %(count)d events played",
                series.min_events,
            )
            % {"count": series.min_events}
        )
    parts.append(_("equal totals share a place"))
    if series.rating_bands:
        day = rating_day(series, events)
        groups = ", ".join(reversed(band_labels(series.rating_bands)))
        if day is None:
            said = _("groups by rating before the first event: %(groups)s")
        else:
            said = _("groups by rating on %(day)s: %(groups)s")
        parts.append(said % {"groups": groups, "day": formats.date_format(day) if day else ""})
    if series.by_section:
        sections = ", ".join(section_order(events))
        if sections:
            parts.append(_("each section ranked apart: %(sections)s") % {"sections": sections})
        else:
            parts.append(_("each section ranked apart"))
    sentence = "; ".join(parts)
    return f"{sentence[:1].upper()}{sentence[1:]}."
