"""Personas and builders shared by every test: an owner, a director and an outsider."""

from __future__ import annotations

import os

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from hypothesis import settings as hypothesis_settings

from ladder.roster import rosters
from members.pages.events import event_list
from members.web import page_cache
from tests.factories import make_club, make_user
from tests.markers import added_markers

IN_CI = os.environ.get("CI", "").lower() == "true"

# No per-example deadline: on a loaded 2-core machine a slow example is not a
# bug. Under CI the examples are derived from the test, not random, so a run is
# repeatable; local runs keep exploring.
hypothesis_settings.register_profile("project", deadline=None, print_blob=True)
hypothesis_settings.register_profile("ci", parent=hypothesis_settings.get_profile("project"),
                                     derandomize=True)  # fmt: skip
hypothesis_settings.load_profile("ci" if IN_CI else "project")


def _require(reason: str) -> None:
    """Skip locally when a service is missing; under CI=true the same gap is a failure."""
    if IN_CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _services(request: pytest.FixtureRequest):
    if request.node.get_closest_marker("postgres") and connection.vendor != "postgresql":
        _require("this test needs PostgreSQL: set DATABASE_URL=postgres://…")
    # A deliberately slow password hash buys nothing in tests; tests of hashing override it.
    overrides: dict[str, object] = {
        "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"]
    }
    if request.node.get_closest_marker("redis"):
        if not django_settings.REDIS_URL:
            _require("this test needs Redis and a worker: set REDIS_URL=redis://…")
        # Pages kept in Redis by an earlier test (same ids and versions) must not answer.
        page_cache.forget_shared_pages()
    else:
        # Only tests marked `redis` talk to a queue; the rest run jobs in-process.
        overrides["REDIS_URL"] = None
    # Test databases reuse ids and versions, so a page kept by one test could answer another.
    caches[page_cache.CACHE_ALIAS].clear()
    rosters.forget_rosters()
    event_list.forget_first_places()
    # override_settings, not the `settings` fixture: some tests name a parameter `settings`.
    with override_settings(**overrides):
        yield


@pytest.fixture
def owner(db):
    return make_user("owner@example.org")


@pytest.fixture
def director(db):
    return make_user("director@example.org")


@pytest.fixture
def outsider(db):
    """Directs another club: signed in, but must never see this club's private pages."""
    user = make_user("outsider@example.org")
    make_club(slug="elsewhere", owner=user)
    return user


@pytest.fixture
def club(owner, director):
    return make_club(slug="rooks", owner=owner, directors=[director])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark browser and database tests so `make test-fast` can leave them out (tests/markers.py)."""
    for item in items:
        extra = added_markers(
            path=item.path,
            fixturenames=getattr(item, "fixturenames", ()),
            markers=(marker.name for marker in item.iter_markers()),
        )
        for name in sorted(extra):
            item.add_marker(name)
