"""An event's pages: the event page (standings and rating changes), its rounds board by board,
its wall chart and its rating changes, each at c/<slug>/events/<id>/… and by the event's own
result link (results/<token>/…), and its results as files.

The rounds and the wall chart are pages of their own (issue 27): each lists every entrant
or every game, so on one page they made a 284-player open 494 KB and a 2,000-player one
3.9 MB. So are a large event's rating changes (event_rules.CHANGES_ON_EVENT_PAGE); a small
one's are on the event page too. They go through the same access helper, page cache and
noindex rules as the event page: club_view for the club's links, the share token for the
event's own.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs.access import NOT_FOUND, event_for_share_token
from clubs.models import Event
from ladder import jobs
from ladder.roster import rosters
from ladder.store import standings as standings_store
from members.files.event_export import event_csv, event_trf
from members.files.event_export import file_name as export_file_name
from members.pages.events import event_pages, event_rounds
from members.web import ladder_parts
from members.web.club_view import Visit, club_view, file_response, kept_or_built, protect
from members.web.language import use_club_language

EVENT_TEMPLATE = "members/pages/event.html"
ROUNDS_TEMPLATE = "members/pages/event_rounds.html"
WALLCHART_TEMPLATE = "members/pages/event_wallchart.html"
RATINGS_TEMPLATE = "members/pages/event_ratings.html"

# One part of an event's pages: the template and the context of its page, from the visit,
# the event and the request's query.
Part = Callable[[HttpRequest, Visit, Event], tuple[str, dict[str, object]]]


def _standings(request: HttpRequest, visit: Visit, event: Event) -> tuple[str, dict[str, object]]:
    roster = rosters.load_roster(visit.club, visit.is_director)
    after = event_pages.read_after(request.GET.get("after"))
    page = event_pages.event_page(event, roster, _("unconfirmed player"), after)
    # The ladder it fed, linked on the club's pages (a shared link's base is empty).
    fed = ladder_parts.fed_context(event, visit.ladders, visit.base)
    return EVENT_TEMPLATE, {"page": event_pages.paged(page, _page_number(request)), **fed}


def _rounds(request: HttpRequest, visit: Visit, event: Event) -> tuple[str, dict[str, object]]:
    roster = rosters.load_roster(visit.club, visit.is_director)
    round_no = event_pages.read_after(request.GET.get("round"))
    page = event_rounds.rounds_page(event, roster, _("unconfirmed player"), round_no)
    return ROUNDS_TEMPLATE, {"page": page}


def _wallchart(request: HttpRequest, visit: Visit, event: Event) -> tuple[str, dict[str, object]]:
    roster = rosters.load_roster(visit.club, visit.is_director)
    page = event_pages.event_page(event, roster, _("unconfirmed player"), wallchart=True)
    if page.wallchart is None:  # a round robin (its crosstable is on the event page), no games
        raise Http404(NOT_FOUND)
    return WALLCHART_TEMPLATE, {"page": event_pages.paged(page, _page_number(request))}


def _ratings(request: HttpRequest, visit: Visit, event: Event) -> tuple[str, dict[str, object]]:
    roster = rosters.load_roster(visit.club, visit.is_director)
    page = event_pages.event_page(event, roster, _("unconfirmed player"))
    if not (page.rated and page.rating_changes):  # an event that moved no rating
        raise Http404(NOT_FOUND)
    fed = ladder_parts.fed_context(event, visit.ladders, visit.base)
    return RATINGS_TEMPLATE, {"page": event_pages.paged(page, _page_number(request)), **fed}


def _page_number(request: HttpRequest) -> int | None:
    """?page= of a large event's standings, rating changes and wall chart
    (event_rules.ROWS_PER_PAGE rows)."""
    return event_pages.read_after(request.GET.get("page"))


def _club_part(request: HttpRequest, visit: Visit, event_id: int, part: Part) -> HttpResponse:
    event = _published_event(visit, event_id)
    template, context = part(request, visit, event)
    response = render(request, template, visit.context(section="events", **context))
    _keep_if_missed(visit, event, context)
    return response


def _keep_if_missed(visit: Visit, event: Event, context: dict[str, object]) -> None:
    """Queue the keeping of the event's final standings when its page had to rank them live
    (a replay keeps only the events a write touched first: a later event's row waits for
    its first read). Not while a ladder is being recalculated: its rating lines are about
    to move, and the replay's own job keeps what it touched."""
    page = context.get("page")
    if not isinstance(page, event_pages.EventPage) or not page.keep_missed:
        return
    if all(ladder.is_current for ladder in visit.ladders):
        jobs.enqueue_event_standings(visit.club.pk, event.pk)


@club_view(free=True)
def event_page(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    return _club_part(request, visit, event_id, _standings)


@club_view(free=True)
def event_rounds_page(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """The event's rounds board by board (every round, or ?round=N)."""
    return _club_part(request, visit, event_id, _rounds)


@club_view(free=True)
def event_wallchart(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """A Swiss event's wall chart: every entrant's opponent, colour and result per round."""
    return _club_part(request, visit, event_id, _wallchart)


@club_view(free=True)
def event_ratings_page(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """A rated event's rating changes, each worked out from the numbers its row prints."""
    return _club_part(request, visit, event_id, _ratings)


@club_view(download="trf")
def event_results_trf(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """The event page's results as a TRF16 file, names as the page shows them."""
    event = _published_event(visit, event_id)
    text = event_trf(event, viewer_is_director=visit.is_director)
    return file_response(text, "text/plain", export_file_name(event, "trf"), visit.club)


@club_view(download="csv")
def event_results_csv(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    event = _published_event(visit, event_id)
    text = event_csv(event, viewer_is_director=visit.is_director)
    return file_response(text, "text/csv", export_file_name(event, "csv"), visit.club)


def _published_event(visit: Visit, event_id: int) -> Event:
    """The club's published event."""
    event = standings_store.published_event(visit.club, event_id)
    if event is None:
        raise Http404(NOT_FOUND)
    return event


def _shared(request: HttpRequest, share_token: str, part: Part) -> HttpResponse:
    """One event's pages by its own link: as any visitor sees them, with no way to the
    club's other pages and nothing of the club's secret, never indexed. Free, like every
    event's page."""
    event = event_for_share_token(share_token)
    use_club_language(request, event.club.language)
    # Not open and not a director: names as the public sees them, and no player links.
    visit = Visit(event.club, is_director=False, page_active=False, base="")

    def view(request: HttpRequest, visit: Visit) -> HttpResponse:
        template, context = part(request, visit, event)
        # members/pages/shared_event.html extends the part's own template without the club's links.
        context.update(noindex=True, shared=True, event_template=template)
        response = render(request, "members/pages/shared_event.html", visit.context(**context))
        _keep_if_missed(visit, event, context)
        return response

    return protect(kept_or_built(view, request, visit, download=False), noindex=True)


@require_safe
def shared_event(request: HttpRequest, share_token: str) -> HttpResponse:
    return _shared(request, share_token, _standings)


@require_safe
def shared_event_rounds(request: HttpRequest, share_token: str) -> HttpResponse:
    return _shared(request, share_token, _rounds)


@require_safe
def shared_event_wallchart(request: HttpRequest, share_token: str) -> HttpResponse:
    return _shared(request, share_token, _wallchart)


@require_safe
def shared_event_ratings(request: HttpRequest, share_token: str) -> HttpResponse:
    return _shared(request, share_token, _ratings)
