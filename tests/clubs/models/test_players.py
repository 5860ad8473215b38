"""clubs.models.players: what the database refuses of a player, and what a player never holds."""

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Player
from tests.factories import make_players, new_player

pytestmark = pytest.mark.django_db


def test_a_player_cannot_be_merged_into_itself(club):
    (ann,) = make_players(club, ["Ann"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=ann.pk).update(merged_into=ann)


def test_a_starting_estimate_must_be_a_plausible_rating(club):
    with pytest.raises(IntegrityError), transaction.atomic():
        new_player(club=club, name="X", start_rating=-5)


def test_player_records_hold_no_contact_or_birth_data():
    forbidden = {"birth", "dob", "address", "phone", "email", "mail"}
    names = {f.name.lower() for f in Player._meta.get_fields()}
    assert not {n for n in names if any(word in n for word in forbidden)}
