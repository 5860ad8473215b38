"""A large Swiss field is slow to pair (issue 22, part 7: the 1,000-player goal is a documented
limit): the evening page tells the director to press once and wait, and what to do if the
page gives up."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clubs.models import PairingSystem
from directors.night import pairing
from tests.directors.night.test_night_views import night
from tests.factories import make_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def roster(club):
    return make_players(club, ["Anna Berg", "Bram Claes", "Cora Dekker", "Daan Eerden", "Eva Fris"])


@pytest.fixture
def signed_in(client, director):
    client.force_login(director)
    return client


SENTENCE = "players a round takes up to half a minute to pair"


def evening_page(client, event) -> str:
    return client.get(reverse("night_evening", args=[event.club.slug, event.pk])).content.decode()


@pytest.mark.parametrize(("threshold", "shown"), [(4, True), (5, False)])
def test_a_large_swiss_field_is_told_that_pairing_takes_a_while(
    signed_in, club, roster, monkeypatch, threshold, shown
):
    monkeypatch.setattr(pairing, "SLOW_PAIRING_FIELD", threshold)
    event = night(club, roster)  # five players
    html = evening_page(signed_in, event)
    assert (f"With 5 {SENTENCE}" in html) is shown
    assert ("manage.py pair_round" in html) is shown


def test_a_round_robin_is_never_slow_to_pair(signed_in, club, roster, monkeypatch):
    monkeypatch.setattr(pairing, "SLOW_PAIRING_FIELD", 1)
    event = night(club, roster, system=PairingSystem.ROUND_ROBIN)
    assert SENTENCE not in evening_page(signed_in, event)
