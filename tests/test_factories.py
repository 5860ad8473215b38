"""The shared history builder the benches use: its dates and its regular player."""

import datetime as dt

import pytest

from clubs.models import Entry, Player
from tests.factories import make_club, make_history

pytestmark = pytest.mark.django_db


def test_a_history_falls_on_the_given_start_and_spacing() -> None:
    club = make_club()
    events = make_history(
        club, events=3, players=6, per_event=4, rounds=1, start=dt.date(2025, 3, 1), days_apart=7
    )
    assert [e.date for e in events] == [
        dt.date(2025, 3, 1),
        dt.date(2025, 3, 8),
        dt.date(2025, 3, 15),
    ]


def test_an_always_player_plays_in_every_event_of_the_history() -> None:
    club = make_club()
    roster = Player.objects.bulk_create(Player(club=club, name=f"P{n}") for n in range(10))
    regular = roster[3]
    events = make_history(
        club, events=12, players=0, per_event=4, rounds=2, roster=roster, always=[regular]
    )
    assert Entry.objects.filter(player=regular).count() == len(events)
    assert all(e.entries.count() == 4 for e in events)


def test_without_new_options_a_history_starts_in_2020_on_consecutive_days() -> None:
    events = make_history(make_club(), events=2, players=4, per_event=4, rounds=1)
    assert [e.date for e in events] == [dt.date(2020, 1, 1), dt.date(2020, 1, 2)]
