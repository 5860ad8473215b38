"""Every director form, fed extreme Unicode, 10,000-character strings and boundary numbers."""

from __future__ import annotations

import pytest
from django.db.models import F
from django.test import override_settings
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import Entry, Game, Merge
from clubs.results import Result
from tests.factories import make_club, make_event, make_players, make_user

pytestmark = pytest.mark.django_db

BOUNDARY = [
    "", "0", "-1", "1", "4000", "4001", "2147483647", "2147483648", "9" * 40, "1e309", "NaN",
    "-0", "0.5", "2026-02-30", "0001-01-01", "9999-12-31", "2026-13-01", "true", "on",
    "standard", "bughouse", "public", "initials", "hi", "1-0", "½-½", "bye",
]  # fmt: skip
values = st.one_of(
    st.sampled_from(BOUNDARY),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=60),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8).map(
        lambda seed: (seed * 10_000)[:10_000]  # 10,000 characters
    ),
    st.sampled_from(["\u202e\u202dreversed", "\u0000nul", "👩‍👩‍👧‍👦" * 50, "रैंकिंग" * 3, "Ω" * 121]),
)

FORMS = {
    "club_create": ["name", "slug", "language"],
    "event_create": ["name", "date", "order_in_day", "kind", "rated"],
    "event_edit": ["name", "date", "order_in_day", "kind", "rated", "version"],
    "event_paste": ["text", "version"],
    "event_entry_add": ["typed_name", "version"],
    "event_names": ["decision_{entry}", "other_{entry}", "start_{entry}", "version"],
    "event_grid": ["row-0-round", "row-0-white", "row-0-black", "row-0-result", "version"],
    "club_settings": ["visibility", "name_display", "language", "time_zone"],
    "director_add": ["email"],
    "roster_merge": ["kept", "merged"],
    "roster_dismiss": ["first", "second", "one", "other"],
    "roster_repoint": ["player", "new_name"],
    "series_new": [
        "name",
        "slug",
        "events",
        "kinds",
        "date_from",
        "date_to",
        "scoring",
        "points",
        "best",
        "ties",
        "members_only",
        "min_events",
        "rating_bands",
    ],
    "schedule_new": [
        "name",
        "date",
        "start_time",
        "place",
        "kind",
        "notes",
        "weekly",
        "weekly_until",
    ],
    "schedule_cancel": ["reason"],
}
GRID_MANAGEMENT = {"row-TOTAL_FORMS": "1", "row-INITIAL_FORMS": "0", "row-MAX_NUM_FORMS": "1000"}


@pytest.fixture
def world(client):
    owner = make_user("owner@example.org")
    club = make_club(slug="fuzz", owner=owner)
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    event = make_event(club, [(1, ann, bob, Result.DRAW)], published=False)
    entry = Entry.objects.filter(event=event).first()
    client.force_login(owner)
    return club, event, entry


@pytest.mark.parametrize("route", sorted(FORMS))
def test_no_director_form_answers_5xx_to_hostile_values(client, world, route):
    club, event, entry = world
    from tests.security.routes import SCHEDULE_DAY, all_routes, scheduled

    kwargs = {
        "slug": club.slug,
        "event_id": event.pk,
        "entry_id": entry.pk,
        "schedule_id": scheduled(club).pk,
        "day": SCHEDULE_DAY,
    }

    params = next(r.params for r in all_routes() if r.name == route)
    url = reverse(route, kwargs={p: kwargs[p] for p in params})
    fields = [f.format(entry=entry.pk) for f in FORMS[route]]

    @settings(
        max_examples=25,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.fixed_dictionaries({f: values for f in fields}))
    def post(data):
        if route == "event_grid":
            data = {**GRID_MANAGEMENT, **data}
        response = client.post(url, data)
        assert response.status_code in {200, 302, 400}, (route, response.status_code)
        # Whatever was accepted is whole: games only between entries of their own event.
        assert not Game.objects.exclude(white__event=F("event")).exists()
        assert (
            not Game.objects.filter(black__isnull=False).exclude(black__event=F("event")).exists()
        )
        assert not Merge.objects.exclude(club=club).exists()

    # The per-address limit on club creation (tested in tests/clubs/accounts/test_accounts.py) would
    # answer 429 after a few examples and hide the form from the fuzzer.
    with override_settings(ADDRESS_RATE_LIMIT=10_000):
        post()
