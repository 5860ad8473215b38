"""A club's Grand Prix series (issue 38): the list at c/<slug>/series/, each series' standings
at c/<slug>/series/<series>/ and the same standings as a file at c/<slug>/series/<series>.csv
(the ladder downloads' convention: a file's name ends its path).

Every page goes through members.web.club_view (visibility, the page cache, the "being
recalculated" notice, noindex). Nothing is stored for a series: the standings are worked out
from its events' final places on every build (members.series), and the page cache keeps them
under the club's versions, which any change to one of those events, or to the series, moves.
Names follow the club's rule (ladder.roster shown names), as on the ladder and season pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from clubs.models import Event, Series
from ladder.roster.rosters import Roster, load_roster
from ladder.series import Scored, points_text
from members.files.spreadsheet import csv_table
from members.series import SeriesGroup, SeriesLine, SeriesStandings, series_standings
from members.web.club_view import Visit, club_view, file_response


@club_view()
def series_list_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    series = list(Series.objects.filter(club=visit.club).order_by("-date_from", "name", "id"))
    return render(
        request, "members/series/list.html", visit.context(series_list=series, section="series")
    )


@club_view()
def series_page(request: HttpRequest, visit: Visit, series: str) -> HttpResponse:
    found = _series(visit, series)
    roster = load_roster(visit.club, visit.is_director)
    standings = series_standings(found, names=_names(roster))
    return render(
        request,
        "members/series/series.html",
        visit.context(
            standings=standings,
            groups=[_shown_group(group, standings.events, roster) for group in standings.groups],
            section="series",
        ),
    )


@club_view(download="csv")
def series_csv(request: HttpRequest, visit: Visit, series: str) -> HttpResponse:
    found = _series(visit, series)
    standings = series_standings(found, names=_names(load_roster(visit.club, visit.is_director)))
    return file_response(
        _csv(standings), "text/csv", f"{visit.club.slug}-{found.slug}.csv", visit.club
    )


def _series(visit: Visit, slug: str) -> Series:
    """The club's series of that slug; any other is the same 404 as an unknown club."""
    found = Series.objects.filter(club=visit.club, slug=slug).first()
    if found is None:
        raise Http404(NOT_FOUND)
    found.club = visit.club  # the club already read, with its ladders, not read again
    return found


def _names(roster: Roster) -> Callable[[int], str]:
    """The name each player has on the club's other pages for this visitor (initials for a
    junior without consent, or for every player of a club showing initials)."""
    unconfirmed = _("unconfirmed player")
    return lambda player_id: roster.names.get(player_id, unconfirmed)


# --- what a table shows ----------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One event's result of one player: its points as written, or empty (did not play)."""

    text: str
    place: int | None
    counted: bool


@dataclass(frozen=True)
class ShownLine:
    line: SeriesLine
    linked: bool  # on the club's player pages (a player the roster leaves out has none)
    cells: list[Cell]


@dataclass(frozen=True)
class ShownGroup:
    label: str
    winners: list[SeriesLine]
    ranked: list[ShownLine]
    unranked: list[ShownLine]  # too few events to be ranked: after the ranked ones
    has_discarded: bool


def _cell(scored: Scored | None) -> Cell:
    if scored is None:
        return Cell("", None, counted=True)
    return Cell(points_text(scored.points), scored.place, scored.counted)


def _shown_group(group: SeriesGroup, events: list[Event], roster: Roster) -> ShownGroup:
    lines = [
        ShownLine(
            line,
            line.player_id in roster.names,
            [_cell(line.results.get(event.pk)) for event in events],
        )
        for line in group.lines
    ]
    return ShownGroup(
        label=group.label,
        winners=group.winners,
        ranked=[shown for shown in lines if shown.line.rank is not None],
        unranked=[shown for shown in lines if shown.line.rank is None],
        has_discarded=any(not cell.counted for shown in lines for cell in shown.cells),
    )


# --- the file --------------------------------------------------------------------------------

CSV_FIELDS = ("group", "rank", "name", "total", "sum")


def _csv(standings: SeriesStandings) -> str:
    """One line per player and group, the events' points in columns named by their dates and
    names; a result not counted (past the best N) is in brackets, as on the page."""
    events = standings.events
    fields = [*CSV_FIELDS, *(f"{event.date.isoformat()} {event.name}" for event in events)]
    rows = [
        [
            group.label,
            line.rank,
            line.name,
            points_text(line.total),
            line.sum_text,
            *(_file_points(line.results.get(event.pk)) for event in events),
        ]
        for group in standings.groups
        for line in group.lines
    ]
    return csv_table(fields, rows)


def _file_points(scored: Scored | None) -> str:
    if scored is None:
        return ""
    text = points_text(scored.points)
    return text if scored.counted else f"({text})"
