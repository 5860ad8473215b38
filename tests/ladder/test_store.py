"""ladder.store: what the replay reads and writes, on its own."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.db import transaction

from clubs.results import Result
from ladder import store
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating
from ladder.policies.base import PlayerState
from ladder.replay import replay_ladder
from tests.factories import first_ladder, make_event, make_players, standing

pytestmark = pytest.mark.django_db

W = Result.WHITE_WIN
LADDER = Path(__file__).resolve().parents[2] / "ladder"


def _replayed(club) -> None:
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)


def test_states_before_a_position_are_each_players_last_stored_result_before_it(club):
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    LadderRating.objects.create(
        ladder=first_ladder(club), player=dee, start_rating=1500, start_games=10
    )
    make_event(club, [(1, ann, bob, W)])
    make_event(club, [(1, ann, cid, W)])
    _replayed(club)
    bob = standing(bob)

    before_second = store.states_before(club.pk, first_ladder(club).pk, 1, 1200.0)
    # Ann's state after the first event, not after the second (her stored rating).
    assert before_second[ann.pk].rating == pytest.approx(1220.0)
    assert before_second[ann.pk].rated_games == 1
    assert before_second[bob.pk] == PlayerState(bob.rating, 1, False)
    assert before_second[cid.pk] == PlayerState(1200.0, 0, False)
    assert before_second[dee.pk] == PlayerState(1500.0, 10, False)  # a director's estimate
    assert store.states_before(club.pk, first_ladder(club).pk, 0, 1200.0)[ann.pk] == PlayerState(
        1200.0, 0, False
    )
    assert set(
        store.states_before(club.pk, first_ladder(club).pk, 1, 1200.0, players={ann.pk, cid.pk})
    ) == {
        ann.pk,
        cid.pk,
    }


def test_event_inputs_are_the_published_events_in_ladder_order_with_their_games_and_dates(club):
    ann, bob = make_players(club, ["Ann", "Bob"])
    first = make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, 10))
    second = make_event(club, [(1, bob, ann, W), (2, ann, bob, W)], date=dt.date(2026, 1, 3))
    make_event(club, [(1, ann, bob, W)], published=False)

    events, dates = store.event_inputs(club.pk, first_ladder(club).kinds)

    assert [e.id for e in events] == [second.pk, first.pk]
    assert dates == {first.pk: first.date, second.pk: second.date}
    assert sorted((g.round, g.white, g.black) for g in events[0].games) == [
        (1, bob.pk, ann.pk),
        (2, ann.pk, bob.pk),
    ]


def test_the_store_imports_from_clubs_only_its_models_and_vocabulary():
    # Size is no rule (tests/test_structure.py): what the store may lean on is.
    tree = ast.parse((LADDER / "store" / "__init__.py").read_text())
    imported = {
        node.module for node in tree.body if isinstance(node, ast.ImportFrom) and node.module
    } | {alias.name for node in tree.body if isinstance(node, ast.Import) for alias in node.names}
    clubs = {name for name in imported if name.split(".")[0] == "clubs"}
    assert clubs and clubs <= {"clubs.models", "clubs.results"}


def test_summaries_skip_a_player_added_while_the_replay_ran(club):
    ann, bob = make_players(club, ["Ann", "Bob"])
    make_event(club, [(1, ann, bob, W)])
    _replayed(club)
    ann.refresh_from_db()
    # The replay rated Ann and Bob; Cid was committed after it read the club's players.
    (cid,) = make_players(club, ["Cid"])
    summaries = {
        ann.pk: store.PlayerSummary(1234.5, 1, True, dt.date(2026, 1, 10), 34.5),
        bob.pk: store.stored_summaries(club.pk, first_ladder(club).pk)[bob.pk],
    }
    store.write_summaries(club.pk, first_ladder(club).pk, summaries)
    assert standing(ann).rating == 1234.5
    assert standing(cid).rating is None
