"""The read API fuzzed from its own schema (schemathesis): every operation, with values the
schema allows and values it does not, against two small clubs built here (a public one and
an unlisted one, reached through its secret). No answer may be a 5xx, carry a status the
schema does not list, or have a body outside the schema. Bounded: a few hundred requests.

Generated slugs and ids are mostly random (a 404, or a 422 for an id out of range); so that
the real answers are fuzzed too, most cases are aimed at the clubs' own slugs, secret,
ladders, players and events, keeping the generated query.
"""

from __future__ import annotations

import datetime as dt
import zlib

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from clubs.models import Club, Event, Player
from clubs.results import Result

# The API as served: the read API with the publish API's operation (directors/api.py) that
# config/urls.py adds to it. Without a token (schemathesis has none) the POST is a 401 before
# any file is read: fuzzing it stores nothing (checked below).
from config.urls import api
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _demo_like(slug: str, visibility: str) -> dict:
    club = make_club(slug=slug, visibility=visibility)
    names = ["Anna de Vries", "Bram Jansen", "Cor Visser", "Dirk Smit", "Eva Mulder", "Finn Bos"]
    players = [Player.objects.create(club=club, name=name) for name in names]
    Player.objects.filter(pk=players[5].pk).update(junior=True)
    a, b, c, d, e, f = players
    events = [
        make_event(
            club,
            [(1, a, b, Result.WHITE_WIN), (1, c, d, Result.DRAW), (1, e, None, Result.BYE_FULL)],
            date=dt.date(2026, 1, 6),
            name="Club night 1",
        ),
        make_event(
            club,
            [(1, b, c, Result.BLACK_WIN), (1, d, e, Result.WHITE_WIN), (2, a, f, Result.DRAW)],
            date=dt.date(2026, 1, 13),
            name="Club night 2",
            kind="rapid",
        ),
        make_event(club, [(1, a, c, Result.DRAW)], date=dt.date(2026, 1, 20), published=False),
    ]
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return {
        "club": club,
        "ladder": [club.first_ladder().slug],
        "player_id": [p.pk for p in players],
        "event_id": [event.pk for event in events],
    }


@pytest.fixture
def connection_kept():
    """Calls made straight through the WSGI application start and end with Django's
    request_started and request_finished, whose close_old_connections would close the test's
    PostgreSQL connection (and its open transaction) after the first call; Django's own test
    client disconnects it the same way."""
    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def clubs(db, connection_kept):
    return {
        "public": _demo_like("fuzz-public", Club.Visibility.PUBLIC),
        "unlisted": _demo_like("fuzz-unlisted", Club.Visibility.UNLISTED),
    }


# Read from the API itself, as /api/v1/openapi.json serves it (no database needed for it),
# and called through the project's WSGI application.
schema = schemathesis.openapi.from_dict(api.get_openapi_schema())
schema.app = get_wsgi_application()


def _pick(seed: str, choices: list) -> object:
    return choices[zlib.crc32(seed.encode()) % len(choices)]


def _aim(case, clubs: dict) -> None:
    """Three cases in four at one of the clubs (the right club for the address: the unlisted
    one at its secret address), the rest as generated."""
    params = case.path_parameters or {}
    seed = repr(sorted(params.items())) + repr(sorted((case.query or {}).items()))
    if zlib.crc32(seed.encode()) % 4 == 0:
        return
    found = clubs["unlisted" if "secret" in params else "public"]
    params["slug"] = found["club"].slug
    if "secret" in params:
        params["secret"] = found["club"].secret
    for name in ("ladder", "player_id", "event_id"):
        if name in params:
            params[name] = _pick(seed + name, found[name])


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,  # the same cases on every run: a failure comes back
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_no_answer_is_a_5xx_or_outside_the_schema(case, clubs):
    _aim(case, clubs)
    events = Event.objects.count()
    response = case.call(headers={"Host": "localhost"})
    case.validate_response(response, checks=CHECKS)
    if case.method.upper() != "GET":
        assert response.status_code >= 400  # 401 without a token, 405 for an unsupported method
        assert Event.objects.count() == events
