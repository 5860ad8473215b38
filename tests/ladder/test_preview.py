"""directors.events.flow: a draft's rating changes, rated from the replay's own input and
states."""

import datetime as dt

import pytest
from django.db import connection, transaction
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from clubs.models import Entry, Event, Game, Ladder
from clubs.results import Result
from directors.events.flow import preview_event
from ladder import store
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder
from tests.factories import first_ladder, make_event, make_players

pytestmark = pytest.mark.django_db

W, D = Result.WHITE_WIN, Result.DRAW


def _draft(club, size: int):
    """A draft of `size` entrants (all of them on the ladder already), one round."""
    players = make_players(club, [f"Player {size}-{i}" for i in range(size)])
    # Everybody has a stored result before the draft, so every state comes from the store.
    make_event(
        club,
        [(1, players[i], players[i + 1], D) for i in range(0, size, 2)],
        date=dt.date(2026, 1, 1),
    )
    return make_event(
        club,
        [(1, players[i + 1], players[i], W) for i in range(0, size, 2)],
        date=dt.date(2026, 2, 1),
        published=False,
    )


@pytest.mark.parametrize("ladder_current", [True, False])
def test_the_preview_asks_as_many_queries_for_forty_entrants_as_for_four(club, ladder_current):
    small, large = _draft(club, 4), _draft(club, 40)
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    if not ladder_current:
        Ladder.objects.filter(club_id=club.pk).update(data_version=F("data_version") + 1)
    counts = []
    for draft in (small, large):
        with CaptureQueriesContext(connection) as queries:
            preview = preview_event(Event.objects.get(pk=draft.pk))
        assert preview.ladder_current is ladder_current
        assert len(preview.rows) == draft.entries.count()
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_drafts_input_is_the_one_the_replay_rates_once_it_is_published(club):
    ann, bob, cid = make_players(club, ["Ann", "Bob", "Cid"])
    draft = make_event(club, [(1, ann, bob, W), (2, cid, None, Result.BYE_FULL)])
    Event.objects.filter(pk=draft.pk).update(status=Event.Status.DRAFT)
    # A no-show left without a player: the forfeit stays as the file wrote it, never rated.
    gone = Entry.objects.create(event=draft, typed_name="Gone", start_rank=9)
    cid_entry = draft.entries.get(player=cid)
    Game.objects.create(
        event=draft, round=1, white=cid_entry, black=gone, result=Result.WHITE_FORFEIT_WIN
    )
    draft = Event.objects.get(pk=draft.pk)
    shown = store.event_input(draft)
    assert {g.white for g in shown.games} == {ann.pk, cid.pk}
    assert len(shown.games) == 2  # the kept forfeit is not an input

    Event.objects.filter(pk=draft.pk).update(status=Event.Status.PUBLISHED)
    (replayed,), _dates = store.event_inputs(club.pk, first_ladder(club).kinds)
    assert replayed.id == shown.id and replayed.rated == shown.rated
    assert sorted(replayed.games) == sorted(shown.games)
