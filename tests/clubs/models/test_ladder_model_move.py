"""The Ladder model moved from the ladder app to the clubs app (issue 35) and kept its table:
a database with ladders, ratings and stored results before the move has all of them after
it, read through clubs.Ladder, and the admin's permissions follow the model."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from clubs.models import Ladder
from ladder.models import LadderRating
from tests.factories import make_club, new_player

BEFORE = [("clubs", "0026_event_round_robin"), ("ladder", "0012_event_standings_ranking")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


@pytest.mark.django_db(transaction=True)
def test_a_database_migrates_across_the_move_and_back_with_every_row():
    club = make_club(slug="moved", rating_policy="hsb")
    ladder = Ladder.objects.get(club=club)
    new_player(club=club, name="Anna Berg", ladder=ladder, start_rating=1500)
    content_type = ContentType.objects.get_for_model(Ladder)
    assert (content_type.app_label, content_type.model) == ("clubs", "ladder")
    before = {"pk": ladder.pk, "slug": ladder.slug, "policy": ladder.rating_policy}
    try:
        old = _migrate(BEFORE)
        # Before the move the ladder app held the model, over the same table and rows.
        OldLadder = old.get_model("ladder", "Ladder")
        with pytest.raises(LookupError):
            old.get_model("clubs", "Ladder")
        row = OldLadder.objects.get(club_id=club.pk)
        assert {"pk": row.pk, "slug": row.slug, "policy": row.rating_policy} == before
        OldRating = old.get_model("ladder", "LadderRating")
        assert OldRating.objects.filter(ladder_id=row.pk).count() == 1
        # A ladder made before the move, on the old state.
        OldLadder.objects.create(club_id=club.pk, slug="blitz", name="Blitz", position=1)
        assert ContentType.objects.filter(app_label="ladder", model="ladder").count() == 1
        assert not ContentType.objects.filter(app_label="clubs", model="ladder").exists()

        _migrate(_latest())
        ladders = {lad.slug: lad for lad in Ladder.objects.filter(club=club)}
        assert set(ladders) == {before["slug"], "blitz"}
        assert ladders[before["slug"]].rating_policy == "hsb"
        rating = LadderRating.objects.select_related("ladder").get(ladder=ladders[before["slug"]])
        assert rating.player.name == "Anna Berg" and rating.ladder.club_id == club.pk
        # The same content type row (so the same permissions), now the clubs app's.
        moved = ContentType.objects.get(app_label="clubs", model="ladder")
        assert moved.pk == content_type.pk
        assert not ContentType.objects.filter(app_label="ladder", model="ladder").exists()
    finally:
        _migrate(_latest())
