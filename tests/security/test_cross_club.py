"""Signed in as club A's people: club B's ids answer 404, change nothing, and never leak."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubInvitation, ClubRole, Entry, Event, Merge, Series, Upload
from clubs.models.club import MAIN_SLUG
from clubs.results import Result
from clubs.tokens import create_token
from tests.factories import make_club, make_event, make_players, make_user
from tests.security.routes import (
    ROUTES,
    SCHEDULE_DAY,
    all_routes,
    database_checksum,
    scheduled,
)

pytestmark = pytest.mark.django_db

CANARY = "Quintessa Canaryfeather"
OBJECT_PARAMS = {
    "player_id", "event_id", "entry_id", "merge_id", "role_id", "upload_id", "series",
    "schedule_id", "token_id", "invitation_id",
}  # fmt: skip


def _series_of(club, event):
    series = Series.objects.create(club=club, slug=f"b-prix-{event.pk}", name=f"{CANARY} Prix")
    series.events.set([event])
    return series


@pytest.fixture
def clubs():
    a_owner, a_director = make_user("owner@a.example"), make_user("director@a.example")
    club_a = make_club(slug="club-a", owner=a_owner, directors=[a_director])
    a1, a2 = make_players(club_a, ["Ann Archer", "Bob Baker"])
    event_a = make_event(club_a, [(1, a1, a2, Result.WHITE_WIN)])

    b_owner, b_director = make_user("owner@b.example"), make_user("director@b.example")
    club_b = make_club(slug="club-b", owner=b_owner, directors=[b_director])
    canary, b2, b3 = make_players(club_b, [CANARY, "Dora Dunn", "Eli Ember"])
    event_b = make_event(club_b, [(1, canary, b2, Result.DRAW)], name=f"{CANARY} Memorial")
    deleted_b = make_event(club_b, [(1, b2, canary, Result.BLACK_WIN)], name="Deleted B")
    Event.objects.filter(pk=deleted_b.pk).update(deleted_at=timezone.now())
    merge_b = Merge.objects.create(club=club_b, kept=b2, merged=b3)
    ids_a = {
        "slug": club_a.slug, "secret": club_a.secret,
        "role_id": ClubRole.objects.get(club=club_a, user=a_director).pk,
        "player_id": a1.pk, "event_id": event_a.pk,
        "entry_id": Entry.objects.filter(event=event_a).first().pk, "merge_id": 0,
        "uidb64": "MQ", "token": "not-a-token", "share_token": event_a.share_token,
        "code": "nl", "round_number": 1, "board_number": 1, "upload_id": 0,
        "season": "2025-26",  # both clubs' events (10 January 2026) are in it
        "ladder": MAIN_SLUG,  # every club has one
        "series": Series.objects.create(club=club_a, slug="a-prix", name="A Prix").slug,
        "schedule_id": scheduled(club_a, "A night").pk, "day": SCHEDULE_DAY,
        "token_id": create_token(club_a, "A script", "publish", None).token.pk,
        "board_code": "ABCDEFGHJKLM",  # no board's: a 404 for everyone
        "invitation_id": ClubInvitation.objects.create(club=club_a, email_hash="a").pk,
    }  # fmt: skip
    b_objects = [
        {
            "role_id": ClubRole.objects.get(club=club_b, user=b_director).pk,
            "player_id": canary.pk,
            "event_id": event.pk,
            "entry_id": Entry.objects.filter(event=event).first().pk,
            "merge_id": merge_b.pk,
            "upload_id": Upload.objects.create(
                club=club_b, event=event, user=b_owner, status=Upload.Status.DONE
            ).pk,
            # B's series counts the canary's events: its slug names nothing under A.
            "series": _series_of(club_b, event).slug,
            # B's club night, named with the canary: its id names nothing under A.
            "schedule_id": scheduled(club_b, f"{CANARY} night {event.pk}").pk,
            # B's API token, named with the canary: its id revokes nothing under A.
            "token_id": create_token(club_b, f"{CANARY} {event.pk}", "read", None).token.pk,
            # B's pending invitation: its id withdraws nothing under A.
            "invitation_id": ClubInvitation.objects.create(club=club_b, email_hash="b").pk,
        }
        for event in (event_b, deleted_b)
    ]
    return ids_a, b_objects, {"director": a_director, "owner": a_owner}, club_b


def test_club_b_ids_answer_404_to_club_a_and_change_nothing(clubs):
    ids_a, b_objects, users, club_b = clubs
    before = database_checksum()
    failures = []
    for r in all_routes():
        if not OBJECT_PARAMS & set(r.params):
            continue
        _access, methods = ROUTES[r.name]
        for b_ids in b_objects:
            # Under B's own slug only without a secret: B's secret link is, by
            # design, open to whoever holds it.
            slugs = [ids_a["slug"]] if "secret" in r.params else [ids_a["slug"], club_b.slug]
            for slug in slugs:
                kwargs = {p: b_ids.get(p, ids_a[p]) for p in r.params} | {"slug": slug}
                url = reverse(r.name, kwargs=kwargs)
                for persona, user in users.items():
                    client = Client()
                    client.force_login(user)
                    for method in sorted(methods):
                        response = getattr(client, method.lower())(
                            url, {"player": b_ids["player_id"]}
                        )
                        body = response.content.decode(errors="replace")
                        if (
                            response.status_code != 404 and "secret" not in r.params
                        ) or CANARY in body:
                            failures.append(f"{method} {url} as {persona}: {response.status_code}")
    assert failures == []
    assert database_checksum() == before


def test_the_canary_of_club_b_never_appears_in_any_response_to_club_a(clubs):
    ids_a, _b_objects, users, _club_b = clubs
    leaks = []
    for r in all_routes():
        _access, methods = ROUTES[r.name]
        if "GET" not in methods:
            continue
        url = reverse(r.name, kwargs={p: ids_a[p] for p in r.params})
        for persona, user in users.items():
            client = Client()
            client.force_login(user)
            with transaction.atomic():
                response = client.get(url)
                transaction.set_rollback(True)
            if CANARY in response.content.decode(errors="replace"):
                leaks.append(f"{url} as {persona}")
    missing = Client().get("/c/club-b/")  # the error page too
    assert CANARY not in missing.content.decode()
    assert leaks == []


def test_a_post_without_a_csrf_token_is_refused_and_changes_nothing(clubs):
    ids_a, _b_objects, users, _club_b = clubs
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["owner"])
    before = database_checksum()
    accepted = []
    for r in all_routes():
        _access, methods = ROUTES[r.name]
        if "POST" not in methods:
            continue
        url = reverse(r.name, kwargs={p: ids_a[p] for p in r.params})
        response = client.post(url, {"email": "x@example.org", "name": "Forged"})
        if r.name == "billing:webhook":
            assert response.status_code != 403  # the one view Stripe calls without a token
        elif r.name == "api:publish_event":
            # A program's call: no cookie is read, a session opens nothing (401 without a token).
            assert response.status_code == 401
        elif response.status_code != 403:
            accepted.append(f"POST {url}: {response.status_code}")
    assert accepted == []
    assert database_checksum() == before
