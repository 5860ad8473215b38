"""The members' page of a club night while it is played (c/<slug>/events/<id>/live/)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from clubs.models import Event
from ladder.roster.rosters import load_roster
from members.pages.live_page import live_page
from members.web.club_view import Visit, club_view

# Long enough for a parent's phone to stay calm, short enough to follow a round.
REFRESH_SECONDS = 30


@club_view(live=True)
def live_event(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    event = visit.club.events.not_deleted().filter(pk=event_id).exclude(pairing_system="").first()
    if event is None:
        raise Http404(NOT_FOUND)
    if event.status == Event.Status.PUBLISHED:
        # Over: its page is the event's own, rated.
        return redirect(f"{visit.base}events/{event.pk}/")
    roster = load_roster(visit.club, visit.is_director)
    # A club night's newcomer is held (clubs.models.Player.held): named once it is published.
    live = live_page(event, roster, _("newcomer"))
    # An evening of several sections: every other section below this one (one published
    # already is a link to its page).
    others = [section for section in event.sections() if section.pk != event.pk]
    other_live = [live_page(s, roster, _("newcomer")) for s in others if not s.is_published]
    published = [section for section in others if section.is_published]
    # Reloading by itself only when the visitor asks (?follow=1), with a link to stop: a
    # page that changes under a reader who did not ask is a time limit they cannot turn
    # off (WCAG 2.2.1). Both work without JavaScript.
    following = request.GET.get("follow") == "1"
    return render(
        request,
        "members/pages/live_event.html",
        visit.context(
            live=live,
            other_sections=other_live,
            published_sections=published,
            section="events",
            following=following,
            refresh_seconds=REFRESH_SECONDS,
        ),
    )
