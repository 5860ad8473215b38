"""The club pages as members and visitors see them, the public directory, and the rebuild button.

Every club page goes through club_view: the visibility check (one 404 for every
kind of "no"), the club's language, the noindex and no-referrer headers of a
non-public club and, while the subscription is off, the inactive notice for
visitors. A single event's page stays open by its own link.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, wraps
from typing import Any, Literal

from django.conf import settings
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs import audit
from clubs.access import (
    NOT_FOUND,
    AuthedRequest,
    club_for_director,
    club_for_visitor,
    event_for_share_token,
)
from clubs.models import Club, Event, Player
from ladder.changes import request_full_rebuild
from ladder.files.event_export import event_csv, event_trf
from ladder.files.event_export import file_name as export_file_name
from ladder.models import Ladder
from ladder.pages import event_pages
from ladder.pages.list_pages import roster_list
from ladder.pages.player_page import RECENT_LIMIT, Shown, club_rules
from ladder.pages.player_page import player_page as player_page_data
from ladder.roster import rosters
from ladder.rules import rating_rules
from ladder.web import ladder_parts, page_cache
from ladder.web.language import use_club_language


@dataclass(frozen=True)
class Visit:
    """One visitor's view of one club: who they are and where the club's pages live for them."""

    club: Club
    is_director: bool
    page_active: bool
    base: str  # the club page's path as this visitor reached it, with the secret if they used it

    @property
    def page_open(self) -> bool:
        return self.page_active or self.is_director

    @property
    def noindex(self) -> bool:
        return self.club.visibility != Club.Visibility.PUBLIC

    @cached_property
    def ladders(self) -> list[Ladder]:
        """The club's ladders, the first first: read with the club's row for a club of one
        (ClubQuerySet.with_ladder_versions), else one query, once a request."""
        return club_ladders(self.club)

    def context(self, **extra: Any) -> dict[str, Any]:
        return {
            "club": self.club,
            "visit": self,
            "base": self.base,
            "is_director": self.is_director,
            "noindex": self.noindex,
            **extra,
        }


def club_ladders(club: Club) -> list[Ladder]:
    """The club's ladders, the first first (Visit.ladders)."""
    if getattr(club, "ladders_count", None) == 1:
        first: Ladder = club.first_ladder()
        return [first]
    return list(Ladder.objects.for_club(club.pk))


def _visit(request: HttpRequest, slug: str, secret: str | None) -> Visit:
    club = club_for_visitor(request, slug, secret)
    use_club_language(request, club.language)
    if secret is None:
        base = reverse("club_page", kwargs={"slug": club.slug})
    else:
        base = reverse("club_page_secret", kwargs={"slug": club.slug, "secret": secret})
    return Visit(club, club.is_directed_by(request.user), club.page_is_active(), base)


def _protect(response: HttpResponse, noindex: bool) -> HttpResponse:
    if noindex:
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
    return response


ClubView = Callable[..., HttpResponse]


DataFormat = Literal["json", "csv", "trf"]


def club_view(
    *, free: bool = False, download: DataFormat | None = None, one_ladder: bool = False
) -> Callable[[ClubView], ClubView]:
    """A club page at c/<slug>/… and c/<slug>/s/<secret>/…; `free` pages stay open while
    the club's subscription is off; a `download` (named by its format) says in its content
    whether the ladder is current (an HTML page has the notice region of ladder/web/status.html
    instead), and answers in its own format while the subscription is off. The notice of a
    `one_ladder` page (the one its `ladder` argument names, or the first) is that ladder's."""

    def decorate(view: ClubView) -> ClubView:
        @wraps(view)
        @require_safe
        def wrapper(
            request: HttpRequest, slug: str, secret: str | None = None, **kwargs: Any
        ) -> HttpResponse:
            visit = _visit(request, slug, secret)
            if visit.page_open or free:
                page = _page(
                    view,
                    request,
                    visit,
                    download=download is not None,
                    one_ladder=one_ladder,
                    **kwargs,
                )
                return _protect(page, visit.noindex)
            # Nothing is deleted: subscribing again brings the page back as it was.
            if download is not None:
                notice = _inactive_download(download)
            else:
                notice = render(request, "ladder/pages/inactive.html", visit.context(noindex=True))
            # Renewing brings the page back at once: no cache may keep the notice.
            page_cache.not_shared(notice)
            return _protect(notice, noindex=True)

        return wrapper

    return decorate


def _inactive_download(data_format: DataFormat) -> HttpResponse:
    """The inactive notice in the download's own format, with 402 Payment Required.

    A script reading ladder.json, or a pairing program reading seeding.trf, must
    not take an HTML page for the file: the status tells it the club page is off
    until it renews, and the body says so to whoever looks. Nothing of the
    ladder, and no attachment header: it is not the file asked for.
    """
    message = _(
        "This club page is not active at the moment. Its results are kept safe and come "
        "back as soon as the club renews its subscription."
    )
    if data_format == "json":
        body = json.dumps({"error": "club_page_inactive", "message": message}, ensure_ascii=False)
        return HttpResponse(
            body, content_type="application/json; charset=utf-8", status=_PAYMENT_REQUIRED
        )
    return HttpResponse(
        f"{message}\n", content_type="text/plain; charset=utf-8", status=_PAYMENT_REQUIRED
    )


_PAYMENT_REQUIRED = 402


def _page(
    view: ClubView,
    request: HttpRequest,
    visit: Visit,
    *,
    download: bool,
    one_ladder: bool = False,
    **kwargs: Any,
) -> HttpResponse:
    """The view's page, from the page cache when the visitor may share it with others, or a
    304 when the visitor (or a CDN) already holds that page: the same body, whatever
    versions the key moved through."""
    if visit.is_director or not page_cache.may_use_cache(request):
        response = view(request, visit, **kwargs)
        page_cache.not_shared(response)
        return response
    key = page_cache.page_key(
        visit.club,
        path=page_cache.normal_path(request),
        language=translation.get_language(),
        page_open=visit.page_open,
        today=timezone.localdate(),
        download=download,
    )
    # An unlisted club's links carry its secret: never a copy in a shared cache.
    public = visit.club.visibility == Club.Visibility.PUBLIC
    kept = None if page_cache.asks_whether_it_exists(request) else page_cache.cached_page(key)
    if kept is None:
        response = view(request, visit, **kwargs)
        shareable = page_cache.shareable(request, response)
        kept = page_cache.keep_page(key, request, response)
        if kept is not None and page_cache.accepts_gzip(request):
            # Built in the ladder's present state: any notice it needs is in it already.
            response, tag = page_cache.kept_response(request, kept, status=None)
        elif kept is not None:
            tag = kept[2]
        elif shareable:  # too large to keep
            tag = page_cache.etag(response.content, page_cache.own_headers(response))
        response[page_cache.STATUS_HEADER] = "miss"
    else:
        shareable = True
        status = None if download else _status(visit, kwargs.get("ladder"), one_ladder)
        response, tag = page_cache.kept_response(request, kept, status)
        response[page_cache.STATUS_HEADER] = "hit"
    if not shareable:
        page_cache.not_shared(response)
    elif page_cache.not_modified(request, tag):
        response = HttpResponse(status=304)
        page_cache.share(response, tag, public=public)
    else:
        page_cache.share(response, tag, public=public)
    patch_vary_headers(response, ("Accept-Encoding",))
    return response


def _status(visit: Visit, ladder: str | None, one_ladder: bool) -> str | None:
    """The "being recalculated" notice a kept page needs now, or None: for a `one_ladder`
    page, whether its ladder (named by slug, or the first) is behind; for another page,
    whether any ladder of the club is."""
    context: dict[str, Any] = {"club": visit.club}
    if one_ladder:
        ladders = visit.ladders
        shown = next((la for la in ladders if la.slug == ladder), None) if ladder else ladders[0]
        if shown is None or shown.is_current:
            return None
        context["status_ladder"] = shown
    elif visit.club.ladder_is_current:
        return None
    return render_to_string("ladder/web/status.html", context)


def _download(text: str, content_type: str, filename: str, club: Club) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A file has no room for a notice; scripts can tell from the header that the
    # numbers are the last good ones while a replay is pending.
    response["X-Ladder-Status"] = "current" if club.ladder_is_current else "recalculating"
    return response


@club_view()
def roster_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    roster = rosters.load_roster(visit.club, visit.is_director)
    players = roster.by_name()
    listed = roster_list(players, request.GET)
    below = rosters.provisional_below(visit.club)
    return render(
        request,
        "ladder/pages/roster.html",
        visit.context(players=players, listed=listed, provisional_below=below, section="players"),
    )


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
    # A part per ladder the player played on (ladder.web.ladder_parts): each its rating,
    # chart and events; the first ladder's alone is the page a club of one ladder shows.
    played = {e.ladder_id for e in page.history}
    on = [la for la in ladders if la.pk in played or la == ladders[0]]
    by_ladder = {la.pk: rosters.load_roster(visit.club, visit.is_director, la) for la in on}
    rules = {la.pk: club_rules(visit.club, la) for la in on}
    parts = ladder_parts.ladder_parts(page, on, by_ladder, rules)
    several = len(parts) > 1 or parts[0].ladder != ladders[0]
    return render(
        request,
        "ladder/pages/player.html",
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
        request, "ladder/pages/rating_rules.html", visit.context(page=page, section="rules")
    )


@club_view()
def events_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    kinds = dict(Event.Kind.choices)
    kind = request.GET.get("kind")
    if kind not in kinds:
        kind = None  # an unknown kind shows every event rather than failing
    roster = rosters.load_roster(visit.club, visit.is_director)
    events = event_pages.event_summaries(visit.club, kind, roster, _("unconfirmed player"))
    # Club nights being played now (drafts run here), each with its live page.
    playing = visit.club.events.not_deleted().filter(status=Event.Status.DRAFT)
    playing = playing.exclude(pairing_system="").order_by("-date", "-id")
    ladders = visit.ladders
    return render(
        request,
        "ladder/pages/events.html",
        visit.context(
            events=events,
            kinds=kinds.items(),
            kind=kind,
            section="events",
            playing=list(playing.values("pk", "name", "date")),
            ladder_names=ladder_parts.ladder_names_by_kind(ladders),
            several_ladders=len(ladders) > 1,
        ),
    )


@club_view(free=True)
def event_page(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    event = visit.club.events.published().filter(pk=event_id).first()
    if event is None:
        raise Http404(NOT_FOUND)
    roster = rosters.load_roster(visit.club, visit.is_director)
    after = event_pages.read_after(request.GET.get("after"))
    page = event_pages.event_page(event, roster, _("unconfirmed player"), after)
    fed = ladder_parts.fed_context(event, visit.ladders, visit.base)
    return render(
        request, "ladder/pages/event.html", visit.context(page=page, section="events", **fed)
    )


@club_view(download="trf")
def event_results_trf(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    """The event page's results as a TRF16 file, names as the page shows them."""
    event = _published_event(visit, event_id)
    text = event_trf(event, viewer_is_director=visit.is_director)
    return _download(text, "text/plain", export_file_name(event, "trf"), visit.club)


@club_view(download="csv")
def event_results_csv(request: HttpRequest, visit: Visit, event_id: int) -> HttpResponse:
    event = _published_event(visit, event_id)
    text = event_csv(event, viewer_is_director=visit.is_director)
    return _download(text, "text/csv", export_file_name(event, "csv"), visit.club)


def _published_event(visit: Visit, event_id: int) -> Event:
    event = visit.club.events.published().filter(pk=event_id).first()
    if event is None:
        raise Http404(NOT_FOUND)
    return event


@require_safe
def shared_event(request: HttpRequest, share_token: str) -> HttpResponse:
    """One event's results by its own link: the page as any visitor sees it, with no way
    to the club's other pages and nothing of the club's secret, never indexed. Free, like
    every event's page."""
    event = event_for_share_token(share_token)
    use_club_language(request, event.club.language)
    # Not open and not a director: names as the public sees them, and no player links.
    visit = Visit(event.club, is_director=False, page_active=False, base="")
    page = _page(_shared_event_page, request, visit, download=False, event=event)
    return _protect(page, noindex=True)


def _shared_event_page(request: HttpRequest, visit: Visit, event: Event) -> HttpResponse:
    roster = rosters.load_roster(visit.club, viewer_is_director=False)
    after = event_pages.read_after(request.GET.get("after"))
    page = event_pages.event_page(event, roster, _("unconfirmed player"), after)
    fed = ladder_parts.fed_context(event, visit.ladders, "")
    return render(
        request,
        "ladder/pages/shared_event.html",
        visit.context(page=page, noindex=True, shared=True, **fed),
    )


@require_safe
def directory(request: HttpRequest) -> HttpResponse:
    clubs = Club.objects.filter(visibility=Club.Visibility.PUBLIC).order_by("name")
    return render(request, "ladder/pages/directory.html", {"clubs": clubs})


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
    return render(request, "ladder/web/sitemap.xml", {"urls": urls}, content_type="application/xml")


@require_POST
def rebuild(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    with transaction.atomic():
        request_full_rebuild(club.pk)
        audit.record(club, request.user, "ladder.rebuilt")
    messages.success(request, _("The ladder is being rebuilt from the first event."))
    return redirect("club_manage", slug=club.slug)
