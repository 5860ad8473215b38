"""ladder.store.dated.ladder_on: the ladder as it stood at the end of a day, read from the stored
results. The property: on a generated season, the ladder on any date is the ladder the club
had right after that date's last event, captured as the season was played day by day."""

import datetime as dt
import random

import pytest
from django.db import transaction

from clubs.models import Club, Event, Player
from clubs.results import Result
from directors.events.publishing import delete_event, unpublish_event
from directors.roster.merging import merge_players
from ladder import store
from ladder.changes import LadderInput, club_changed
from ladder.replay import replay_ladder
from ladder.store import dated
from tests.factories import make_event, make_players, set_standing

pytestmark = pytest.mark.django_db

PLAYED = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN]
OTHERS = [Result.WHITE_FORFEIT_WIN, Result.UNRATED_DRAW, Result.DOUBLE_FORFEIT]


def _replayed(club: Club) -> None:
    with transaction.atomic():
        club_changed(club.pk, LadderInput())
    replay_ladder(club.pk)


def todays_ladder(club: Club) -> list[tuple[object, ...]]:
    """The ladder page's rows as the replay stored them on the players."""
    return [
        (p.pk, p.rating, p.rated_games, p.provisional, p.last_played, p.last_change)
        for p in club.players.rated_on(club.first_ladder()).on_ladder().in_ladder_order()
    ]


def ladder_on(club: Club, day: dt.date) -> list[tuple[object, ...]]:
    """The rows ladder_on gives for `day`, without the players who have no rated game (the
    page leaves them out, as today's ladder does)."""
    return [
        (pid, s.rating, s.rated_games, s.provisional, s.last_played, s.last_change)
        for pid, s in dated.ladder_on(club, day)
        if s.rated_games > 0
    ]


def _random_games(rng: random.Random, players: list[Player]) -> list[tuple]:
    field = rng.sample(players, rng.randint(3, min(8, len(players))))
    games = []
    for round_no in range(1, rng.randint(1, 3) + 1):
        rng.shuffle(field)
        for white, black in zip(field[::2], field[1::2], strict=False):
            result = rng.choice(PLAYED) if rng.random() < 0.85 else rng.choice(OTHERS)
            games.append((round_no, white, black, result))
        if len(field) % 2:
            games.append((round_no, field[-1], None, Result.BYE_PAIRING))
    return games


def _play_season(club: Club, seed: int) -> tuple[dict[dt.date, list], list[Event], list]:
    """Events with random results on random days, one to three a day, a day at a time: after
    each day's events are published the ladder replays and is captured. Returns the ladder
    captured after each day, the events, and the ladder captured before the first."""
    rng = random.Random(seed)
    names = [f"Player {n:02d}" for n in range(12)]
    # Equal names sort by id: ties of rating (HSB's whole numbers) then need the id too.
    names[5] = names[4]
    players = make_players(club, names)
    # Brought from an old ladder: on it before the club's first event.
    set_standing(players[0], start_rating=1650, start_games=25)
    set_standing(players[1], start_rating=1350, start_games=3)
    Player.objects.filter(pk=players[2].pk).update(junior=True)
    _replayed(club)
    before = todays_ladder(club)
    captured: dict[dt.date, list] = {}
    events = []
    day = dt.date(2025, 9, 5)
    for _ in range(14):
        day += dt.timedelta(days=rng.choice([1, 3, 7, 7, 14]))
        for order in range(rng.choice([1, 1, 2, 3])):
            kind = rng.choice(["standard"] * 6 + ["blitz", "bughouse"])
            events.append(
                make_event(
                    club,
                    _random_games(rng, players),
                    date=day,
                    order_in_day=order,
                    kind=kind,
                    rated=rng.random() > 0.1,
                )
            )
        # A draft on the same day: never on any ladder.
        make_event(club, _random_games(rng, players), date=day, published=False)
        _replayed(club)
        captured[day] = todays_ladder(club)
    return captured, events, before


@pytest.mark.parametrize("policy", ["ladder", "hsb"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ladder_on_a_date_is_the_ladder_right_after_that_dates_last_event(club, policy, seed):
    club.ladders.update(rating_policy=policy)
    captured, _events, before = _play_season(club, seed)
    days = sorted(captured)
    assert before and before[0][2] == 25  # the old ladder's players, before any event
    assert ladder_on(club, days[0] - dt.timedelta(days=1)) == before
    assert ladder_on(club, dt.date(1990, 1, 1)) == before
    previous = before
    for day in days:
        assert ladder_on(club, day) == captured[day], day
        # The day before (no event since the previous day's): the ladder as the previous left it.
        assert ladder_on(club, day - dt.timedelta(days=1)) == previous, day
        previous = captured[day]
    assert ladder_on(club, days[-1] + dt.timedelta(days=400)) == todays_ladder(club)
    # Some of the ladder is provisional, some established, under the policy's own rule.
    flags = {row[3] for day in days for row in captured[day]}
    assert flags == ({False} if policy == "hsb" else {True, False})


def test_deleted_and_unpublished_events_leave_the_ladder_on_every_date(club):
    captured, events, _before = _play_season(club, seed=7)
    days = sorted(captured)
    rated_middle = [e for e in events if e.date in days[4:10] and e.rated and e.kind != "bughouse"]
    deleted, unpublished = rated_middle[0], rated_middle[-1]
    delete_event(deleted.pk, deleted.edit_version, None)
    unpublish_event(unpublished.pk, unpublished.edit_version, None)
    replay_ladder(club.pk)
    assert todays_ladder(club) != captured[days[-1]]  # the season's end did move
    for day in days:
        if day < deleted.date:
            assert ladder_on(club, day) == captured[day], day
        elif day == deleted.date:
            assert ladder_on(club, day) != captured[day], day
    assert ladder_on(club, days[-1]) == todays_ladder(club)


def test_a_merged_player_is_on_no_date_and_the_kept_one_carries_both_histories(club):
    ann, bob, cid, dee = make_players(club, ["Ann", "Bob", "Cid", "Dee"])
    W = Result.WHITE_WIN
    make_event(club, [(1, ann, bob, W)], date=dt.date(2026, 1, 5))
    make_event(club, [(1, cid, dee, W)], date=dt.date(2026, 1, 12))
    _replayed(club)
    merge_players(club, ann, dee, None)
    replay_ladder(club.pk)
    on_the_5th = {row[0]: row for row in ladder_on(club, dt.date(2026, 1, 5))}
    on_the_12th = {row[0]: row for row in ladder_on(club, dt.date(2026, 1, 12))}
    assert dee.pk not in on_the_5th and dee.pk not in on_the_12th
    assert on_the_5th[ann.pk][2] == 1
    assert on_the_12th[ann.pk][2] == 2  # Dee's game is Ann's now
    assert list(on_the_12th.values()) == todays_ladder(club)


def test_every_player_is_given_even_those_without_a_rated_game(club):
    ann, bob, eve = make_players(club, ["Ann", "Bob", "Eve"])
    make_event(club, [(1, ann, bob, Result.DRAW)], date=dt.date(2026, 1, 5))
    _replayed(club)
    rows = dict(dated.ladder_on(club, dt.date(2026, 1, 4)))
    assert set(rows) == {ann.pk, bob.pk, eve.pk}
    assert rows[eve.pk] == store.PlayerSummary(1200.0, 0, True, None, None)
    later = dict(dated.ladder_on(club, dt.date(2026, 1, 5)))
    assert later[ann.pk].last_played == dt.date(2026, 1, 5)
    assert later[ann.pk].rated_games == 1
    assert later[eve.pk] == rows[eve.pk]
