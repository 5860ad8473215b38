"""The ladder on a date, `?on=YYYY-MM-DD` on the ladder page and its ladder downloads: the
date a request asks for, what the page says about it, and the answer to a malformed one.

The rows come from ladder.roster.rosters.Roster.ladder_on (the stored per-event results, never a
replay); everything else (names, visibility, the page cache) is today's ladder's. A date in
the future shows today's ladder and says so; a date before the club's first event shows the
ladder as it stood then: empty, but for players a club brought with games from its old ladder.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club, Event
from members.pages.list_options import parse_day


class BadDay(ValueError):
    """?on= is not a date written YYYY-MM-DD: the views answer 400 (club_view)."""


@dataclass(frozen=True)
class AskedDay:
    asked: dt.date | None  # what ?on= asked for; None for today's ladder
    day: dt.date | None  # the date whose ladder is shown; None: today's (also for a future date)
    first_event: dt.date | None = None  # the club's first event, when `day` is before it

    @property
    def future(self) -> bool:
        return self.asked is not None and self.day is None

    @property
    def iso(self) -> str:
        return "" if self.asked is None else self.asked.isoformat()


def asked_day(club: Club, params: Mapping[str, str], today: dt.date | None = None) -> AskedDay:
    """The date the query asks for (a future one against `today`, by default the club's
    local date); BadDay if ?on= is there but not a date."""
    text = params.get("on")
    if text is None or text == "":
        return AskedDay(None, None)
    try:
        asked = parse_day(text.strip())
    except ValueError:
        raise BadDay(text) from None
    if asked > (today or timezone.localdate()):
        return AskedDay(asked, None)
    first = Event.objects.filter(club=club).published().order_by("date").values_list("date").first()
    before_first = first is not None and asked < first[0]
    return AskedDay(asked, asked, first[0] if first is not None and before_first else None)


def context(on: AskedDay, active_only: bool) -> dict[str, Any]:
    """What ladder.html needs to keep the date in its links and say which date it shows."""
    dated = {"on": on.iso} if on.asked else {}
    active = {"active": "1"} if active_only else {}
    return {
        "on": on,
        # The sort heads and the search keep the date and the filter.
        "keep": {**active, **dated},
        "everyone_query": urlencode(dated),
        "active_query": urlencode({"active": "1", **dated}),
        "download_query": urlencode({**active, **dated}),
    }


def bad_day(request: HttpRequest, page_context: dict[str, Any], download: bool) -> HttpResponse:
    message = _("That is not a date: give it as YYYY-MM-DD, for example 2026-03-01.")
    if download:
        return HttpResponse(f"{message}\n", content_type="text/plain; charset=utf-8", status=400)
    # The page's own path (the front page's, or one ladder's): its links lead back to it.
    page_context.update(
        on_error=message, on=AskedDay(None, None), section="ladder", here=request.path
    )
    return render(request, "members/pages/ladder.html", page_context, status=400)
