"""Whole club pages kept for visitors without a session, shared while nothing on them changed."""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Callable

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club, Entry, Event, Game, Ladder, Player
from clubs.results import Result
from directors.events.drafts import EventDetails, update_event
from directors.events.names import Action, NameDecision, apply_name_decisions
from directors.events.publishing import delete_event, unpublish_event
from directors.roster.erasure import erase_player
from directors.roster.players import release_player, update_player_details
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder
from members.web import page_cache
from tests.factories import make_club, make_event, make_user, rated_players, set_standing

pytestmark = pytest.mark.django_db

W = Result.WHITE_WIN


@pytest.fixture
def world(owner):
    club = make_club(slug="knights", owner=owner, visibility=Club.Visibility.PUBLIC)
    jasper = Player.objects.create(club=club, name="Jasper Bakker", junior=True)
    henk = Player.objects.create(club=club, name="Henk Bos")
    event = make_event(club, [(1, jasper, henk, W)], name="Spring Open")
    replay_ladder(club.pk, full=True)
    return club, jasper, henk, event


def page(club: Club, suffix: str = "", client: Client | None = None, **headers: str) -> str:
    base = reverse("club_page", args=[club.slug])
    if club.visibility != Club.Visibility.PUBLIC:
        base = reverse("club_page_secret", args=[club.slug, club.secret])
    response = (client or Client()).get(base + suffix, **headers)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def queries_for(club: Club, suffix: str = "") -> tuple[int, str]:
    with CaptureQueriesContext(connection) as queries:
        html = page(club, suffix)
    return len(queries), html


@pytest.mark.parametrize("suffix", ["", "players/", "events/", "ladder.json"])
def test_a_kept_page_costs_one_query_and_is_the_same_page(world, suffix):
    club = world[0]
    built, first = queries_for(club, suffix)
    kept, again = queries_for(club, suffix)
    assert again == first
    assert kept == 1 < built  # the club's row, which carries every version the key needs


def test_player_and_event_pages_are_kept_too(world):
    club, jasper, _henk, event = world
    for suffix in [f"players/{jasper.pk}/", f"events/{event.pk}/"]:
        built, first = queries_for(club, suffix)
        kept, again = queries_for(club, suffix)
        assert (kept, again) == (1, first) and built > 1


def test_the_rating_rules_page_is_kept_and_shows_new_settings_after_their_replay(world):
    club = world[0]
    url = reverse("club_rating_rules", args=[club.slug])
    first, again = Client().get(url), Client().get(url)
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    assert "K is 40 while" in again.content.decode()
    with transaction.atomic():
        Ladder.objects.filter(club_id=club.pk).update(rating_settings={"k_high": 32})
        club_changed(club.pk, LadderInput())  # as the admin does for a rating setting
    replay_ladder(club.pk)
    assert "K is 32 while" in Client().get(url).content.decode()


def in_transaction(change: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        with transaction.atomic():
            return change()

    return run


def record_consent(club, jasper, henk, event):
    update_player_details(jasper, junior=True, full_name_consent=True, start_rating=None, user=None)


def no_longer_a_junior(club, jasper, henk, event):
    # A ladder input (the junior K rule) that also changes how the name is shown: the name
    # must show at once, not only after the replay.
    update_player_details(
        jasper, junior=False, full_name_consent=False, start_rating=None, user=None
    )


def erase_henk(club, jasper, henk, event):
    erase_player(henk, None)


def rename_event(club, jasper, henk, event):
    update_event(
        event.pk, event.edit_version, EventDetails(name="Summer Open", date=event.date), None
    )


def delete_the_event(club, jasper, henk, event):
    delete_event(event.pk, event.edit_version, None)


def held_player_added_by_a_director(club, jasper, henk, event):
    """A new player of a draft is held (on no page) until a director adds them."""
    draft = Event.objects.create(club=club, name="Next week", date=event.date)
    entry = Entry.objects.create(event=draft, typed_name="Nina Nieuwenhuis")
    decision = NameDecision(entry.pk, Action.NEW)
    apply_name_decisions(draft.pk, draft.edit_version, [decision], None)
    release_player(rated_players().get(name="Nina Nieuwenhuis"), None)


def staff_rename(club, jasper, henk, event):
    staff = make_user("staff@example.org", staff=True)
    client = Client()
    client.force_login(staff)
    url = reverse("admin:clubs_player_change", args=[henk.pk])
    form = {"name": "Hendrik Bos", "name_key": henk.name_key, "junior": "", "start_games": 0}
    response = client.post(url, {**form, "start_rating": "", "full_name_consent": ""})
    assert response.status_code == 302, response.content.decode()[:2000]


def initials_setting(club, jasper, henk, event):
    client = Client()
    client.force_login(club.roles.get().user)
    response = client.post(
        reverse("club_settings", args=[club.slug]),
        {"visibility": "public", "name_display": "initials", "language": "en"},
    )
    assert response.status_code == 302


# (what changes, the page, text it removes (None: it only adds), text it shows)
CHANGES = [
    (record_consent, "", "J. B.", "Jasper Bakker"),
    (record_consent, "events/", "J. B.", "Jasper Bakker"),  # the winner of Spring Open
    (no_longer_a_junior, "players/", "J. B.", "Jasper Bakker"),
    (erase_henk, "players/", "Henk Bos", "Erased player"),
    (rename_event, "events/", "Spring Open", "Summer Open"),
    (held_player_added_by_a_director, "players/", None, "Nina Nieuwenhuis"),
    (staff_rename, "", "Henk Bos", "Hendrik Bos"),
    (initials_setting, "", "Henk Bos", "H. B."),
]


@pytest.mark.parametrize(
    ("change", "suffix", "gone", "shown"), CHANGES, ids=[c[0].__name__ for c in CHANGES]
)
def test_every_change_a_page_shows_retires_the_kept_page(world, change, suffix, gone, shown):
    club, jasper, henk, event = world
    first = page(club, suffix)
    assert shown not in first and (gone is None or gone in first)
    assert page(club, suffix) == first  # kept
    in_transaction(lambda: change(club, jasper, henk, event))()
    club.refresh_from_db()
    now = page(club, suffix)
    assert shown in now and (gone is None or gone not in now)


def test_a_consent_retires_the_kept_page_of_an_opponent_and_its_head_to_head(world):
    club, jasper, henk, event = world
    suffix = f"players/{henk.pk}/"

    def head_to_head(html: str) -> str:
        return re.search(r'<table class="head-to-head">.*?</table>', html, re.S).group(0)

    first = page(club, suffix)
    assert "J. B." in head_to_head(first) and "Jasper" not in first
    assert page(club, suffix) == first  # kept
    in_transaction(lambda: record_consent(club, jasper, henk, event))()
    club.refresh_from_db()
    assert "Jasper Bakker" in head_to_head(page(club, suffix))


def test_the_standings_after_a_round_are_kept_per_round_and_retire_with_the_event(world):
    club, jasper, henk, event = world
    Game.objects.create(
        event=event,
        round=2,
        white=event.entries.get(player=henk),
        black=event.entries.get(player=jasper),
        result=Result.DRAW,
    )
    club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    club.refresh_from_db()
    after, final = f"events/{event.pk}/?after=1", f"events/{event.pk}/"
    first = page(club, after)
    assert "Standings after round 1 of 2" in first and "J. B." in first
    assert queries_for(club, after) == (1, first)  # kept, apart from the final standings
    assert "Standings after round" not in page(club, final)
    in_transaction(lambda: record_consent(club, jasper, henk, event))()
    club.refresh_from_db()
    assert "Jasper Bakker" in page(club, after)


NOTICE = "The ladder is being recalculated"


def without_status(html: str) -> str:
    return re.sub("<!--ladder-status-->.*<!--/ladder-status-->", "", html, flags=re.S)


@pytest.mark.parametrize("suffix", ["", "players/", "events/"])
def test_a_ladder_input_change_keeps_the_last_good_page_with_the_notice(world, suffix):
    club, _jasper, _henk, event = world
    before = page(club, suffix)
    assert NOTICE not in before
    unrated = EventDetails(name=event.name, date=event.date, rated=False)
    # The test's transaction never commits, so the replay this queues does not run yet.
    in_transaction(lambda: update_event(event.pk, event.edit_version, unrated, None))()
    club.refresh_from_db()
    kept = page(club, suffix)
    assert NOTICE in kept and without_status(kept) == without_status(before)  # last good
    assert kept == page(club, suffix)
    replay_ladder(club.pk)
    club.refresh_from_db()
    after = page(club, suffix)
    assert NOTICE not in after and after != before


def test_downloads_say_at_once_that_the_ladder_is_being_recalculated(world):
    club, *_ = world
    url = reverse("club_ladder_json", args=[club.slug])
    assert Client().get(url).json()["ladder_is_current"] is True
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    assert Client().get(url).json()["ladder_is_current"] is False
    csv = Client().get(reverse("club_ladder_csv", args=[club.slug]))
    assert csv["X-Ladder-Status"] == "recalculating"


def test_a_replay_retires_the_pages_built_before_it(world):
    club, _jasper, henk, _event = world
    set_standing(henk.pk, start_rating=1500)
    # The test's transaction never commits, so the replay this queues does not run yet.
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    stale = page(club)
    assert "being recalculated" in stale
    replay_ladder(club.pk)
    club.refresh_from_db()
    assert "being recalculated" not in page(club)


def test_directors_always_get_their_own_page_and_never_fill_the_cache(world):
    club, *_ = world
    director = Client()
    director.force_login(club.roles.get().user)
    assert "J. B." in page(club)
    assert "Jasper Bakker" in page(club, client=director)
    assert "Jasper Bakker" not in page(club)


def test_a_visitor_with_a_session_or_a_message_bypasses_the_cache(world):
    club, *_ = world
    url = reverse("club_page", args=[club.slug])
    assert Client().get(url)["X-Page-Cache"] == "miss"
    assert Client().get(url)["X-Page-Cache"] == "hit"
    for cookie in ("sessionid", "messages"):
        visitor = Client()
        visitor.cookies[cookie] = "anything"
        response = visitor.get(url)
        assert response.status_code == 200
        assert "X-Page-Cache" not in response


def test_each_language_and_query_has_a_page_of_its_own(world):
    club, *_ = world
    assert "<h1>Rangliste" in page(club, HTTP_ACCEPT_LANGUAGE="de")
    assert "<h1>Ranglijst" in page(club, HTTP_ACCEPT_LANGUAGE="nl")
    assert "<h1>Ladder" in page(club)
    everyone, active = page(club), page(club, "?active=1")
    assert everyone != active


def test_kept_downloads_keep_their_headers(world):
    club, *_ = world
    url = reverse("club_ladder_csv", args=[club.slug])
    first, again = Client().get(url), Client().get(url)
    for header in ("Content-Type", "Content-Disposition", "X-Ladder-Status"):
        assert again[header] == first[header]
    assert again.content == first.content


def test_a_rotated_secret_closes_kept_pages(world):
    club, *_ = world
    Club.objects.filter(pk=club.pk).update(visibility=Club.Visibility.UNLISTED)
    club.refresh_from_db()
    old = reverse("club_page_secret", args=[club.slug, club.secret])
    assert Client().get(old).status_code == 200
    club.rotate_secret()
    response = Client().get(old)
    assert response.status_code == 404
    kept_unlisted = Client().get(reverse("club_page_secret", args=[club.slug, club.secret]))
    assert kept_unlisted["X-Robots-Tag"] == "noindex, nofollow"
    again = Client().get(reverse("club_page_secret", args=[club.slug, club.secret]))
    assert again["X-Robots-Tag"] == "noindex, nofollow"
    assert again["Referrer-Policy"] == "no-referrer"


def test_a_club_whose_subscription_ends_shows_the_notice_not_the_kept_page(world, settings):
    club, *_ = world
    assert "Henk Bos" in page(club)
    settings.BILLING_ENABLED = True  # and no subscription
    html = Client().get(reverse("club_page", args=[club.slug])).content.decode()
    assert "Henk Bos" not in html


def test_no_cache_at_all_when_its_lifetime_is_zero(world):
    club, *_ = world
    with override_settings(
        CACHES={
            "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            page_cache.CACHE_ALIAS: {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "zero",
                "TIMEOUT": 0,
            },
        }
    ):
        url = reverse("club_page", args=[club.slug])
        assert Client().get(url)["X-Page-Cache"] == "miss"
        assert Client().get(url)["X-Page-Cache"] == "miss"


def test_a_page_larger_than_the_limit_is_built_every_time(world, settings):
    club, *_ = world
    settings.PAGE_CACHE_MAX_BYTES = 1000  # smaller than any page
    url = reverse("club_page", args=[club.slug])
    assert [Client().get(url)["X-Page-Cache"] for _ in range(2)] == ["miss", "miss"]


DIRECTOR_SEES = [
    c for c in CHANGES if c[0] in (erase_henk, staff_rename, held_player_added_by_a_director)
]


@pytest.mark.parametrize(
    ("change", "suffix", "gone", "shown"), DIRECTOR_SEES, ids=[c[0].__name__ for c in DIRECTOR_SEES]
)
def test_a_directors_page_is_built_from_the_current_roster(world, change, suffix, gone, shown):
    club, jasper, henk, event = world
    director = Client()
    director.force_login(club.roles.get().user)
    page(club, suffix, client=director)  # the roster of this version is now kept
    in_transaction(lambda: change(club, jasper, henk, event))()
    now = page(club, suffix, client=director)
    assert shown in now and (gone is None or gone not in now)


def test_unknown_query_parameters_bypass_the_cache(world):
    club, *_ = world
    url = reverse("club_page", args=[club.slug])
    # (?page= is an event page's page of rows since issue 27: kept, like ?after=.)
    for junk in ("?utm_source=x", "?active=1&offset=2", "?q=1", "?page=x"):
        assert "X-Page-Cache" not in Client().get(url + junk)
    assert Client().get(url + "?active=1")["X-Page-Cache"] == "miss"
    assert Client().get(url + "?active=1")["X-Page-Cache"] == "hit"


def test_a_page_kept_while_recalculating_shows_the_notice_once(world):
    club, *_ = world
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    url = reverse("club_page", args=[club.slug])
    first, again = Client().get(url), Client().get(url)
    assert (first["X-Page-Cache"], again["X-Page-Cache"]) == ("miss", "hit")
    assert again.content.decode().count(NOTICE) == 1


def html_pages(player: Player, event: Event) -> list[str]:
    return [
        "",
        "?active=1",
        "players/",
        "events/",
        f"players/{player.pk}/",
        f"events/{event.pk}/",
        "how-ratings-work/",
    ]


def test_every_html_club_page_marks_where_the_notice_goes(world):
    """A kept page gains the notice only where the marked region is: every club page has one."""
    club, _jasper, henk, event = world
    for suffix in html_pages(henk, event):
        html = page(club, suffix)
        assert html.count(page_cache.EMPTY_STATUS.decode()) == 1, suffix


def test_every_kept_html_page_gains_the_notice_and_loses_it_after_the_replay(world):
    club, _jasper, henk, event = world
    suffixes = html_pages(henk, event)
    kept = {suffix: page(club, suffix) for suffix in suffixes}
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    club.refresh_from_db()
    for suffix in suffixes:
        now = page(club, suffix)
        assert NOTICE in now and without_status(now) == without_status(kept[suffix]), suffix
    replay_ladder(club.pk)
    club.refresh_from_db()
    for suffix in suffixes:
        assert NOTICE not in page(club, suffix), suffix


def test_a_browser_that_takes_gzip_gets_the_kept_page_as_kept(world):
    club, _jasper, henk, _event = world
    url = reverse("club_player", args=[club.slug, henk.pk])
    plain = Client().get(url)
    for state in ("hit", "hit"):
        response = Client().get(url, HTTP_ACCEPT_ENCODING="br, gzip, deflate")
        assert response["X-Page-Cache"] == state and response["Content-Encoding"] == "gzip"
        assert gzip.decompress(response.content) == plain.content
        assert "Accept-Encoding" in response["Vary"]
    assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]


def test_the_first_gzip_visitor_gets_the_page_compressed_too(world):
    club, *_ = world
    url = reverse("club_roster", args=[club.slug])
    first = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert first["X-Page-Cache"] == "miss" and first["Content-Encoding"] == "gzip"
    assert gzip.decompress(first.content) == Client().get(url).content


def test_a_gzip_visitor_gets_the_notice_while_the_ladder_is_behind(world):
    club, *_ = world
    url = reverse("club_page", args=[club.slug])
    Client().get(url)
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    response = Client().get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response["X-Page-Cache"] == "hit" and "Content-Encoding" not in response
    assert NOTICE in response.content.decode()


def test_only_the_active_filter_may_be_in_a_kept_pages_query(world):
    club, *_ = world
    url = reverse("club_page", args=[club.slug])
    for query in ("?active=0", "?active=1&active=1", "?active=%3Cb%3E"):
        assert "X-Page-Cache" not in Client().get(url + query), query


# --- Retiring an event or a name: at once, whether or not a replay ever runs -----------------


def director_client(club: Club) -> Client:
    client = Client()
    client.force_login(club.roles.get().user)
    return client


def delete_on_the_directors_screen(club: Club, event: Event) -> None:
    url = reverse("event_delete", args=[club.slug, event.pk])
    assert director_client(club).post(url, {"version": event.edit_version}).status_code == 302


def unpublish_on_the_directors_screen(club: Club, event: Event) -> None:
    url = reverse("event_unpublish", args=[club.slug, event.pk])
    assert director_client(club).post(url, {"version": event.edit_version}).status_code == 302


def delete_with_the_command(club: Club, event: Event) -> None:
    call_command("delete_event", club.slug, str(event.pk), stdout=io.StringIO())


def delete_in_code(club: Club, event: Event) -> None:
    delete_event(event.pk, event.edit_version, None)


def unpublish_in_code(club: Club, event: Event) -> None:
    unpublish_event(event.pk, event.edit_version, None)


RETIRE_EVENT = [
    delete_on_the_directors_screen,
    unpublish_on_the_directors_screen,
    delete_with_the_command,
    delete_in_code,
    unpublish_in_code,
]


def assert_kept(club: Club, suffix: str, text: str) -> None:
    url = reverse("club_page", args=[club.slug]) + suffix
    Client().get(url)
    again = Client().get(url)
    assert again["X-Page-Cache"] == "hit" and text in again.content.decode(), suffix


@pytest.mark.parametrize("retire", RETIRE_EVENT, ids=[r.__name__ for r in RETIRE_EVENT])
def test_a_deleted_or_unpublished_event_leaves_every_kept_page_before_any_replay(world, retire):
    club, _jasper, henk, event = world
    pages_showing_it = ["events/", f"players/{henk.pk}/"]
    for suffix in pages_showing_it:
        assert_kept(club, suffix, "Spring Open")
    assert_kept(club, f"events/{event.pk}/", "Henk Bos")
    # The test's transaction never commits, so no replay runs: as with the worker down.
    retire(club, event)
    club.refresh_from_db()
    assert not club.ladder_is_current
    for suffix in pages_showing_it:
        assert "Spring Open" not in page(club, suffix), suffix
    gone = Client().get(reverse("club_event", args=[club.slug, event.pk]))
    assert gone.status_code == 404


def erase_on_the_directors_screen(club: Club, henk: Player) -> None:
    url = reverse("player_erase", args=[club.slug, henk.pk])
    assert director_client(club).post(url).status_code == 302


def erase_in_code(club: Club, henk: Player) -> None:
    erase_player(henk, None)


@pytest.mark.parametrize("erase", [erase_on_the_directors_screen, erase_in_code])
def test_an_erased_name_leaves_every_kept_page_at_once(world, erase):
    club, jasper, henk, event = world
    suffixes = ["", "players/", f"players/{jasper.pk}/", f"events/{event.pk}/", "ladder.json"]
    for suffix in suffixes:
        assert_kept(club, suffix, "Henk Bos")
    erase(club, henk)
    club.refresh_from_db()
    for suffix in suffixes:
        assert "Henk Bos" not in page(club, suffix), suffix


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_a_queue_but_no_worker_a_deleted_event_leaves_the_kept_pages(owner):
    """Committed for real: the replay waits in Redis, and no worker ever takes it."""
    from redis import Redis

    Redis.from_url(settings.REDIS_URL).flushdb()
    club = make_club(slug="queued", owner=owner, visibility=Club.Visibility.PUBLIC)
    ann, bob = (Player.objects.create(club=club, name=n) for n in ("Ann Archer", "Bob Baker"))
    event = make_event(club, [(1, ann, bob, W)], name="Autumn Cup")
    replay_ladder(club.pk, full=True)
    try:
        assert_kept(club, "events/", "Autumn Cup")
        delete_on_the_directors_screen(club, event)
        club.refresh_from_db()
        assert not club.ladder_is_current
        assert "Autumn Cup" not in page(club, "events/")
    finally:
        Redis.from_url(settings.REDIS_URL).flushdb()
