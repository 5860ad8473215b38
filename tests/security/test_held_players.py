"""Nothing public before it is published: a player first met in a draft (held) is on no page,
download, count or page key a visitor can reach, in any language and either name mode,
until an event of theirs is published."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse

from clubs.models import Board, Club, Entry, Event, Game, Player, ScheduleDate, Series
from clubs.models.club import MAIN_SLUG
from clubs.results import Result
from directors.events.flow import publish_event
from directors.events.names import Action, NameDecision, apply_name_decisions
from directors.night.board_reports import round_codes
from ladder.replay import replay_ladder
from ladder.roster import rosters
from ladder.seasons.dates import season_of
from tests.factories import (
    first_ladder,
    make_club,
    make_event,
    make_players,
    make_user,
    set_standing,
)
from tests.security.routes import ROUTES, all_routes, scheduled

pytestmark = pytest.mark.django_db

HELD = "Zebulon Quarrie"
HELD_INITIALS = "Z. Q."
LANGUAGES = ("en", "nl", "de", "hi")
# Every route a visitor without an account can reach, beside the club pages themselves.
OPEN_ROUTES = (
    "home",
    "club_directory",
    "robots_txt",
    "sitemap",
    "shared_event",
    "shared_event_rounds",
    "shared_event_wallchart",
    "shared_event_ratings",
    "board_report",  # a board code of the draft night, where the held player plays
)


def held_world(name_display: str, visibility: str) -> dict:
    """A club with a published event, and a club night being played (a draft) in which a
    name was decided "new player": that player is held."""
    director = make_user("director@example.org")
    club = make_club(
        slug="rooks", directors=[director], name_display=name_display, visibility=visibility
    )
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    published = make_event(club, [(1, ann, bob, Result.WHITE_WIN)], name="Autumn")
    draft = Event.objects.create(
        club=club,
        name="Winter",
        date=dt.date(2026, 2, 1),
        pairing_system="swiss",
        planned_rounds=1,
    )
    first = Entry.objects.create(event=draft, typed_name="Ann Archer", player=ann, start_rank=1)
    newcomer = Entry.objects.create(event=draft, typed_name=HELD, start_rank=2)
    game = Game.objects.create(
        event=draft, round=1, white=first, black=newcomer, result=Result.WHITE_WIN
    )
    Board.objects.create(event=draft, round=1, number=1, white=first, black=newcomer, game=game)
    with transaction.atomic():
        apply_name_decisions(
            draft.pk, draft.edit_version, [NameDecision(newcomer.pk, Action.NEW)], director
        )
    replay_ladder(club.pk, full=True)
    held = Player.objects.get(club=club, name=HELD)
    return {"club": club, "held": held, "ann": ann, "published": published, "draft": draft}


EVENT_KEYS = ("published", "draft")


def held_series(world: dict) -> list[Series]:
    """A series of every standard event over both events' dates, and one that names the
    draft (and the published event) one by one: the draft counts in neither while it is
    one, so the held player stands in no series."""
    club = world["club"]
    dates = sorted(world[key].date for key in EVENT_KEYS)
    by_kind = Series.objects.create(
        club=club, slug="by-kind", name="By kind", kinds=["standard"],
        date_from=dates[0], date_to=dates[-1],
    )  # fmt: skip
    chosen = Series.objects.create(club=club, slug="chosen", name="Chosen")
    chosen.events.set([world["draft"], world["published"]])
    return [by_kind, chosen]


def visitor_urls(world: dict) -> list[str]:
    """Every visitor route, each id filled in with the held player and the draft as well as
    with what is published."""
    club: Club = Club.objects.get(pk=world["club"].pk)
    values = {
        "slug": [club.slug],
        "secret": [club.secret],
        "player_id": [world["held"].pk, world["ann"].pk],
        "event_id": [world["draft"].pk, world["published"].pk],
        "share_token": [world["draft"].share_token, world["published"].share_token],
        "ladder": [MAIN_SLUG],
        # The season of the published event and of the draft (the held player's only event).
        "season": sorted(
            {season_of(world[key].date, club.season_start_month).label for key in EVENT_KEYS}
        ),
        "series": [series.slug for series in held_series(world)],
        "board_code": [code.code for code in round_codes(world["draft"], 1).values()],
    }
    # A club night whose date the draft was started from: the schedule and the calendar
    # link results only once published, so the draft (and its held player) stays unseen.
    assert values["board_code"]  # the draft's board has its code: its page is walked
    night = scheduled(club)
    ScheduleDate.objects.create(entry=night, date=night.date, event=world["draft"])
    urls = []
    for r in all_routes():
        if ROUTES[r.name][0] != "visitor" and r.name not in OPEN_ROUTES:
            continue
        combos: list[dict[str, object]] = [{}]
        for param in r.params:
            combos = [{**c, param: v} for c in combos for v in values[param]]
        for kwargs in combos:
            urls.append(reverse(r.name, kwargs=kwargs))
    return urls


def names_in(body: str, name_display: str) -> bool:
    return (
        HELD in body or "Quarrie" in body or (name_display == "initials" and HELD_INITIALS in body)
    )


@pytest.mark.parametrize("name_display", ["full", "initials"])
@pytest.mark.parametrize("visibility", ["public", "unlisted"])
def test_a_held_player_is_on_no_visitor_route_in_any_language_until_published(
    name_display, visibility
):
    world = held_world(name_display, visibility)
    urls = visitor_urls(world)
    client = Client()
    answered, leaks = 0, []
    for url in urls:
        for language in LANGUAGES:
            rosters.forget_rosters()
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            answered += response.status_code == 200
            body = response.content.decode()
            # Neither the name nor a link to the player's page (which says they exist).
            if names_in(body, name_display) or f"players/{world['held'].pk}/" in body:
                leaks.append(f"{language} {url}")
    assert leaks == []
    # Honest: the pages were there to leak, the live page of the draft among them.
    live = reverse("club_event_live" if visibility == "public" else "club_event_live_secret",
                   kwargs=_club_kwargs(world, event_id=world["draft"].pk))  # fmt: skip
    assert client.get(live).status_code == 200
    assert answered > 4 * 12

    held_page = reverse(
        "club_player" if visibility == "public" else "club_player_secret",
        kwargs=_club_kwargs(world, player_id=world["held"].pk),
    )
    assert client.get(held_page).status_code == 404

    draft = Event.objects.get(pk=world["draft"].pk)
    with transaction.atomic():
        publish_event(draft.pk, draft.edit_version, None)
    replay_ladder(world["club"].pk, full=True)
    shown = HELD if name_display == "full" else HELD_INITIALS
    for language in LANGUAGES:
        rosters.forget_rosters()
        for name, kwargs in (
            ("club_roster", {}),
            ("club_player", {"player_id": world["held"].pk}),
            ("club_event", {"event_id": draft.pk}),
        ):
            if visibility == "unlisted":
                name += "_secret"
            response = client.get(
                reverse(name, kwargs=_club_kwargs(world, **kwargs)), HTTP_ACCEPT_LANGUAGE=language
            )
            assert response.status_code == 200
            assert shown in response.content.decode(), (language, name)
        shared = client.get(reverse("shared_event", args=[draft.share_token]))
        assert shown in shared.content.decode()


def _club_kwargs(world: dict, **extra: object) -> dict[str, object]:
    club = Club.objects.get(pk=world["club"].pk)
    kwargs: dict[str, object] = {"slug": club.slug, **extra}
    if club.visibility == Club.Visibility.UNLISTED:
        kwargs["secret"] = club.secret
    return kwargs


def test_a_director_sees_the_held_player_on_the_roster_screen_but_not_on_the_club_page():
    world = held_world("full", "public")
    client = Client()
    client.force_login(world["club"].roles.get().user)
    roster = client.get(reverse("roster_players", args=["rooks"])).content.decode()
    assert HELD in roster and "held: appears when an event of theirs is published" in roster
    assert HELD not in client.get(reverse("club_roster", args=["rooks"])).content.decode()


def test_deciding_a_new_player_in_a_draft_changes_no_public_page_key_or_etag():
    director = make_user("director@example.org")
    club = make_club(slug="rooks", directors=[director], visibility="public")
    ann, bob = make_players(club, ["Ann Archer", "Bob Baker"])
    make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    replay_ladder(club.pk, full=True)
    draft = make_event(club, published=False, name="Winter")
    first = Entry.objects.create(event=draft, typed_name="Ann Archer", player=ann)
    newcomer = Entry.objects.create(event=draft, typed_name=HELD)
    Game.objects.create(event=draft, round=1, white=first, black=newcomer, result="1-0")
    client = Client()
    urls = [reverse(name, args=["rooks"]) for name in ("club_page", "club_roster", "club_events")]
    urls.append(reverse("club_ladder_json", args=["rooks"]))
    before = {url: client.get(url)["ETag"] for url in urls}
    versions = (first_ladder(club).data_version, Club.objects.get(pk=club.pk).pages_version)
    with transaction.atomic():
        apply_name_decisions(
            draft.pk, draft.edit_version, [NameDecision(newcomer.pk, Action.NEW)], director
        )
    assert Player.objects.get(name=HELD).held
    assert (first_ladder(club).data_version, Club.objects.get(pk=club.pk).pages_version) == versions
    assert {url: client.get(url)["ETag"] for url in urls} == before


def test_export_ladder_leaves_out_a_held_player_whatever_the_stored_numbers_say():
    world = held_world("full", "public")
    # As a replay that ran while the event was published leaves them after an unpublish.
    set_standing(world["held"].pk, rating=1500.0, rated_games=3)
    out = io.StringIO()
    call_command("export_ladder", "rooks", "--format", "json", stdout=out, stderr=io.StringIO())
    assert "Ann Archer" in out.getvalue() and HELD not in out.getvalue()
    Player.objects.filter(pk=world["held"].pk).update(held=False)
    out = io.StringIO()
    call_command("export_ladder", "rooks", "--format", "json", stdout=out, stderr=io.StringIO())
    assert HELD in out.getvalue()
