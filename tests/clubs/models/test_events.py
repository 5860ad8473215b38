"""clubs.models.events: what the database refuses of an event's games."""

import pytest
from django.db import IntegrityError, transaction

from clubs.models import Entry, Game
from clubs.results import Result
from tests.factories import make_event, make_players

pytestmark = pytest.mark.django_db


def test_a_bye_has_no_opponent_and_a_game_has_one(club):
    ann, bob = make_players(club, ["Ann", "Bob"])
    event = make_event(club, [(1, ann, bob, Result.WHITE_WIN)])
    white, black = event.entries.all()
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=2, white=white, black=None, result=Result.DRAW)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=2, white=white, black=black, result=Result.BYE_FULL)
    Game.objects.create(event=event, round=2, white=white, result=Result.BYE_HALF)


def test_nobody_plays_themselves_or_round_zero(club):
    (ann,) = make_players(club, ["Ann"])
    event = make_event(club)
    entry = Entry.objects.create(event=event, typed_name="Ann", player=ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=1, white=entry, black=entry, result=Result.DRAW)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(event=event, round=0, white=entry, result=Result.BYE_FULL)
