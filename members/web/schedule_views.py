"""What is next at a club (issue 37): the upcoming events page at c/<slug>/schedule/, the
club's calendar at c/<slug>/calendar.ics and its published results as an Atom feed at
c/<slug>/results.atom (each with its s/<secret>/ twin, as every club page).

Every one goes through members.web.club_view, as the other club pages: one 404 for a club the
visitor may not see, the inactive notice while the subscription is off, the page cache (keyed
on the day, so "from today" moves at midnight, and on the club's versions, which every
schedule write moves). The feeds are downloads there (no notice region in their text).
Nothing unpublished reaches them: a draft started from a date is linked only once published.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.syndication.views import Feed
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _

from clubs.models import Event
from members.files.calendar import calendar_text
from members.schedule import calendar_dates, upcoming_dates
from members.web.club_view import Visit, club_view

# The newest published events the results feed lists.
FEED_EVENTS = 30


@club_view()
def schedule_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    dates = upcoming_dates(visit.club, timezone.localdate())
    return render(
        request,
        "members/schedule/schedule.html",
        visit.context(dates=dates, section="schedule"),
    )


@club_view(download="ics")
def calendar_ics(request: HttpRequest, visit: Visit) -> HttpResponse:
    text = calendar_text(
        visit.club,
        calendar_dates(visit.club, timezone.localdate()),
        results_url=lambda event: request.build_absolute_uri(f"{visit.base}events/{event.pk}/"),
        page_url=request.build_absolute_uri(f"{visit.base}schedule/"),
    )
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    # Shown or subscribed to, not saved: a calendar client reads it at this address.
    response["Content-Disposition"] = f'inline; filename="{visit.club.slug}.ics"'
    return response


@club_view(download="atom")
def results_atom(request: HttpRequest, visit: Visit) -> HttpResponse:
    return ResultsFeed(visit)(request)


class ResultsFeed(Feed):
    """The club's newest published events, each linking its results page (as this visitor
    reached the club: with the secret when they used it). Django's syndication framework
    writes and escapes the XML."""

    feed_type = Atom1Feed

    def __init__(self, visit: Visit) -> None:
        super().__init__()
        self.visit = visit

    def get_object(self, request: HttpRequest, *args: object, **kwargs: object) -> Visit:
        return self.visit

    def title(self, visit: Visit) -> str:
        return _("%(club)s: results") % {"club": visit.club.name}

    def subtitle(self, visit: Visit) -> str:
        return _("Newly published events of %(club)s.") % {"club": visit.club.name}

    def link(self, visit: Visit) -> str:
        return f"{visit.base}events/"

    def feed_url(self, visit: Visit) -> str:
        return f"{visit.base}results.atom"

    def items(self, visit: Visit) -> list[Event]:
        return list(
            Event.objects.published()
            .filter(club=visit.club)
            .order_by("-date", "-order_in_day", "-created_at")
            .only("id", "name", "date", "kind", "created_at")[:FEED_EVENTS]
        )

    def item_title(self, item: Event) -> str:
        return item.name  # escaped once, by the XML writer

    def item_description(self, item: Event) -> str:
        return _("%(kind)s, %(date)s") % {
            "kind": item.get_kind_display(),
            "date": item.date.isoformat(),
        }

    def item_link(self, item: Event) -> str:
        return f"{self.visit.base}events/{item.pk}/"

    def item_guid(self, item: Event) -> str:
        return f"{self.visit.base}events/{item.pk}/"

    def item_updateddate(self, item: Event) -> dt.datetime:
        # The day it was played, at midnight in the club's zone: a date is what the club
        # page shows, and it stays the same on every reading (no ETag churn).
        return dt.datetime.combine(item.date, dt.time(), tzinfo=self.visit.club.zone)

    def item_pubdate(self, item: Event) -> dt.datetime:
        return self.item_updateddate(item)
