"""Which markers a collected test gets on top of its own, so that `make test-fast` can pick the
pure and quick ones (no database, no server, no browser) without a list kept by hand.

Plain Python on purpose: tests/test_markers.py checks the rule on made-up names, without pytest
collecting anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from pathlib import PurePath

# pytest-django's fixtures that open the test database or a live server (which needs it). The
# fixture closure of a test holds every fixture it uses directly or through others, so a project
# fixture such as `owner(db)` or the browser `page(browser, live_server)` is caught by its roots.
# `client` alone touches no database, but a request through it runs the sessions and auth
# middleware, so a test using it is not "pure".
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "client",
        "async_client",
        "admin_client",
        "admin_user",
        "live_server",
        "django_assert_num_queries",
        "django_assert_max_num_queries",
    }
)

# The markers this module adds. `heavy` is set by hand on pure tests that take seconds (found
# with `--durations`) or start a process of their own: `make test` runs them, test-fast does not.
BROWSER = "browser"
DB = "db"

# The `-m` expression of `make test-fast`. `slow` is already excluded by addopts; it is repeated
# so the selection is right even when addopts are overridden.
FAST_SELECTION = "not db and not browser and not postgres and not redis and not slow and not heavy"


def is_browser_test(path: PurePath) -> bool:
    """Everything under tests/browser drives Chromium, whatever fixtures it names."""
    parts = path.parts
    return any(a == "tests" and b == "browser" for a, b in pairwise(parts))


def added_markers(
    *, path: PurePath, fixturenames: Iterable[str], markers: Iterable[str]
) -> set[str]:
    """The markers to add to one test, from its file, its fixture closure and its own markers."""
    own = set(markers)
    added: set[str] = set()
    if is_browser_test(path):
        added.add(BROWSER)
    # A `django_db` marker opens the database through a fixture pytest-django requests only when
    # the test runs, so it is not in the closure at collection: look at the marker itself.
    if "django_db" in own or DATABASE_FIXTURES.intersection(fixturenames):
        added.add(DB)
    return added - own
