"""The one way to a club page: club_view, and the Visit it hands the view.

club_view checks visibility (one 404 for every kind of "no"), switches to the club's
language, adds the noindex and no-referrer headers of a non-public club and, while the
subscription is off, shows visitors the inactive notice; it keeps and serves whole pages
through members.web.page_cache. The views themselves live in members/web/views.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, wraps
from typing import Any, Literal

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from clubs.access import (
    club_for_visitor,
)
from clubs.models import Club, Ladder
from members.web import dated, page_cache
from members.web.language import use_club_language


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
        """The club's ladders, the first first: read with the club
        (ClubQuerySet.with_ladders), else one query, once a request."""
        return club_ladders(self.club)

    @cached_property
    def has_series(self) -> bool:
        """Whether the club runs a Grand Prix series, for the menu: read with the club's
        ladders (ClubQuerySet.with_ladders), else one query."""
        ladders = self.ladders
        if ladders and hasattr(ladders[0], "club_has_series"):
            return bool(ladders[0].club_has_series)
        return self.club.series.exists()

    @cached_property
    def has_schedule(self) -> bool:
        """Whether the club has a schedule entry, for its front page's next dates: read with
        the club's ladders (ClubQuerySet.with_ladders), else one query."""
        ladders = self.ladders
        if ladders and hasattr(ladders[0], "club_has_schedule"):
            return bool(ladders[0].club_has_schedule)
        return self.club.schedule.exists()

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
    rows: list[Ladder] | None = getattr(club, "ladder_rows", None)
    if rows is not None:
        return rows
    return list(Ladder.objects.for_club(club.pk))


def _visit(request: HttpRequest, slug: str, secret: str | None) -> Visit:
    club = club_for_visitor(request, slug, secret)
    use_club_language(request, club.language)
    if secret is None:
        base = reverse("club_page", kwargs={"slug": club.slug})
    else:
        base = reverse("club_page_secret", kwargs={"slug": club.slug, "secret": secret})
    return Visit(club, club.is_directed_by(request.user), club.page_is_active(), base)


def protect(response: HttpResponse, noindex: bool) -> HttpResponse:
    if noindex:
        response["X-Robots-Tag"] = "noindex, nofollow"
        response["Referrer-Policy"] = "no-referrer"
    return response


ClubView = Callable[..., HttpResponse]


DataFormat = Literal["json", "csv", "trf", "ics", "atom"]


def club_view(
    *,
    free: bool = False,
    download: DataFormat | None = None,
    one_ladder: bool = False,
    live: bool = False,
) -> Callable[[ClubView], ClubView]:
    """A club page at c/<slug>/… and c/<slug>/s/<secret>/…; `free` pages stay open while
    the club's subscription is off; a `download` (named by its format) says in its content
    whether the ladder is current (an HTML page has the notice region of members/web/status.html
    instead), and answers in its own format while the subscription is off. The notice of a
    `one_ladder` page (the one its `ladder` argument names, or the first) is that ladder's.
    A `live` page follows a club night while it is played: every cache asks again each time
    (a 304 while nothing moved), so a result confirmed at a board shows within seconds, not
    after the minute other pages may be kept."""

    def decorate(view: ClubView) -> ClubView:
        @wraps(view)
        @require_safe
        def wrapper(
            request: HttpRequest, slug: str, secret: str | None = None, **kwargs: Any
        ) -> HttpResponse:
            visit = _visit(request, slug, secret)
            if visit.page_open or free:
                try:
                    page = kept_or_built(
                        view,
                        request,
                        visit,
                        download=download is not None,
                        one_ladder=one_ladder,
                        **kwargs,
                    )
                except dated.BadDay:  # never kept: page_cache keeps only real dates
                    page = dated.bad_day(request, visit.context(), download is not None)
                if live:
                    patch_cache_control(page, max_age=0, no_cache=True)
                return protect(page, visit.noindex)
            # Nothing is deleted: subscribing again brings the page back as it was.
            if download is not None:
                notice = _inactive_download(download)
            else:
                notice = render(request, "members/pages/inactive.html", visit.context(noindex=True))
            # Renewing brings the page back at once: no cache may keep the notice.
            page_cache.not_shared(notice)
            return protect(notice, noindex=True)

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


def kept_or_built(
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
        tag = kept[2] if status is None else page_cache.status_tag(kept[2], status)
        if page_cache.not_modified(request, tag):
            # The visitor holds this very page: answered before it is unpacked or filled in.
            response = HttpResponse(status=304)
            page_cache.share(response, tag, public=public)
            response[page_cache.STATUS_HEADER] = "hit"
            patch_vary_headers(response, ("Accept-Encoding",))
            return response
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
    return render_to_string("members/web/status.html", context)


def file_response(text: str, content_type: str, filename: str, club: Club) -> HttpResponse:
    """A download: the file, its name, and whether the ladder behind it is current."""
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A file has no room for a notice; scripts can tell from the header that the
    # numbers are the last good ones while a replay is pending.
    response["X-Ladder-Status"] = "current" if club.ladder_is_current else "recalculating"
    return response
