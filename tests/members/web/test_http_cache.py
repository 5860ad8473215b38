"""HTTP validators and cache rules a CDN in front of many web hosts can use."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import F
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Ladder, Player
from clubs.results import Result
from ladder.changes import LadderInput, OnPages, club_changed
from ladder.replay import replay_ladder
from members.web import page_cache
from tests.factories import make_club, make_event

pytestmark = pytest.mark.django_db

PAGES = ["", "players/", "events/", "ladder.json", "ladder.csv", "seeding.trf", "seeding.csv"]
PAGES += ["seasons/", "seasons/2025-26/"]  # the Spring Open's season (10 January 2026)


@pytest.fixture
def public(owner):
    club = make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)
    ann = Player.objects.create(club=club, name="Ann Archer")
    bob = Player.objects.create(club=club, name="Bob Baker", junior=True)
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Spring Open")
    replay_ladder(club.pk, full=True)
    return Club.objects.get(pk=club.pk)


def url(club: Club, suffix: str = "") -> str:
    if club.visibility == Club.Visibility.PUBLIC:
        return reverse("club_page", args=[club.slug]) + suffix
    return reverse("club_page_secret", args=[club.slug, club.secret]) + suffix


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def vary(response) -> set[str]:
    return {v.strip().lower() for v in response.get("Vary", "").split(",")}


@pytest.mark.parametrize("suffix", PAGES)
def test_a_public_page_has_a_stable_etag_and_a_shared_cache_may_keep_it_a_minute(public, suffix):
    first, again = Client().get(url(public, suffix)), Client().get(url(public, suffix))
    assert first[page_cache.STATUS_HEADER] == "miss" and again[page_cache.STATUS_HEADER] == "hit"
    assert first["ETag"] == again["ETag"] and first["ETag"].startswith('W/"')
    assert directives(first) == directives(again) == {"public", "max-age=60"}
    assert {"accept-language", "cookie", "accept-encoding"} <= vary(first)


def test_the_etag_does_not_carry_the_clubs_secret(public):
    assert public.secret not in Client().get(url(public))["ETag"]


@pytest.mark.parametrize("suffix", PAGES)
def test_a_matching_if_none_match_gets_304_for_the_one_club_row_query(public, suffix):
    tag = Client().get(url(public, suffix))["ETag"]
    with CaptureQueriesContext(connection) as queries:
        response = Client().get(url(public, suffix), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304 and response.content == b""
    assert response["ETag"] == tag and directives(response) == {"public", "max-age=60"}
    assert len(queries) == 1


def test_a_host_that_never_kept_the_page_builds_it_and_answers_the_same_tag_with_304(public):
    tag = Client().get(url(public, "players/"))["ETag"]
    caches[page_cache.CACHE_ALIAS].clear()  # another web host behind the same CDN
    response = Client().get(url(public, "players/"), HTTP_IF_NONE_MATCH=f'"x", {tag}')
    # The tag is made from the page, not from this host's memory: the same page, the same tag.
    assert response.status_code == 304 and response["ETag"] == tag
    # Built to answer, and kept.
    assert Client().get(url(public, "players/"))[page_cache.STATUS_HEADER] == "hit"


def test_a_stale_or_foreign_etag_gets_the_whole_page(public):
    response = Client().get(url(public), HTTP_IF_NONE_MATCH='W/"not-this-page"')
    assert response.status_code == 200 and response["ETag"] != 'W/"not-this-page"'


def test_a_change_to_what_the_page_shows_gives_it_a_new_etag_and_the_old_one_no_304(public):
    old = Client().get(url(public))["ETag"]
    with transaction.atomic():
        Player.objects.filter(club=public, name="Ann Archer").update(name="Ann Abbott")
        club_changed(public.pk, OnPages())
    response = Client().get(url(public), HTTP_IF_NONE_MATCH=old)
    assert response.status_code == 200 and response["ETag"] != old
    assert "Ann Abbott" in response.content.decode()


def test_the_recalculating_notice_gives_the_page_a_new_etag(public):
    old = Client().get(url(public))["ETag"]
    with transaction.atomic():
        club_changed(public.pk, LadderInput())  # the replay waits for a commit that never comes
    response = Client().get(url(public), HTTP_IF_NONE_MATCH=old)
    assert response.status_code == 200 and response["ETag"] != old
    # The kept page with the notice put in, as a browser taking gzip gets it: the same tag.
    assert Client().get(url(public), HTTP_ACCEPT_ENCODING="gzip")["ETag"] == response["ETag"]


def test_while_recalculating_a_kept_page_answers_its_own_etag_with_304_unopened(
    public, monkeypatch
):
    Client().get(url(public))  # kept while the ladder was current
    with transaction.atomic():
        club_changed(public.pk, LadderInput())
    with_notice = Client().get(url(public))
    assert "recalculated" in with_notice.content.decode()
    # The visitor holds the page with its notice: a 304 from the kept copy, which is
    # neither unpacked nor filled in again to find that out.
    monkeypatch.setattr(page_cache.gzip, "decompress", _never)
    again = Client().get(url(public), HTTP_IF_NONE_MATCH=with_notice["ETag"])
    assert again.status_code == 304 and again[page_cache.STATUS_HEADER] == "hit"
    assert again["ETag"] == with_notice["ETag"]


def _never(data: bytes) -> bytes:
    raise AssertionError("the kept page was unpacked to answer a 304")


@pytest.mark.parametrize("suffix", PAGES)
def test_a_version_bump_that_leaves_the_page_as_it_was_keeps_its_etag(public, suffix):
    old = Client().get(url(public, suffix))["ETag"]
    with transaction.atomic():
        club_changed(public.pk, OnPages())
    # A replay that came out the same.
    Ladder.objects.filter(club_id=public.pk).update(
        data_version=F("data_version") + 1, built_version=F("built_version") + 1
    )
    response = Client().get(url(public, suffix), HTTP_IF_NONE_MATCH=old)
    assert response.status_code == 304 and response["ETag"] == old


def test_the_etag_differs_per_language(public):
    english = Client().get(url(public), HTTP_ACCEPT_LANGUAGE="en")["ETag"]
    hindi = Client().get(url(public), HTTP_ACCEPT_LANGUAGE="hi")
    assert hindi["ETag"] != english
    assert (
        Client().get(url(public), HTTP_ACCEPT_LANGUAGE="hi", HTTP_IF_NONE_MATCH=english).status_code
        == 200
    )


@pytest.mark.parametrize("suffix", PAGES)
def test_an_unlisted_clubs_pages_are_never_public_but_can_be_revalidated(public, suffix):
    Club.objects.filter(pk=public.pk).update(visibility=Club.Visibility.UNLISTED)
    club = Club.objects.get(pk=public.pk)
    response = Client().get(url(club, suffix))
    assert "public" not in directives(response)
    assert {"private", "no-cache"} <= directives(response)
    again = Client().get(url(club, suffix), HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and "public" not in directives(again)


@pytest.mark.parametrize("suffix", ["", "players/", "ladder.json"])
def test_a_directors_club_pages_are_private_no_store_with_no_etag(public, owner, suffix):
    client = Client()
    client.force_login(owner)
    tag = Client().get(url(public, suffix))["ETag"]
    response = client.get(url(public, suffix), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200 and not response.has_header("ETag")
    assert {"private", "no-store"} <= directives(response) and "public" not in directives(response)


def test_the_manage_screen_stays_private_no_store(public, owner):
    client = Client()
    client.force_login(owner)
    response = client.get(reverse("club_manage", args=[public.slug]))
    assert {"private", "no-store"} <= directives(response)


def test_a_visitor_with_a_session_gets_a_page_no_shared_cache_keeps(public):
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = "anything"
    response = client.get(url(public))
    assert "public" not in directives(response) and not response.has_header("ETag")


def test_the_inactive_notice_is_never_kept(public, monkeypatch):
    monkeypatch.setattr(Club, "page_is_active", lambda self: False)
    for suffix in ["", "ladder.json"]:
        response = Client().get(url(public, suffix))
        assert "public" not in directives(response) and "no-cache" in directives(response)
