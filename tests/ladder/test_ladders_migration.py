"""The migration to several ladders on a club with history: its one ladder, `main`, is the
ladder the club had (ratings, games, provisional, stored results), and verify_ladder agrees.

The history is rated by the replay, taken back through the migrations to the schema before
them (where the club and its players hold the ratings), then forward again."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from clubs.models import Club, Ladder, Player
from clubs.models.club import RATABLE_KINDS
from ladder.changes import LadderInput, club_changed
from ladder.models import PlayerEventResult
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_club, make_history, new_player

BEFORE = [("ladder", "0005_replay_from_triggers"), ("clubs", "0023_director_tools")]
LADDERS = [("ladder", "0009_replay_from_on_ladders"), ("clubs", "0025_several_ladders")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def _ladder_now(club: Club):
    ladder = Ladder.objects.get(club=club)
    players = {
        p.name: (p.rating, p.rated_games, p.provisional, p.last_played, p.start_rating)
        for p in Player.objects.filter(club=club).rated_on(ladder)
    }
    results = sorted(
        PlayerEventResult.objects.filter(club=club).values_list(
            "event_id", "player_id", "position", "post_rating", "rated_games_after"
        )
    )
    return players, results, (ladder.data_version, ladder.built_version)


@pytest.mark.django_db(transaction=True)
def test_every_club_keeps_its_ladder_as_its_main_ladder():
    club = make_club(slug="history", rating_policy="ladder", rating_settings={"k_high": 32})
    roster = [new_player(club=club, name="Old Hand", start_rating=1700, start_games=40)]
    roster += list(Player.objects.bulk_create(Player(club=club, name=f"P{n}") for n in range(11)))
    make_history(club, events=12, players=0, per_event=6, rounds=3, roster=roster)
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    before = _ladder_now(club)
    assert before[1] and verify_ladder(club) == []
    try:
        old = _migrate(BEFORE)
        # Before several ladders the club and its players held all of it.
        OldClub, OldPlayer = old.get_model("clubs", "Club"), old.get_model("clubs", "Player")
        row = OldClub.objects.get(pk=club.pk)
        assert (row.rating_policy, row.rating_settings) == ("ladder", {"k_high": 32})
        assert (row.data_version, row.built_version) == before[2]
        assert {
            p.name: (p.rating, p.rated_games, p.provisional, p.last_played, p.start_rating)
            for p in OldPlayer.objects.filter(club_id=club.pk)
        } == before[0]
        # A club made before several ladders, with a rating history of its own.
        OldClub.objects.create(slug="older", name="Older", secret="s" * 32, rating_policy="hsb")

        # Right after the ladders' migrations the main ladder is the club's, versions included.
        ladders = _migrate(LADDERS)
        LadderAt, RatingAt = (
            ladders.get_model("ladder", "Ladder"),
            ladders.get_model("ladder", "LadderRating"),
        )
        main_then = LadderAt.objects.get(club_id=club.pk)
        assert (main_then.data_version, main_then.built_version) == before[2]
        assert not main_then.full_rebuild_requested
        fields = ("player__name", "rating", "rated_games", "provisional", "last_played")
        rated = {
            row[0]: (*row[1:], start)
            for *row, start in RatingAt.objects.filter(ladder=main_then).values_list(
                *fields, "start_rating"
            )
        }
        assert rated == before[0]

        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
        club = Club.objects.get(pk=club.pk)
        (main,) = Ladder.objects.filter(club=club)
        assert (main.slug, main.name, main.position, main.kinds) == (
            "main",
            "Ladder",
            0,
            list(RATABLE_KINDS),
        )
        assert (main.rating_policy, main.rating_settings) == ("ladder", {"k_high": 32})
        # The stored lifetimes' migration then asks for one full replay of the rated ladder,
        # which rates nothing differently.
        players, results, versions = _ladder_now(club)
        assert (players, results) == before[:2]
        assert versions == (before[2][0] + 1, before[2][1])
        assert main.full_rebuild_requested and not club.ladder_is_current
        replay_ladder(club.pk)
        club = Club.objects.get(pk=club.pk)
        players, results, versions = _ladder_now(club)
        assert (players, results) == before[:2] and versions[0] == versions[1]
        assert club.ladder_is_current and verify_ladder(club) == []
        older = Ladder.objects.get(club__slug="older")
        assert (older.slug, older.rating_policy) == ("main", "hsb")
        # The replay carries on from the migrated chain: nothing stored is re-rated.
        with transaction.atomic():
            club_changed(club.pk, LadderInput(from_date=dt.date(2100, 1, 1)))
        replay_ladder(club.pk)
        assert _ladder_now(club)[:2] == before[:2]
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
