"""The database keeps Club.replay_from: whatever writes a ladder input, and whatever hint
the writer gives (a too-late one or none), the replay trusts only what nothing touched."""

import datetime as dt
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection, transaction

from clubs.models import Club, Entry, Event, Game, Ladder, Player
from clubs.results import Result
from directors.events.publishing import delete_event
from ladder import store
from ladder.changes import LadderInput, club_changed
from ladder.models import LadderRating, LadderReplay
from ladder.replay import replay_ladder, verify_ladder
from tests.factories import make_event, make_players

pytestmark = pytest.mark.django_db

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN
DAYS = [dt.date(2026, 1, d) for d in range(1, 6)]
EVERYTHING = dt.date.min
TOO_LATE = DAYS[-1]


@pytest.fixture
def history(club):
    """Five published events, one a day, replayed: replay_from is empty again."""
    players = make_players(club, ["Ann", "Bob", "Cid", "Dee", "Eve"])
    ann, bob, cid, dee, _eve = players
    events = [make_event(club, [(1, ann, bob, W), (1, cid, dee, B)], date=day) for day in DAYS]
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    club.refresh_from_db()
    assert club.replay_from is None and club.ladder_is_current
    return events, players


def _replay_from(club: Club) -> dt.date | None:
    club.refresh_from_db()
    return club.replay_from


def _write_then_replay(
    club: Club, write: Callable[[], None], *, hint: dt.date | None, read: list[int] | None = None
) -> None:
    """A write and its door call with a wrong hint (or none), committed, then the replay;
    with `read`, the events whose games the replay (not the check after it) read."""
    with transaction.atomic():
        write()
        club_changed(club.pk, LadderInput(from_date=hint))
    if read is None:
        replay_ladder(club.pk)
    else:
        game_rows = store._game_rows

        def recording(*args: Any, **kwargs: Any) -> Iterator[Any]:
            for row in game_rows(*args, **kwargs):
                read.append(row[1])
                yield row

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(store, "_game_rows", recording)
            replay_ladder(club.pk)
    club.refresh_from_db()
    assert club.ladder_is_current
    assert verify_ladder(club) == []


def _first_game(event: Event) -> Game:
    return Game.objects.filter(event=event).order_by("pk").first()


def _set_result(game: Game, result: Result) -> None:
    game.result = result
    game.save()


def _move(event: Event, **fields: object) -> None:
    for name, value in fields.items():
        setattr(event, name, value)
    event.save()


def _new_game(event: Event, white: Player, black: Player) -> None:
    white_entry = Entry.objects.create(event=event, typed_name=white.name, player=white)
    black_entry = Entry.objects.get(event=event, player=black)
    Game.objects.create(event=event, round=2, white=white_entry, black=black_entry, result=W)


@pytest.mark.parametrize(
    ("write", "touched", "hint"),
    [
        ("a changed result", 0, TOO_LATE),
        ("a changed result", 1, None),
        ("a deleted game", 1, TOO_LATE),
        ("a new game and entry", 2, TOO_LATE),
        ("a deleted entry and its game", 0, None),
        ("an entry linked to another player", 0, TOO_LATE),
        ("an event made unrated", 1, TOO_LATE),
        ("an event made bughouse", 0, None),
        ("an event moved later", 0, TOO_LATE),
        ("an event moved earlier", 3, TOO_LATE),
        ("an event unpublished", 1, TOO_LATE),
        ("an event deleted", 2, None),
        ("an event moved within its day", 2, TOO_LATE),
    ],
)
def test_a_write_to_an_event_lowers_replay_from_to_its_date_whatever_the_hint(
    club, history, write, touched, hint
):
    events, (ann, _bob, _cid, dee, eve) = history
    event = events[touched]
    expected = event.date
    writes: dict[str, Callable[[], None]] = {
        "a changed result": lambda: _set_result(_first_game(event), D),
        "a deleted game": lambda: _first_game(event).delete(),
        "a new game and entry": lambda: _new_game(event, eve, ann),
        "a deleted entry and its game": lambda: Entry.objects.get(event=event, player=dee).delete(),
        "an entry linked to another player": lambda: Entry.objects.filter(
            event=event, player=ann
        ).update(player=eve),
        "an event made unrated": lambda: _move(event, rated=False),
        "an event made bughouse": lambda: _move(event, kind=Event.Kind.BUGHOUSE),
        "an event moved later": lambda: _move(event, date=dt.date(2026, 1, 10)),
        "an event moved earlier": lambda: _move(event, date=dt.date(2025, 12, 31)),
        "an event unpublished": lambda: _move(event, status=Event.Status.DRAFT),
        "an event deleted": lambda: delete_event(event.pk, event.edit_version, None),
        "an event moved within its day": lambda: _move(event, order_in_day=2),
    }
    if write == "an event moved earlier":
        expected = dt.date(2025, 12, 31)  # the earlier of its old and new dates
    with transaction.atomic():
        writes[write]()
        assert _replay_from(club) == expected
        club_changed(club.pk, LadderInput(from_date=hint))
        assert _replay_from(club) == expected  # a too-late hint does not raise it
    replay_ladder(club.pk)
    club.refresh_from_db()
    assert club.ladder_is_current and club.replay_from is None
    assert verify_ladder(club) == []


def test_publishing_a_draft_lowers_replay_from_to_its_date_and_its_draft_games_do_not(
    club, history
):
    _events, (ann, bob, *_rest) = history
    draft = make_event(club, [(1, bob, ann, W)], date=DAYS[1], published=False)
    assert _replay_from(club) is None  # a draft's games move no ladder
    Game.objects.filter(event=draft).update(result=D)
    assert _replay_from(club) is None
    _write_then_replay(club, lambda: _move(draft, status=Event.Status.PUBLISHED), hint=TOO_LATE)
    assert LadderReplay.objects.order_by("-pk").first().from_position == 1


@pytest.mark.parametrize(
    ("field", "value"), [("start_rating", 1500.0), ("start_games", 30), ("junior", True)]
)
def test_a_players_starting_state_lowers_replay_from_to_everything(club, history, field, value):
    _events, (ann, *_rest) = history

    def write() -> None:
        # The replay gave every player a row on the club's ladder; the estimate is on it.
        if field == "junior":
            Player.objects.filter(pk=ann.pk).update(junior=value)
        else:
            LadderRating.objects.filter(player=ann).update(**{field: value})
        assert _replay_from(club) == EVERYTHING

    _write_then_replay(club, write, hint=TOO_LATE)


def test_a_players_summary_written_by_the_replay_leaves_replay_from_alone(club, history):
    LadderRating.objects.filter(player__club=club).update(rating=1000, last_change=1)
    assert _replay_from(club) is None


def test_the_clubs_rating_settings_lower_replay_from_to_everything(club, history):
    def write() -> None:
        Ladder.objects.filter(club_id=club.pk).update(rating_settings={"k_high": 60})
        assert _replay_from(club) == EVERYTHING

    _write_then_replay(club, write, hint=TOO_LATE)
    club.name = "Renamed"
    club.save()
    assert _replay_from(club) is None  # a column the ladder does not read


def test_a_raw_sql_update_lowers_replay_from_too(club, history):
    events, _players = history

    def write() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {Game._meta.db_table} SET result = %s WHERE event_id = %s",
                [D.value, events[1].pk],
            )
        assert _replay_from(club) == DAYS[1]

    _write_then_replay(club, write, hint=TOO_LATE)
    assert LadderReplay.objects.order_by("-pk").first().from_position == 1


def test_the_replay_leaves_the_events_before_replay_from_unread(club, history):
    events, _players = history
    read: list[int] = []
    _write_then_replay(club, lambda: _set_result(_first_game(events[3]), D), hint=None, read=read)
    assert set(read) == {events[3].pk, events[4].pk}
    last = LadderReplay.objects.order_by("-pk").first()
    assert (last.from_position, last.events_rated) == (3, 2)


def test_without_replay_from_the_replay_reads_every_event(club, history):
    events, _players = history
    read: list[int] = []
    # A change no trigger sees (a new player on the roster), through the door.
    _write_then_replay(club, lambda: make_players(club, ["Fay"]), hint=None, read=read)
    assert set(read) == {e.pk for e in events}
    assert LadderReplay.objects.order_by("-pk").first().events_rated == 0


def test_a_write_during_a_replay_keeps_replay_from_for_the_next(club, history, monkeypatch):
    events, _players = history
    write_summaries = store.write_summaries

    def with_a_write_meanwhile(*args: object, **kwargs: object) -> None:
        # A write that bypasses the door while the replay runs: data_version stays put.
        Game.objects.filter(event=events[0]).update(result=D)
        write_summaries(*args, **kwargs)

    monkeypatch.setattr(store, "write_summaries", with_a_write_meanwhile)
    _set_result_changed = lambda: _set_result(_first_game(events[4]), D)  # noqa: E731
    with transaction.atomic():
        _set_result_changed()
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)
    assert _replay_from(club) == DAYS[0]  # not reset: the next replay starts there
    monkeypatch.setattr(store, "write_summaries", write_summaries)
    _write_then_replay(club, lambda: _set_result(_first_game(events[4]), W), hint=TOO_LATE)
