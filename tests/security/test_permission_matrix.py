"""Every route, requested as every kind of person, answers as the table in routes.py says."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import (
    Board,
    Club,
    ClubInvitation,
    ClubRole,
    Entry,
    Evening,
    Event,
    Ladder,
    Merge,
    Series,
    Upload,
)
from clubs.results import Result
from clubs.tokens import create_token
from ladder.replay import replay_ladder
from tests.factories import make_club, make_event, make_players, make_user
from tests.security.routes import ROUTES, SCHEDULE_DAY, all_routes, live_board_code, scheduled

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "other_director", "director", "owner", "staff")
OK_GET = {200}
OK_POST = {200, 302, 400}
# The sample event is a published club night: its live page sends an insider on to the
# event's own page (an outsider still gets 404).
REDIRECTING_GETS = {"club_event_live", "club_event_live_secret"}


@pytest.fixture
def world():
    owner = make_user("owner@a.example")
    director = make_user("director@a.example")
    club = make_club(slug="club-a", owner=owner, directors=[director])
    other = make_user("director@b.example")
    make_club(slug="club-b", owner=other)
    staff = make_user("staff@example.org", staff=True)
    ann, bob, cid = make_players(club, ["Ann Archer", "Bob Baker", "Cid Carter"])
    event = make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    replay_ladder(club.pk, full=True)  # rated: the event's rating changes have a page
    merge = Merge.objects.create(club=club, kept=ann, merged=cid)
    # The event doubles as a club night with one paired board, so the night screens answer,
    # and as a section of an evening, so the screens of sections answer too.
    group = Evening.objects.create(club=club, name="Night", date=event.date)
    Event.objects.filter(pk=event.pk).update(
        pairing_system="swiss", planned_rounds=1, evening=group, section="Open"
    )
    white, black = Entry.objects.filter(event=event).order_by("start_rank")
    Board.objects.create(event=event, round=1, number=1, white=white, black=black)
    ids = {
        "slug": club.slug,
        "secret": club.secret,
        "role_id": ClubRole.objects.get(club=club, user=director).pk,
        "player_id": ann.pk,
        "event_id": event.pk,
        "entry_id": Entry.objects.filter(event=event).first().pk,
        "merge_id": merge.pk,
        "other_player_id": bob.pk,
        "uidb64": "MQ",
        "token": "not-a-token",
        "share_token": event.share_token,
        "code": "nl",
        "round_number": 1,
        "board_number": 1,
        "upload_id": Upload.objects.create(club=club, event=event, user=director).pk,
        "season": "2025-26",  # the event of 10 January 2026, seasons starting in September
        # A second ladder: the first one's own address leads to the club's page.
        "ladder": Ladder.objects.create(club=club, slug="blitz", name="Blitz", position=1).slug,
        "series": _series(club, event).slug,
        "schedule_id": scheduled(club).pk,
        "day": SCHEDULE_DAY,
        "token_id": create_token(club, "matrix", "read", None).token.pk,
        # The night's board 1 has a live code: its page answers everyone (a form without a
        # side or result is a 400).
        "board_code": live_board_code(club),
        "invitation_id": ClubInvitation.objects.create(club=club, email_hash="x").pk,
    }
    users = {"other_director": other, "director": director, "owner": owner, "staff": staff}
    return club, ids, users


def _series(club, event):
    series = Series.objects.create(club=club, slug="grand-prix", name="Grand Prix", points=[3, 2])
    series.events.set([event])
    return series


def expected(access: str, persona: str, method: str, secret_route: bool) -> set[int]:
    ok = OK_GET if method == "GET" else OK_POST
    if access == "public":
        return ok
    if access == "redirect":
        return {302}
    if access in ("link", "board"):
        return ok
    if access == "login":
        return {302} if persona == "anonymous" else ok
    if access == "invitation":
        return {302} if persona == "anonymous" else {404}  # "not-a-token" is no invitation
    if access == "absent":
        return {404}
    if access == "webhook":
        return {404}  # billing is off
    if access == "token":
        return {401}  # no persona holds a token; a session is no token
    if access == "director":
        return ok if persona in {"director", "owner"} else {404}
    if access == "owner":
        return ok if persona == "owner" else {404}
    if access == "visitor":
        if secret_route:
            return ok
        return ok if persona in {"director", "owner"} else {404}
    raise AssertionError(f"unknown access class {access}")


def test_every_route_is_in_the_table():
    names = {r.name for r in all_routes()}
    missing = sorted(names - set(ROUTES))
    assert missing == [], f"decide who may use these routes: {missing}"
    assert sorted(set(ROUTES) - names) == []


def test_every_route_answers_every_persona_as_the_table_says(world):
    _club, ids, users = world
    failures = []
    for r in all_routes():
        access, methods = ROUTES[r.name]
        url = reverse(r.name, kwargs={p: ids[p] for p in r.params})
        if r.name == "roster_merge_confirm":
            url += f"?kept={ids['player_id']}&merged={ids['other_player_id']}"
        for persona in PERSONAS:
            client = Client()
            if persona != "anonymous":
                client.force_login(users[persona])
            for method in sorted(methods):
                # Each request runs in a savepoint that is rolled back, so a
                # deleting POST does not change what the next request sees.
                with transaction.atomic():
                    response = getattr(client, method.lower())(url)
                    transaction.set_rollback(True)
                want = expected(access, persona, method, "secret" in r.params)
                if r.name in REDIRECTING_GETS and want == OK_GET:
                    want = {302}
                if response.status_code not in want:
                    failures.append(
                        f"{method} {url} as {persona}: {response.status_code}, want {want}"
                    )
    assert failures == []


def test_the_staff_admin_is_for_staff_only(world):
    _club, _ids, users = world
    assert Client().get("/staff-admin/").status_code == 302
    client = Client()
    client.force_login(users["director"])
    assert client.get("/staff-admin/").status_code == 302
    client.force_login(users["staff"])
    assert client.get("/staff-admin/").status_code == 200


def test_a_director_only_club_looks_missing_to_everyone_else(world):
    club, _ids, users = world
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.DIRECTOR)
    secret_url = reverse("club_page_secret", kwargs={"slug": club.slug, "secret": club.secret})
    missing = Client().get(reverse("club_page_secret", kwargs={"slug": "nope", "secret": "x"}))
    for persona in ("anonymous", "other_director", "staff"):
        client = Client()
        if persona != "anonymous":
            client.force_login(users[persona])
        response = client.get(secret_url)
        assert response.status_code == 404
        assert response.content == missing.content
