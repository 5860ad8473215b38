"""The club pages as members and visitors see them, the public directory, and the rebuild button.

Every club page is wrapped in club_view (members/web/club_view.py): visibility, language,
headers, the inactive notice and the page cache. A single event's page stays open by its
own link.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import audit
from clubs.access import (
    NOT_FOUND,
    AuthedRequest,
    club_for_director,
)
from clubs.models import Club, Event, Ladder, Player
from ladder.changes import request_full_rebuild
from ladder.roster import rosters
from members.pages import rating_rules
from members.pages.events import event_list, event_pages
from members.pages.list_pages import roster_list
from members.pages.player_page import RECENT_LIMIT, Shown, club_rules, ladder_timelines
from members.pages.player_page import player_page as player_page_data
from members.pages.tables import roster_body_kept
from members.web import ladder_parts
from members.web.club_view import Visit, club_view
from members.web.long_tables import ROWS_HERE, with_rows


@club_view()
def roster_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    roster = rosters.load_roster(visit.club, visit.is_director)
    players = roster.by_name()
    listed = roster_list(players, request.GET, roster.keeper("roster order"))
    below = rosters.provisional_below(visit.club)
    response = render(
        request,
        "members/pages/roster.html",
        visit.context(
            players=players,
            listed=listed,
            rows_here=ROWS_HERE,
            provisional_below=below,
            section="players",
        ),
    )
    # A row's text depends on its player and on these: kept with the roster for them.
    row_texts: dict[int, bytes] = roster.kept(
        ("roster rows", translation.get_language(), visit.base, below), dict
    )
    return with_rows(response, roster_body_kept(listed["shown"], visit.base, below, row_texts))


@club_view()
def player_page(request: HttpRequest, visit: Visit, player_id: int) -> HttpResponse:
    """The last twelve months in full, or with ?year=2021 one year's events in full (a
    year without an event of the player is a 404); the lifetime record and the chart's
    line always cover the whole history."""
    year = _year(request.GET.get("year"))
    if year is None:
        since = rosters.active_since(timezone.localdate())
        shown = Shown(since=since, limit=RECENT_LIMIT)
    else:
        shown = Shown(year=year)
    ladders = visit.ladders
    roster = rosters.load_roster(visit.club, visit.is_director, ladders[0])
    page = player_page_data(visit.club, roster, player_id, shown)
    if page is not None and year is not None and not page.events:
        raise Http404(NOT_FOUND)
    if page is None:
        kept = (
            Player.objects.filter(club=visit.club, pk=player_id, merged_into__isnull=False)
            .public()
            .values_list("merged_into_id", flat=True)
            .first()
        )
        if kept is None:
            raise Http404(NOT_FOUND)
        return redirect(f"{visit.base}players/{kept}/")
    # A part per ladder the player played on (members.web.ladder_parts): each its rating,
    # chart and events; the first ladder's alone is the page a club of one ladder shows.
    # Each ladder's outline is read only for a club of several (a query more).
    timelines = None if len(ladders) == 1 else ladder_timelines(visit.club, page.player.id)
    on = [la for la in ladders if la.pk in (timelines or {}) or la == ladders[0]]
    by_ladder = {la.pk: rosters.load_roster(visit.club, visit.is_director, la) for la in on}
    rules = {la.pk: club_rules(visit.club, la) for la in on}
    parts = ladder_parts.ladder_parts(page, on, by_ladder, rules, timelines)
    several = len(parts) > 1 or parts[0].ladder != ladders[0]
    return render(
        request,
        "members/pages/player.html",
        visit.context(
            page=page if several else parts[0].page,
            chart=parts[0].chart,
            parts=parts,
            several=several,
            section="players",
        ),
    )


def _year(value: str | None) -> int | None:
    """A year from the query, or None for the default page (as other unknown values are)."""
    if value is None or not value.isascii() or not value.isdigit() or len(value) != 4:
        return None
    return int(value)


@club_view()
def rating_rules_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    """How ratings are calculated, from this club's own settings."""
    page = rating_rules.rules_page(visit.club)
    return render(
        request, "members/pages/rating_rules.html", visit.context(page=page, section="rules")
    )


@club_view()
def events_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    kinds = dict(Event.Kind.choices)
    kind = request.GET.get("kind")
    if kind not in kinds:
        kind = None  # an unknown kind shows every event rather than failing
    roster = rosters.load_roster(visit.club, visit.is_director)
    number = event_pages.read_after(request.GET.get("page"))
    ladders = visit.ladders
    versions = tuple((ladder.pk, ladder.data_version) for ladder in ladders)
    unconfirmed = _("unconfirmed player")
    page = event_list.events_page(visit.club, kind, roster, unconfirmed, number, versions)
    # Club nights being played now (drafts run here), each with its live page.
    playing = visit.club.events.not_deleted().filter(status=Event.Status.DRAFT)
    playing = playing.exclude(pairing_system="").order_by("-date", "-id")
    return render(
        request,
        "members/pages/events.html",
        visit.context(
            events=page.events,
            page=page,
            kinds=kinds.items(),
            kind=kind,
            section="events",
            playing=list(playing.values("pk", "name", "date")),
            ladder_names=ladder_parts.ladder_names_by_kind(ladders),
            several_ladders=len(ladders) > 1,
        ),
    )


@require_safe
def directory(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.filter(visibility=Club.Visibility.PUBLIC).order_by("name")
    return render(request, "members/pages/directory.html", {"clubs": clubs})


@require_safe
def robots_txt(request: HttpRequest) -> HttpResponse:
    # Secret and per-event links are not disallowed: a crawler that may not fetch a page
    # never sees its noindex and can still index a leaked link as a bare address. It
    # fetches them, finds noindex in the header and the page, and they are in no sitemap.
    lines = [
        "User-agent: *",
        "Disallow: /manage/",
        "Disallow: /accounts/",
        "Disallow: /i18n/",
        "Disallow: /stripe/",
        "Allow: /",
        f"Sitemap: {settings.SITE_URL.rstrip('/')}{reverse('sitemap')}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@require_safe
def sitemap_xml(request: HttpRequest) -> HttpResponse:
    """Public clubs only: their ladders, roster, list of events, rating rules and every
    published event."""
    public = Club.Visibility.PUBLIC
    clubs = list(Club.objects.filter(visibility=public).order_by("slug").values_list("slug"))
    events = Event.objects.published().filter(club__visibility=public)
    by_club: dict[str, list[int]] = {slug: [] for (slug,) in clubs}
    for slug, event_id in events.order_by("club__slug", "-date", "-id").values_list(
        "club__slug", "id"
    ):
        by_club[slug].append(event_id)
    # Each club's ladders after its first (the first is the club's page itself).
    others: dict[str, list[str]] = {}
    ladders = Ladder.objects.filter(club__visibility=public).order_by("club__slug", "position")
    for slug, ladder in ladders.values_list("club__slug", "slug"):
        others.setdefault(slug, []).append(ladder)
    site = settings.SITE_URL.rstrip("/")
    urls = []
    for slug, event_ids in by_club.items():
        base = site + reverse("club_page", kwargs={"slug": slug})
        urls += [base, f"{base}players/", f"{base}events/", f"{base}how-ratings-work/"]
        urls += [f"{base}ladders/{ladder}/" for ladder in others.get(slug, [])[1:]]
        urls += [f"{base}events/{event_id}/" for event_id in event_ids]
    return render(
        request, "members/web/sitemap.xml", {"urls": urls}, content_type="application/xml"
    )


@require_POST
def rebuild(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    with transaction.atomic():
        request_full_rebuild(club.pk)
        audit.record(club, request.user, "ladder.rebuilt")
    messages.success(request, _("The ladder is being rebuilt from the first event."))
    return redirect("club_manage", slug=club.slug)
