"""The club's seasons (c/<slug>/seasons/) and each season's page (c/<slug>/seasons/2025-26/)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from ladder.roster.rosters import load_roster
from ladder.seasons import summary
from ladder.seasons.dates import parse_season
from members import seasons as report
from members.web.club_view import Visit, club_view


@club_view()
def seasons_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    seasons = report.season_list(visit.club, timezone.localdate())
    return render(
        request, "members/seasons/list.html", visit.context(seasons=seasons, section="seasons")
    )


@club_view()
def season_page(
    request: HttpRequest, visit: Visit, season: str, ladder: str | None = None
) -> HttpResponse:
    """A season the list links, on the club's first ladder (seasons/2025-26/) or on another
    (seasons/2025-26/blitz/); any other label (malformed, or a season without an event that
    is not the current one) or ladder is a 404, and the first ladder's own address leads to
    the season's page."""
    today = timezone.localdate()
    found = parse_season(season, visit.club.season_start_month)
    if found is None or not report.has_page(visit.club, found, today):
        raise Http404(NOT_FOUND)
    ladders = visit.ladders
    shown = (
        ladders[0] if ladder is None else next((la for la in ladders if la.slug == ladder), None)
    )
    if shown is None:
        raise Http404(NOT_FOUND)
    if ladder is not None and shown == ladders[0]:
        return redirect(f"{visit.base}seasons/{found.label}/")
    roster = load_roster(visit.club, visit.is_director)
    page = report.season_page(visit.club, found, roster, _("unconfirmed player"), today, shown)
    return render(
        request,
        "members/seasons/season.html",
        visit.context(
            page=page,
            section="seasons",
            min_improved=summary.MIN_IMPROVED_GAMES,
            min_performance=summary.MIN_PERFORMANCE_GAMES,
            ladders=ladders,
            shown_ladder=shown,
            series_list=report.season_series(visit.club, found),
        ),
    )
