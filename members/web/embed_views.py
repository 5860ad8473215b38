"""Small pages made to be framed by the club's own website (issue 37): the ladder (its top N
with `?top=N`, or all), the upcoming events and one event's standings, at c/<slug>/embed/…
and c/<slug>/s/<secret>/embed/….

They go through members.web.club_view like every club page (one 404 for a club the visitor
may not see, juniors' initials, nothing unpublished, the inactive notice, the page cache).
What sets them apart is their framing: every other page forbids frames (X-Frame-Options
DENY, CSP frame-ancestors 'none'); these send `frame-ancestors 'self'` and the sites the
club lists (Club.embed_origins), and no X-Frame-Options, which cannot name a site. The
header is set on every answer, kept page or new, so a kept page never carries another
moment's list. Their links open the full page in a new tab: a frame is a window on the
club's site, not a place to browse ours.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from csp.constants import SELF
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from clubs.models import Club, Ladder
from ladder.roster import rosters
from ladder.store import standings as standings_store
from members.pages.events import event_pages
from members.schedule import upcoming_dates
from members.web.club_view import ClubView, Visit, club_view

# ?top=N shows the first N of the ladder; a number outside this range shows the whole ladder.
MOST_TOP = 200
# The upcoming dates an embed lists: a small box on someone else's page.
EMBED_DATES = 10


def framed_by_club_sites(response: HttpResponse, origins: list[str]) -> HttpResponse:
    """Let the club's own sites (and this site) frame the answer, and no one else."""
    # django-csp writes the header from the site's policy, with this directive replaced.
    response._csp_replace = {"frame-ancestors": [SELF, *origins]}  # type: ignore[attr-defined]
    # XFrameOptionsMiddleware leaves an exempt answer alone; frame-ancestors is the rule.
    response.xframe_options_exempt = True
    return response


def embed_view(*, free: bool = False, one_ladder: bool = False) -> Callable[[ClubView], ClubView]:
    """club_view, and the framing of an embed on the answer it gives (a kept page, a 304,
    the inactive notice: each may be asked for inside a frame)."""

    def decorate(view: ClubView) -> ClubView:
        page = club_view(free=free, one_ladder=one_ladder)(view)

        @wraps(view)
        def wrapper(
            request: HttpRequest, slug: str, secret: str | None = None, **kwargs: Any
        ) -> HttpResponse:
            response = page(request, slug, secret, **kwargs)  # a 404 raises before this
            # Read apart from club_view's club: a kept page is answered without the view,
            # and one small read by the unique slug keeps club_view unchanged.
            origins = Club.objects.filter(slug=slug).values_list("embed_origins", flat=True)
            return framed_by_club_sites(response, list(next(iter(origins), None) or []))

        return wrapper

    return decorate


def asked_top(value: str | None) -> int | None:
    """?top=N as a number of rows, or None for the whole ladder."""
    if value is None or not value.isdigit():
        return None
    top = int(value)
    return top if 1 <= top <= MOST_TOP else None


def _ladder(visit: Visit, slug: str | None) -> Ladder:
    ladders = visit.ladders
    shown = ladders[0] if slug is None else next((la for la in ladders if la.slug == slug), None)
    if shown is None:
        raise Http404(NOT_FOUND)
    return shown


@embed_view(one_ladder=True)
def embed_ladder(request: HttpRequest, visit: Visit, ladder: str | None = None) -> HttpResponse:
    shown = _ladder(visit, ladder)
    rows = rosters.load_roster(visit.club, visit.is_director, shown).ladder(None)
    top = asked_top(request.GET.get("top"))
    first = visit.ladders[0]
    full_page = visit.base if shown == first else f"{visit.base}ladders/{shown.slug}/"
    return render(
        request,
        "members/embed/ladder.html",
        visit.context(
            ladder=shown,
            status_ladder=shown,
            rows=rows[:top] if top else rows,
            more=len(rows) - top if top and len(rows) > top else 0,
            full_page=full_page,
        ),
    )


@embed_view()
def embed_schedule(request: HttpRequest, visit: Visit) -> HttpResponse:
    dates = upcoming_dates(visit.club, timezone.localdate(), limit=EMBED_DATES)
    return render(
        request,
        "members/embed/schedule.html",
        visit.context(dates=dates, full_page=f"{visit.base}schedule/"),
    )


@embed_view(free=True)
def embed_event(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """One published event's final standings, as its page ranks them."""
    event = standings_store.published_event(visit.club, event_id)
    if event is None:
        raise Http404(NOT_FOUND)
    roster = rosters.load_roster(visit.club, visit.is_director)
    page = event_pages.event_page(event, roster, _("unconfirmed player"))
    return render(
        request,
        "members/embed/event.html",
        visit.context(page=page, full_page=f"{visit.base}events/{event.pk}/"),
    )
