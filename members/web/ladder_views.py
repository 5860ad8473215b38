"""A club's ladders: the first on the club's front page (c/<slug>/), each at
c/<slug>/ladders/<ladder>/, with its downloads beside it; tabs lead from one to the others.

Every page goes through members.web.club_view.club_view (the access helper, visibility, the
page cache, noindex): the ladder's slug is in the page's path, so each ladder's page is
kept apart, and the key's versions (members.web.page_cache) move with every ladder's replay.
The first ladder's own address sends the visitor to the front page, the one address of
that page (and of its cache entry). Each ladder's page and its ladder downloads take
`?on=YYYY-MM-DD` (members.web.dated) as the front page does: that ladder as it stood then.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation

from clubs.access import NOT_FOUND
from clubs.models import Ladder
from ladder.roster import rosters
from members.files import json_text
from members.files.export import (
    LADDER_FIELDS,
    SEEDING_FIELDS,
    csv_text,
    public_ladder,
    seeding_rows,
    seeding_trf,
)
from members.pages.list_pages import ladder_list
from members.pages.tables import ladder_body_kept
from members.schedule import next_dates
from members.web import dated
from members.web.club_view import Visit, club_view
from members.web.long_tables import ROWS_HERE, with_rows


def _ladders(visit: Visit, slug: str | None) -> tuple[Ladder, list[Ladder]]:
    """The ladder a page shows (the first for None) and all the club's, first first; an
    unknown slug is a 404 like any other "no"."""
    ladders = visit.ladders
    ladder = ladders[0] if slug is None else next((la for la in ladders if la.slug == slug), None)
    if ladder is None:
        raise Http404(NOT_FOUND)
    return ladder, ladders


def _here(visit: Visit, ladder: Ladder, ladders: list[Ladder]) -> str:
    """The ladder page's own path for this visitor: the front page for the first ladder."""
    return visit.base if ladder == ladders[0] else f"{visit.base}ladders/{ladder.slug}/"


def _rows(
    request: HttpRequest, visit: Visit, ladder: Ladder, on: dated.AskedDay | None = None
) -> tuple[list[rosters.LadderRow], bool]:
    """The ladder today, or at the end of `on`'s day (active: in the year before it)."""
    rows, active_only, _kept = _kept_rows(request, visit, ladder, on)
    return rows, active_only


def _kept_rows(
    request: HttpRequest, visit: Visit, ladder: Ladder, on: dated.AskedDay | None = None
) -> tuple[list[rosters.LadderRow], bool, rosters.Keeper | None]:
    """_rows, and where what is made of those rows is kept with the kept roster (its keys
    name the list: the whole ladder, or the active one since a day); None for a ladder on a
    date, read anew from what the replay stored."""
    active_only = request.GET.get("active") == "1"
    day = timezone.localdate() if on is None or on.day is None else on.day
    since = rosters.active_since(day) if active_only else None
    roster = rosters.load_roster(visit.club, visit.is_director, ladder)
    if on is None or on.day is None:
        return roster.ladder(since), active_only, roster.keeper("ladder", since)
    return roster.ladder_on(visit.club, on.day, since, ladder), active_only, None


def _page(
    request: HttpRequest, visit: Visit, ladder: Ladder, ladders: list[Ladder]
) -> HttpResponse:
    on = dated.asked_day(visit.club, request.GET)
    rows, active_only, kept = _kept_rows(request, visit, ladder, on)
    links = dated.context(on, active_only)
    listed = ladder_list(rows, request.GET, links["keep"], kept)
    below = rosters.provisional_below(visit.club, ladder)
    response = render(
        request,
        "members/pages/ladder.html",
        visit.context(
            rows=rows,
            listed=listed,
            rows_here=ROWS_HERE,
            provisional_below=below,
            active_only=active_only,
            section="ladder",
            ladder=ladder,
            ladders=ladders,
            here=_here(visit, ladder, ladders),
            status_ladder=ladder,
            # The club's next dates, on its front page (the first ladder's) only.
            next_dates=next_dates(visit.club, timezone.localdate())
            if ladder == ladders[0] and on.day is None and visit.has_schedule
            else [],
            **links,
        ),
    )
    # Each row's text depends on its rank and player (the list's), and on these: kept with
    # the roster for them (a ladder on a date, read anew, keeps its rows for this page only).
    texts = (translation.get_language(), visit.base, below)
    row_texts: dict[tuple[int, int], bytes] = {} if kept is None else kept(texts, dict)
    return with_rows(response, ladder_body_kept(listed["shown"], visit.base, below, row_texts))


@club_view(one_ladder=True)
def club_page(request: HttpRequest, visit: Visit) -> HttpResponse:
    ladder, ladders = _ladders(visit, None)
    return _page(request, visit, ladder, ladders)


@club_view(one_ladder=True)
def ladder_page(request: HttpRequest, visit: Visit, ladder: str) -> HttpResponse:
    shown, ladders = _ladders(visit, ladder)
    if shown == ladders[0]:
        # Not permanent: another ladder may become the first.
        query = request.GET.urlencode()
        return redirect(f"{visit.base}?{query}" if query else visit.base)
    return _page(request, visit, shown, ladders)


def _file_name(visit: Visit, ladder: Ladder, ladders: list[Ladder], what: str) -> str:
    """club-ladder.csv for the first ladder, as always; club-blitz-ladder.csv for another."""
    if ladder == ladders[0]:
        return f"{visit.club.slug}-{what}"
    return f"{visit.club.slug}-{ladder.slug}-{what}"


@club_view(download="csv")
def ladder_csv(request: HttpRequest, visit: Visit, ladder: str | None = None) -> HttpResponse:
    shown, ladders = _ladders(visit, ladder)
    rows, _active = _rows(request, visit, shown, dated.asked_day(visit.club, request.GET))
    return _download(
        csv_text(public_ladder(rows), LADDER_FIELDS),
        "text/csv",
        _file_name(visit, shown, ladders, "ladder.csv"),
        shown,
    )


@club_view(download="json")
def ladder_json(request: HttpRequest, visit: Visit, ladder: str | None = None) -> HttpResponse:
    shown, _ladders_of_club = _ladders(visit, ladder)
    on = dated.asked_day(visit.club, request.GET)
    rows, active_only, kept = _kept_rows(request, visit, shown, on)
    # The players' part, the file's bulk, depends on the rows alone: kept with the roster.
    players = (
        json_text.written_list(public_ladder(rows))
        if kept is None
        else (kept("ladder.json players", lambda: json_text.written_list(public_ladder(rows))))
    )
    data: dict[str, object] = {
        "club": visit.club.name,
        "ladder": shown.slug,
        "ladder_is_current": shown.is_current,
        "active_only": active_only,
        **({"on": on.day.isoformat()} if on.day else {}),
        "players": players,
    }
    return HttpResponse(
        json_text.indented(data),
        content_type="application/json; charset=utf-8",
    )


@club_view(download="trf")
def seeding_list_trf(request: HttpRequest, visit: Visit, ladder: str | None = None) -> HttpResponse:
    shown, ladders = _ladders(visit, ladder)
    rows, _active = _rows(request, visit, shown)
    name = _file_name(visit, shown, ladders, "seeding.trf")
    return _download(seeding_trf(rows), "text/plain", name, shown)


@club_view(download="csv")
def seeding_list_csv(request: HttpRequest, visit: Visit, ladder: str | None = None) -> HttpResponse:
    shown, ladders = _ladders(visit, ladder)
    rows, _active = _rows(request, visit, shown)
    text = csv_text(seeding_rows(rows), SEEDING_FIELDS)
    return _download(text, "text/csv", _file_name(visit, shown, ladders, "seeding.csv"), shown)


def _download(text: str, content_type: str, filename: str, ladder: Ladder) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    # A file has no room for a notice; scripts can tell from the header that the
    # numbers are the last good ones while this ladder's replay is pending.
    response["X-Ladder-Status"] = "current" if ladder.is_current else "recalculating"
    return response
