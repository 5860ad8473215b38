"""A regular is never entered twice at a club night (issue 22, part 3): the check-in and
late-arrival searches find aliases and close names, "add a newcomer" ticks the player a
name already is and waits for the director when it is close to one, and start_event
reads names as the roster does."""

from __future__ import annotations

import datetime as dt
from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from clubs.models import Event, Player, PlayerAlias
from directors.night import evening as club_night
from directors.roster.players import add_player
from matching import name_key
from tests.factories import set_standing

pytestmark = pytest.mark.django_db

REGULARS = ["Tariq Hassan", "Anna Berg", "Bram Claes", "Cora Dekker"]


@pytest.fixture
def regulars(club):
    players = [add_player(club, n, junior=False, start_rating=None, user=None) for n in REGULARS]
    set_standing(players[0].pk, rating=1650, rated_games=25, provisional=False)
    # An old spelling of Bram's, kept from a merge.
    PlayerAlias.objects.create(player=players[2], name="Abraham Claessens",
                               name_key=name_key("Abraham Claessens"))  # fmt: skip
    return players


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


def start_url(club):
    return reverse("night_start", args=[club.slug])


def newcomer(client, club, name, action="newcomer", ticked=()):
    return client.post(
        start_url(club), {"action": action, "newcomer_name": name, "players": list(ticked)}
    )


def ticked_in(response) -> list[str]:
    return parse_qs(urlsplit(response.url).query).get("players", [])


# --- The start page -----------------------------------------------------------------------------


def test_a_regular_typed_as_a_newcomer_is_ticked_not_added_again(signed_in, club, regulars):
    response = newcomer(signed_in, club, "tariq  hassan")
    assert Player.objects.filter(club=club, name__iexact="Tariq Hassan").count() == 1
    assert ticked_in(response) == [str(regulars[0].pk)]


def test_an_old_spelling_typed_as_a_newcomer_ticks_its_player(signed_in, club, regulars):
    response = newcomer(signed_in, club, "Abraham Claessens")
    assert not Player.objects.filter(club=club, name="Abraham Claessens").exists()
    assert ticked_in(response) == [str(regulars[2].pk)]


def test_a_close_name_shows_the_regulars_and_creates_nobody(signed_in, club, regulars):
    before = Player.objects.filter(club=club).count()
    response = newcomer(signed_in, club, "Tarik Hassan", ticked=[regulars[1].pk])
    assert Player.objects.filter(club=club).count() == before
    assert ticked_in(response) == [str(regulars[1].pk)]  # what was ticked stays ticked
    html = signed_in.get(response.url).content.decode()
    assert 'id="close-names"' in html
    assert f'value="pick:{regulars[0].pk}"' in html and "Tariq Hassan" in html
    assert 'value="newperson"' in html and 'value="Tarik Hassan"' in html
    # The director picks the regular ...
    picked = signed_in.post(start_url(club), {"action": f"pick:{regulars[0].pk}",
                                              "players": [regulars[1].pk]})  # fmt: skip
    assert sorted(ticked_in(picked)) == sorted([str(regulars[1].pk), str(regulars[0].pk)])
    assert Player.objects.filter(club=club).count() == before


def test_only_an_explicit_new_person_is_added(signed_in, club, regulars):
    response = newcomer(signed_in, club, "Tarik Hassan", action="newperson")
    added = Player.objects.get(club=club, name="Tarik Hassan")
    assert ticked_in(response) == [str(added.pk)]
    # Even then, a name that is a regular's exactly is that regular.
    newcomer(signed_in, club, "Tariq Hassan", action="newperson")
    assert Player.objects.filter(club=club, name="Tariq Hassan").count() == 1


def test_a_pick_of_another_clubs_player_ticks_nobody(signed_in, club, regulars):
    from tests.factories import make_club

    other = add_player(make_club(slug="other"), "Zed Zee", junior=False, start_rating=None,
                       user=None)  # fmt: skip
    response = signed_in.post(start_url(club), {"action": f"pick:{other.pk}"})
    assert ticked_in(response) == []


def test_the_check_in_search_finds_aliases_and_close_names(signed_in, club, regulars):
    by_alias = signed_in.get(start_url(club) + "?q=claessens").content.decode()
    assert f'name="players" value="{regulars[2].pk}"' in by_alias
    typo = signed_in.get(start_url(club) + "?q=Tarik+Hasan").content.decode()
    assert f'name="players" value="{regulars[0].pk}"' in typo
    assert f'name="players" value="{regulars[1].pk}"' not in typo


# --- A late arrival -----------------------------------------------------------------------------


def night(club, players):
    return club_night.start_event(
        club, name="Tuesday", date=dt.date(2026, 3, 3), system="swiss", rounds=1,
        players=players, user=None,
    )  # fmt: skip


def evening(event):
    return reverse("night_evening", args=[event.club.slug, event.pk])


def add_url(event):
    return reverse("night_add", args=[event.club.slug, event.pk])


def test_the_late_arrival_search_finds_an_alias(signed_in, club, regulars):
    event = night(club, [regulars[0], regulars[1]])
    html = signed_in.get(evening(event) + "?find=Claessens").content.decode()
    assert f'name="player" value="{regulars[2].pk}"' in html


def test_a_regular_typed_as_a_late_newcomer_joins_as_himself(signed_in, club, regulars):
    event = night(club, [regulars[1], regulars[2]])
    signed_in.post(add_url(event), {"newcomer_name": "Tariq Hassan"})
    assert Player.objects.filter(club=club, name="Tariq Hassan").count() == 1
    assert event.entries.filter(player=regulars[0]).exists()


def test_a_close_late_newcomer_waits_for_the_director(signed_in, club, regulars):
    event = night(club, [regulars[1], regulars[2]])
    response = signed_in.post(add_url(event), {"newcomer_name": "Tarik Hassan"})
    assert not Player.objects.filter(club=club, name="Tarik Hassan").exists()
    assert event.entries.count() == 2
    html = signed_in.get(response.url).content.decode()
    assert 'id="close-names"' in html and f'name="player" value="{regulars[0].pk}"' in html
    signed_in.post(add_url(event), {"newcomer_name": "Tarik Hassan", "new_person": "1"})
    assert event.entries.filter(player__name="Tarik Hassan").exists()


# --- start_event --------------------------------------------------------------------------------


def run_start(tmp_path, lines):
    file = tmp_path / "players.txt"
    file.write_text("\n".join(lines), encoding="utf-8")
    out = StringIO()
    call_command(
        "start_event", "rooks", "--name", "T", "--date", "2026-03-03", "--system", "swiss",
        "--rounds", "1", "--players", str(file), stdout=out,
    )  # fmt: skip
    return out.getvalue().strip()


def test_start_event_reads_an_alias_as_its_player(club, regulars, tmp_path):
    event = Event.objects.get(pk=int(run_start(tmp_path, ["Abraham Claessens", "Anna Berg"])))
    assert set(event.entries.values_list("player", flat=True)) == {regulars[1].pk, regulars[2].pk}


def test_start_event_exits_1_naming_the_line_of_a_player_listed_twice(club, regulars, tmp_path):
    lines = ["Anna Berg", "", "Bram Claes", "Abraham Claessens"]
    with pytest.raises(CommandError) as refused:
        run_start(tmp_path, lines)
    assert refused.value.returncode == 1
    assert "Line 4" in str(refused.value) and "line 3" in str(refused.value)
    assert "Abraham Claessens" in str(refused.value)
    assert not Event.objects.exists()
