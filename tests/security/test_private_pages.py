"""Pages that are one user's own tell every cache and browser history not to keep them."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Board, ClubInvitation, ClubRole, Entry, Event, Merge, Series
from clubs.models.club import MAIN_SLUG
from clubs.results import Result
from clubs.tokens import create_token
from tests.factories import make_club, make_event, make_players, make_user
from tests.security.routes import ROUTES, SCHEDULE_DAY, all_routes, scheduled

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    owner, director = make_user("owner@a.example"), make_user("director@a.example")
    club = make_club(slug="club-a", owner=owner, directors=[director], visibility="public")
    ann, bob, cid = make_players(club, ["Ann Archer", "Bob Baker", "Cid Carter"])
    event = make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    merge = Merge.objects.create(club=club, kept=ann, merged=cid)
    # The event doubles as a club night with one paired board, so the night screens answer.
    Event.objects.filter(pk=event.pk).update(pairing_system="swiss", planned_rounds=1)
    white, black = Entry.objects.filter(event=event).order_by("start_rank")
    Board.objects.create(event=event, round=1, number=1, white=white, black=black)
    ids = {
        "slug": club.slug, "secret": club.secret, "ladder": MAIN_SLUG,
        "role_id": ClubRole.objects.get(club=club, user=director).pk,
        "player_id": ann.pk, "event_id": event.pk,
        "entry_id": Entry.objects.filter(event=event).first().pk, "merge_id": merge.pk,
        "uidb64": "MQ", "token": "not-a-token", "share_token": event.share_token, "code": "nl",
        "round_number": 1, "board_number": 1, "upload_id": 0,
        "series": Series.objects.create(club=club, slug="grand-prix", name="Grand Prix").slug,
        "schedule_id": scheduled(club).pk, "day": SCHEDULE_DAY,
        "token_id": create_token(club, "edges", "read", None).token.pk,
        "board_code": "ABCDEFGHJKLM",
        "invitation_id": ClubInvitation.objects.create(club=club, email_hash="x").pk,
    }  # fmt: skip
    return club, ids, owner


def is_private(response) -> bool:
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    return {"private", "no-store"} <= directives and "public" not in directives


def test_every_manage_route_says_private_no_store_to_every_method(world):
    _club, ids, owner = world
    client = Client()
    client.force_login(owner)  # the owner may use every director's and owner's route
    checked, shared = 0, []
    for r in all_routes():
        if not r.pattern.startswith("manage/"):
            continue
        _access, methods = ROUTES[r.name]
        url = reverse(r.name, kwargs={p: ids[p] for p in r.params})
        for method in sorted(methods):
            with transaction.atomic():
                response = getattr(client, method.lower())(url)
                transaction.set_rollback(True)
            checked += 1
            if not is_private(response):
                shared.append(f"{method} {url}: {response.status_code}")
    assert shared == []
    assert checked > 40  # billing, settings, events, roster, audit: all of them


def test_a_manage_page_asked_for_by_an_outsider_is_private_too(world):
    _club, ids, _owner = world
    response = Client().get(reverse("club_manage", args=[ids["slug"]]))
    assert response.status_code == 404 and is_private(response)


@pytest.mark.parametrize(
    "name", ["login", "signup", "password_reset", "password_reset_done", "password_reset_complete"]
)
def test_account_pages_are_private(name):
    assert is_private(Client().get(reverse(name)))


def test_pages_built_for_a_signed_in_user_are_private_and_a_visitors_are_not(world):
    club, _ids, owner = world
    visitor = Client().get(reverse("club_page", args=[club.slug]))
    assert visitor.status_code == 200 and "no-store" not in visitor.get("Cache-Control", "")
    director = Client()
    director.force_login(owner)
    for url in [reverse("club_page", args=[club.slug]), reverse("club_create")]:
        assert is_private(director.get(url)), url
