"""The read API's operations (GET only), each at clubs/<slug>/… and, for an unlisted club,
clubs/<slug>/s/<secret>/… as the club's pages are; routed under /api/v1/ by config/urls.py.

Lists are cut by `limit` (1-500, 50 by default) and `offset` (from 0) and say their `count`,
the whole list's length. Errors are JSON: 404 {"detail": "Not found."} for anything the
caller may not see or that does not exist, 400 for a malformed ?on=, 402 while the club's
subscription is off (but for events, open as their pages are), 422 for a value of the wrong
type or out of range, 429 (with Retry-After) for an API token past its requests per
minute. Written as pairs of thin functions: ninja makes each operation's
parameters from its signature, and a plain address must not take a secret.
"""

from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Field, NinjaAPI, Path, Query, Schema

from clubs.models import Event
from clubs.tokens import Throttled
from members.api import reading, schemas
from members.api.visits import ApiVisit, Inactive, finish, visit
from members.web.dated import BadDay

# An id beyond any row: a larger one would overflow the database's integer before the
# lookup could say "no such row".
MAX_ID = 2**31 - 1
NOT_FOUND = "Not found."

api = NinjaAPI(
    title="Club pages: read API",
    version="1",
    description=(
        "What a club's pages show, as JSON: the club, its ladders' standings (as of a day), "
        "its players and its published events with their final standings. Same visibility "
        "as the pages. See docs/api.md."
    ),
    urls_namespace="api",
    openapi_url="/openapi.json",
    # No interactive docs page: it loads its script from a CDN that the site's CSP forbids.
    docs_url=None,
)


class Page(Schema):
    limit: int = Field(50, ge=1, le=500, description="How many items (1-500).")
    offset: int = Field(0, ge=0, le=MAX_ID, description="How many items to skip.")


class LadderQuery(Page):
    on: str | None = Field(
        None,
        description="The ladder at the end of this day, YYYY-MM-DD (as the ladder page's ?on=).",
        examples=["2026-03-01"],
    )


class EventsQuery(Page):
    kind: Event.Kind | None = Field(None, description="Only events of this kind.")


ERRORS: dict[int, Any] = {
    304: None,
    400: schemas.Error,
    402: schemas.Error,
    404: schemas.Error,
    422: schemas.Invalid,
    429: schemas.Error,
}


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    # The same words for an unknown club, a wrong secret and a club the caller may not see.
    return api.create_response(request, {"detail": NOT_FOUND}, status=404)


@api.exception_handler(BadDay)
def bad_day(request: HttpRequest, error: BadDay) -> HttpResponse:
    message = _("That is not a date: give it as YYYY-MM-DD, for example 2026-03-01.")
    return api.create_response(request, {"detail": message}, status=400)


@api.exception_handler(Throttled)
def throttled(request: HttpRequest, error: Throttled) -> HttpResponse:
    message = _("Too many requests with this token: try again in %(seconds)s seconds.") % {
        "seconds": error.retry_after
    }
    answer = api.create_response(request, {"detail": message}, status=429)
    answer["Retry-After"] = str(error.retry_after)
    return answer


@api.exception_handler(Inactive)
def inactive(request: HttpRequest, error: Inactive) -> HttpResponse:
    message = _(
        "This club page is not active at the moment. Its results are kept safe and come "
        "back as soon as the club renews its subscription."
    )
    answer = api.create_response(request, {"detail": message}, status=402)
    # Renewing brings the answers back at once: no cache may keep the notice.
    answer["Cache-Control"] = "no-cache, private"
    return answer


def _answer(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    secret: str | None,
    read: Callable[[ApiVisit], Any],
    *,
    free: bool = False,
) -> Any:
    """The answer `read` makes for the club, or a 304 when the caller holds it already."""
    found = visit(request, slug, secret, free=free)
    data = read(found)
    return finish(request, response, found) or data


# The club
@api.get("/clubs/{slug}/", response={200: schemas.Club, **ERRORS}, url_name="club")
def club(request: HttpRequest, response: HttpResponse, slug: str) -> Any:
    return _answer(request, response, slug, None, reading.club)


@api.get(
    "/clubs/{slug}/s/{secret}/", response={200: schemas.Club, **ERRORS}, url_name="club_secret"
)
def club_secret(request: HttpRequest, response: HttpResponse, slug: str, secret: str) -> Any:
    return _answer(request, response, slug, secret, reading.club)


# A ladder's standings
def _standings(ladder: str, query: LadderQuery) -> Callable[[ApiVisit], schemas.Standings]:
    def read(found: ApiVisit) -> schemas.Standings:
        shown = reading.ladder_of(found, ladder)
        return reading.standings(found, shown, query.on, query.limit, query.offset)

    return read


@api.get(
    "/clubs/{slug}/ladders/{ladder}/",
    response={200: schemas.Standings, **ERRORS},
    url_name="ladder",
)
def ladder(
    request: HttpRequest, response: HttpResponse, slug: str, ladder: str, query: Query[LadderQuery]
) -> Any:
    return _answer(request, response, slug, None, _standings(ladder, query))


@api.get(
    "/clubs/{slug}/s/{secret}/ladders/{ladder}/",
    response={200: schemas.Standings, **ERRORS},
    url_name="ladder_secret",
)
def ladder_secret(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    secret: str,
    ladder: str,
    query: Query[LadderQuery],
) -> Any:
    return _answer(request, response, slug, secret, _standings(ladder, query))


# The players
@api.get("/clubs/{slug}/players/", response={200: schemas.Players, **ERRORS}, url_name="players")
def players(request: HttpRequest, response: HttpResponse, slug: str, page: Query[Page]) -> Any:
    return _answer(
        request, response, slug, None, lambda found: reading.players(found, page.limit, page.offset)
    )


@api.get(
    "/clubs/{slug}/s/{secret}/players/",
    response={200: schemas.Players, **ERRORS},
    url_name="players_secret",
)
def players_secret(
    request: HttpRequest, response: HttpResponse, slug: str, secret: str, page: Query[Page]
) -> Any:
    return _answer(
        request,
        response,
        slug,
        secret,
        lambda found: reading.players(found, page.limit, page.offset),
    )


def _player(request: HttpRequest, player_id: int) -> Callable[[ApiVisit], Any]:
    def read(found: ApiVisit) -> Any:
        player = reading.player(found, player_id)
        if isinstance(player, int):  # merged into another: where the player page sends them
            moved = request.path.rstrip("/").rsplit("/", 1)[0] + f"/{player}/"
            raise Moved(moved)
        return player

    return read


class Moved(Exception):
    """A merged player's answer: a redirect to the kept player's."""


@api.exception_handler(Moved)
def moved(request: HttpRequest, error: Moved) -> HttpResponse:
    return HttpResponseRedirect(str(error))


PLAYER_ID = Path(..., ge=1, le=MAX_ID)


@api.get(
    "/clubs/{slug}/players/{player_id}/",
    response={200: schemas.Player, 302: None, **ERRORS},
    url_name="player",
)
def player(
    request: HttpRequest, response: HttpResponse, slug: str, player_id: int = PLAYER_ID
) -> Any:
    return _answer(request, response, slug, None, _player(request, player_id))


@api.get(
    "/clubs/{slug}/s/{secret}/players/{player_id}/",
    response={200: schemas.Player, 302: None, **ERRORS},
    url_name="player_secret",
)
def player_secret(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    secret: str,
    player_id: int = PLAYER_ID,
) -> Any:
    return _answer(request, response, slug, secret, _player(request, player_id))


# The events: open while the subscription is off, as their pages are
def _events(query: EventsQuery) -> Callable[[ApiVisit], schemas.Events]:
    kind = None if query.kind is None else str(query.kind.value)
    return lambda found: reading.events(found, kind, query.limit, query.offset)


@api.get("/clubs/{slug}/events/", response={200: schemas.Events, **ERRORS}, url_name="events")
def events(
    request: HttpRequest, response: HttpResponse, slug: str, query: Query[EventsQuery]
) -> Any:
    return _answer(request, response, slug, None, _events(query), free=True)


@api.get(
    "/clubs/{slug}/s/{secret}/events/",
    response={200: schemas.Events, **ERRORS},
    url_name="events_secret",
)
def events_secret(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    secret: str,
    query: Query[EventsQuery],
) -> Any:
    return _answer(request, response, slug, secret, _events(query), free=True)


EVENT_ID = Path(..., ge=1, le=MAX_ID)


@api.get(
    "/clubs/{slug}/events/{event_id}/",
    response={200: schemas.Event, **ERRORS},
    url_name="event",
)
def event(request: HttpRequest, response: HttpResponse, slug: str, event_id: int = EVENT_ID) -> Any:
    return _answer(
        request, response, slug, None, lambda found: reading.event(found, event_id), free=True
    )


@api.get(
    "/clubs/{slug}/s/{secret}/events/{event_id}/",
    response={200: schemas.Event, **ERRORS},
    url_name="event_secret",
)
def event_secret(
    request: HttpRequest,
    response: HttpResponse,
    slug: str,
    secret: str,
    event_id: int = EVENT_ID,
) -> Any:
    return _answer(
        request, response, slug, secret, lambda found: reading.event(found, event_id), free=True
    )


# The schedule: closed while the subscription is off, as its page and calendar are
@api.get("/clubs/{slug}/schedule/", response={200: schemas.Schedule, **ERRORS}, url_name="schedule")
def schedule(request: HttpRequest, response: HttpResponse, slug: str, page: Query[Page]) -> Any:
    return _answer(
        request,
        response,
        slug,
        None,
        lambda found: reading.schedule(found, page.limit, page.offset),
    )


@api.get(
    "/clubs/{slug}/s/{secret}/schedule/",
    response={200: schemas.Schedule, **ERRORS},
    url_name="schedule_secret",
)
def schedule_secret(
    request: HttpRequest, response: HttpResponse, slug: str, secret: str, page: Query[Page]
) -> Any:
    return _answer(
        request,
        response,
        slug,
        secret,
        lambda found: reading.schedule(found, page.limit, page.offset),
    )


def api_path(name: str, **kwargs: object) -> str:
    """An operation's address (`name` as url_name above), for the docs and the tests."""
    return reverse(f"api:{name}", kwargs=kwargs)
