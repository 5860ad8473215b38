"""What the whole-club pages make of a kept roster is kept with it (issue 34): the ladder's and
the roster's row texts, each order of their lists, ladder.json's players. A page built from
them is the page built from nothing, byte for byte, in every variant (sorts, searches, the
active filter, a date, languages, a director; an unlisted club's two addresses); and a
rename, a consent or a replay shows on the next page at once.

Every page here is built (the page cache emptied before each request), so what answers is
what the roster keeps, never a kept whole page."""

import datetime as dt
import re

import pytest
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Player
from clubs.results import Result
from directors.roster.players import rename_player, update_player_details
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder
from ladder.roster import rosters
from ladder.roster.rosters import KEPT_PER_ROSTER, Roster, RosterPlayer
from members.web import page_cache
from tests.factories import make_club, make_event

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
PAGES = ("", "players/", "ladder.json")
QUERIES = (
    "",
    "?sort=name",
    "?sort=rating&dir=asc",
    "?sort=change",
    "?sort=status",
    "?q=bos",
    "?active=1",
    "?on=2025-01-12",
    "?on=2025-01-12&sort=name",
)


def built(client: Client, path: str, language: str = "en") -> bytes:
    """The page as built now, with whatever this process keeps of the club's rosters."""
    caches[page_cache.CACHE_ALIAS].clear()
    response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (path, response.status_code)
    # A director's pages carry a form's token, new each request: not what is compared.
    return re.sub(rb'name="csrfmiddlewaretoken" value="[^"]*"', b"", response.content)


def built_afresh(client: Client, path: str, language: str = "en") -> bytes:
    """The page built from nothing kept: the reference."""
    rosters.forget_rosters()
    return built(client, path, language)


@pytest.fixture
def knights(owner, director) -> Club:
    return make_club(
        slug="knights", owner=owner, directors=[director], visibility=Club.Visibility.PUBLIC
    )


@pytest.fixture
def players(knights) -> dict[str, Player]:
    """Five players (Jasper a junior without consent, Kees never playing after 2024), three
    events a year apart: the ladder today, last year's and the active one all differ."""
    names = ["Jasper Bakker", "Henk Bos", "Ingrid Dekker", "Lotte Smit", "Kees Visser"]
    found = {n.split()[0].lower(): Player.objects.create(club=knights, name=n) for n in names}
    Player.objects.filter(pk=found["jasper"].pk).update(junior=True)
    jasper, henk, ingrid, lotte, kees = found.values()
    today = dt.date.today()
    make_event(knights, [(1, kees, henk, W), (1, ingrid, lotte, D)], date=dt.date(2024, 3, 1))
    make_event(knights, [(1, jasper, henk, W), (1, ingrid, kees, B)], date=dt.date(2025, 1, 10))
    make_event(knights, [(1, henk, lotte, W), (2, jasper, ingrid, D)], date=today)
    replay_ladder(knights.pk, full=True)
    knights.refresh_from_db()
    return found


def test_every_variant_built_from_kept_rows_is_the_page_built_afresh(
    client, director, knights, players
):
    base = reverse("club_page", args=[knights.slug])
    directors = Client()
    directors.force_login(director)
    paths = [base + page + q for page in PAGES for q in QUERIES]
    # One pass fills what the rosters keep (each language, address and viewer in turn, so
    # a later one reads what an earlier one left), a second reads it; both as built afresh.
    for _pass in range(2):
        for who in (client, directors):
            kept = {(p, lang): built(who, p, lang) for p in paths for lang in ("en", "de")}
            for (path, language), page in kept.items():
                assert page == built_afresh(who, path, language), (path, language)
            for path, language in kept:  # the rosters keep again for the next pass
                built(who, path, language)
    # What was compared was read from what the rosters keep: both tables' rows, orders, files.
    kept_keys = {key[0] for roster in rosters._rosters.values() for key in roster._kept}
    assert {"roster rows", "roster order", "ladder", "active ladder"} <= kept_keys


def test_the_ladder_on_a_date_is_not_written_from_todays_kept_rows(client, knights, players):
    today, then = built(client, "/c/knights/"), built(client, "/c/knights/?on=2025-01-12")
    # Same ranks and players, other numbers: a row kept for today's ladder would be wrong.
    assert then != today
    assert then == built_afresh(client, "/c/knights/?on=2025-01-12")
    assert built(client, "/c/knights/?active=1") == built_afresh(client, "/c/knights/?active=1")


def test_a_rename_shows_on_the_next_page_at_once(client, knights, players):
    for page in PAGES:
        assert "Henk Bos" in built(client, f"/c/knights/{page}").decode()
    rename_player(players["henk"], "Hendrik Bos", None)
    knights.refresh_from_db()
    for page in PAGES:
        text = built(client, f"/c/knights/{page}").decode()
        assert "Hendrik Bos" in text and "Henk Bos" not in text, page
        assert text.encode() == built_afresh(client, f"/c/knights/{page}")


def test_a_consent_shows_the_full_name_on_the_next_page_and_a_visitor_never_gets_a_directors(
    client, director, knights, players
):
    directors = Client()
    directors.force_login(director)
    for page in PAGES:  # the director's rows (full names) first: kept for directors only
        assert "Jasper Bakker" in built(directors, f"/c/knights/{page}").decode()
        shown = built(client, f"/c/knights/{page}").decode()
        assert "Jasper Bakker" not in shown and "J. B." in shown, page
    update_player_details(
        players["jasper"], junior=True, full_name_consent=True, start_rating=None, user=None
    )
    for page in PAGES:
        text = built(client, f"/c/knights/{page}").decode()
        assert "Jasper Bakker" in text, page
        assert text.encode() == built_afresh(client, f"/c/knights/{page}")


def test_a_replayed_correction_shows_its_numbers_on_the_next_page(client, knights, players):
    before = {page: built(client, f"/c/knights/{page}") for page in PAGES}
    event = knights.events.get(date=dt.date.today())
    game = event.games.get(round=1)
    game.result = B  # Lotte beat Henk after all
    game.save()
    club_changed(knights.pk, LadderInput(from_date=event.date))
    # Not replayed yet: the last good numbers, with the notice (the JSON says it is not current).
    knights.refresh_from_db()
    assert b"The ladder is being recalculated." in built(client, "/c/knights/")
    assert b'"ladder_is_current": false' in built(client, "/c/knights/ladder.json")
    replay_ladder(knights.pk)
    knights.refresh_from_db()
    for page in PAGES:
        after = built(client, f"/c/knights/{page}")
        assert after != before[page], page
        assert after == built_afresh(client, f"/c/knights/{page}"), page


def test_each_address_has_its_own_rows_links(director, owner, players):
    unlisted = make_club(slug="bishops", owner=owner, directors=[director])
    Club.objects.filter(pk=unlisted.pk).update(visibility=Club.Visibility.UNLISTED)
    lotte = Player.objects.create(club=unlisted, name="Lotte Smit")
    henk = Player.objects.create(club=unlisted, name="Henk Bos")
    make_event(unlisted, [(1, lotte, henk, W)], date=dt.date(2025, 5, 1))
    replay_ladder(unlisted.pk, full=True)
    unlisted.refresh_from_db()
    directors = Client()
    directors.force_login(director)
    plain = reverse("club_page", args=[unlisted.slug])
    secret = reverse("club_page_secret", args=[unlisted.slug, unlisted.secret])
    for page in ("", "players/"):
        for base in (plain, secret):
            text = built(directors, base + page).decode()
            assert f'href="{base}players/{lotte.pk}/"' in text, (base, page)


# --- Roster.kept, without a database -------------------------------------------------------------


def _roster() -> Roster:
    player = RosterPlayer(1, "Ann", 1500.0, 3, False, dt.date(2025, 1, 1), 4.0)
    return Roster([player], {1: "Ann"})


@pytest.mark.django_db(False)
def test_kept_builds_once_per_key_and_keeps_a_bounded_number_recent_first():
    roster, calls = _roster(), []

    def build(key: int) -> str:
        calls.append(key)
        return f"made {key}"

    assert roster.kept(0, lambda: build(0)) == roster.kept(0, lambda: build(0)) == "made 0"
    assert calls == [0]
    for key in range(1, KEPT_PER_ROSTER + 1):
        roster.kept(key, lambda key=key: build(key))
        roster.kept(0, lambda: build(0))  # used the most lately: never the one dropped
    assert len(roster._kept) == KEPT_PER_ROSTER and 0 in roster._kept and 1 not in roster._kept
    assert calls.count(0) == 1
    keeper = roster.keeper("ladder", None)
    assert keeper(("name", "asc"), lambda: "rows") == "rows"
    assert ("ladder", None, ("name", "asc")) in roster._kept
    assert _roster().kept(0, lambda: "another roster's") == "another roster's"


@pytest.mark.django_db(False)
def test_the_active_ladder_is_kept_and_handed_out_as_a_copy():
    roster = _roster()
    since = dt.date(2024, 6, 1)
    first = roster.ladder(since)
    first.clear()  # a caller may cut its list
    again = roster.ladder(since)
    assert [(r.rank, r.player.id) for r in again] == [(1, 1)]
    assert roster.ladder(dt.date(2025, 6, 1)) == []
