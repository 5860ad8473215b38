"""The club's seasons (c/<slug>/seasons/) and each season's page (c/<slug>/seasons/2025-26/)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from ladder.roster.rosters import load_roster
from ladder.seasons import report, summary
from ladder.seasons.dates import parse_season
from ladder.web.club_view import Visit, club_view


@club_view()
def seasons_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    seasons = report.season_list(visit.club, timezone.localdate())
    return render(
        request, "ladder/seasons/list.html", visit.context(seasons=seasons, section="seasons")
    )


@club_view()
def season_page(request: HttpRequest, visit: Visit, season: str) -> HttpResponse:
    """A season the list links; any other label (malformed, or a season without an event
    that is not the current one) is a 404."""
    today = timezone.localdate()
    found = parse_season(season, visit.club.season_start_month)
    if found is None or not report.has_page(visit.club, found, today):
        raise Http404(NOT_FOUND)
    roster = load_roster(visit.club, visit.is_director)
    page = report.season_page(visit.club, found, roster, _("unconfirmed player"), today)
    return render(
        request,
        "ladder/seasons/season.html",
        visit.context(
            page=page,
            section="seasons",
            min_improved=summary.MIN_IMPROVED_GAMES,
            min_performance=summary.MIN_PERFORMANCE_GAMES,
        ),
    )
