"""Each player's lifetime (record, head-to-head, kinds, best win, the outline of the history)
is summed by the replay and stored, and the player page reads it (issue 27): the page is
the same as one summed from every game, whatever the replay did last."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import transaction
from django.db.models import F
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Event, Game, Ladder, Player
from clubs.results import Result
from directors.events.publishing import delete_event
from ladder import lifetime
from ladder.changes import LadderInput, club_changed
from ladder.models import PlayerRecord
from ladder.replay import lifetimes, replay_ladder, verify_ladder
from ladder.roster.rosters import forget_rosters
from ladder.store.players import stored_records
from tests.factories import make_club, make_event, make_history

W, D, B = Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN


@pytest.fixture(autouse=True)
def every_history_stored(monkeypatch):
    """These histories are short: stored all the same, so their pages read what is stored."""
    monkeypatch.setattr(lifetime, "STORED_FROM_EVENTS", 1)


def history() -> tuple[Club, list[Player]]:
    """Forty events of eight players, then games of every other kind: a bye, forfeits, an
    unrated result, a bughouse night and an unrated event."""
    club = make_club(slug="lifetimes", visibility=Club.Visibility.PUBLIC)
    roster = Player.objects.bulk_create(
        Player(club=club, name=f"Member {n}", junior=n == 3) for n in range(8)
    )
    make_history(
        club, events=40, players=0, per_event=6, rounds=3, roster=roster, start=dt.date(2024, 1, 5)
    )
    a, b, c, d = roster[:4]
    make_event(
        club,
        [(1, a, b, Result.WHITE_FORFEIT_WIN), (1, c, None, Result.BYE_FULL), (2, a, c, W)],
        date=dt.date(2025, 3, 1),
        name="Spring Swiss",
    )
    make_event(club, [(1, d, a, Result.UNRATED_BLACK_WIN), (1, b, c, D)], date=dt.date(2025, 4, 1))
    make_event(club, [(1, b, a, W)], date=dt.date(2025, 5, 1), kind=Event.Kind.BUGHOUSE)
    make_event(club, [(1, c, d, B)], date=dt.date(2025, 6, 1), rated=False)
    replay_ladder(club.pk, full=True)
    club.refresh_from_db()
    return club, roster


def pages(club: Club, players: list[Player]) -> dict[tuple[int, str], bytes]:
    forget_rosters()
    client = Client()
    out = {}
    for player in players:
        url = reverse("club_player", args=[club.slug, player.pk])
        for query in ("", "?year=2024", "?year=2025"):
            response = client.get(url + query)
            out[player.pk, query] = response.content if response.status_code == 200 else b""
    return out


@pytest.mark.django_db
def test_the_stored_lifetimes_make_the_same_pages_as_summing_every_game():
    club, roster = history()
    assert set(stored_records(club.pk)) == {p.pk for p in roster}
    stored = pages(club, roster)
    PlayerRecord.objects.filter(club=club).delete()  # now each page sums its player itself
    assert pages(club, roster) == stored
    # Every kind of game is on the pages compared.
    main, year = stored[roster[0].pk, ""].decode(), stored[roster[0].pk, "?year=2025"].decode()
    assert "Bughouse" in main  # in the kinds
    assert "Spring Swiss" in year and "forfeit" in year.lower()


@pytest.mark.django_db
def test_a_correction_replayed_from_the_last_event_sums_its_players_again():
    club, roster = history()
    event = Event.objects.filter(club=club, name="Spring Swiss").get()
    game = Game.objects.get(event=event, round=2)  # Member 0 beat Member 2
    with transaction.atomic():
        Game.objects.filter(pk=game.pk).update(result=B)
        club_changed(club.pk, LadderInput(from_date=event.date))
    before = stored_records(club.pk)[roster[0].pk]["record"]
    replay_ladder(club.pk)
    club.refresh_from_db()
    assert club.replays.first().from_position > 0  # not a full replay
    assert stored_records(club.pk) == lifetimes(club.pk)
    won, _drawn, lost, *_ = stored_records(club.pk)[roster[0].pk]["record"]
    assert (won, lost) == (before[0] - 1, before[2] + 1)
    assert verify_ladder(club) == []


@pytest.mark.django_db
def test_an_event_taken_out_leaves_the_stored_lifetimes_of_its_players():
    club, roster = history()
    loner = Player.objects.create(club=club, name="Only Once")
    event = make_event(club, [(1, loner, roster[5], W)], date=dt.date(2025, 7, 1), name="Last")
    with transaction.atomic():
        club_changed(club.pk, LadderInput(from_date=event.date))
    replay_ladder(club.pk)
    assert stored_records(club.pk)[loner.pk]["events"] == 1
    event.refresh_from_db()
    delete_event(event.pk, event.edit_version, None)
    replay_ladder(club.pk)
    club.refresh_from_db()
    records = stored_records(club.pk)
    assert loner.pk not in records
    assert records == lifetimes(club.pk)
    assert verify_ladder(club) == []


@pytest.mark.django_db
def test_only_a_long_history_is_stored_and_a_short_one_is_summed_on_its_page(monkeypatch):
    monkeypatch.setattr(lifetime, "STORED_FROM_EVENTS", 32)
    club, roster = history()
    counts = {p.pk: p.event_results.count() for p in roster}
    long = {pk for pk, events in counts.items() if events >= 32}
    assert long and long != set(counts)  # both kinds in this history
    assert set(stored_records(club.pk)) == long
    assert verify_ladder(club) == []
    summed_here = pages(club, roster)
    monkeypatch.setattr(lifetime, "STORED_FROM_EVENTS", 1)
    replay_ladder(club.pk, full=True)
    assert set(stored_records(club.pk)) == set(counts)
    assert pages(club, roster) == summed_here


@pytest.mark.django_db
def test_verify_ladder_finds_a_stored_lifetime_that_differs():
    club, roster = history()
    record = PlayerRecord.objects.get(player=roster[1])
    record.summary["record"][0] += 1
    record.save()
    PlayerRecord.objects.create(
        player=Player.objects.create(club=club, name="X"), club=club, summary={}
    )
    assert verify_ladder(club) == [
        f"player {roster[1].pk}: stored lifetime record differs",
        f"player {Player.objects.get(name='X').pk}: stored lifetime record no replay writes",
    ]


@pytest.mark.django_db
def test_while_a_change_waits_for_its_replay_the_page_counts_every_game():
    club, roster = history()
    url = reverse("club_player", args=[club.slug, roster[7].pk])
    games = PlayerRecord.objects.get(player=roster[7]).summary["record"]
    make_event(club, [(1, roster[7], roster[6], W)], date=dt.date(2025, 8, 1))
    Ladder.objects.filter(club=club).update(data_version=F("data_version") + 1)
    html = Client().get(url).content.decode()
    played = re.search(r'<tr class="record-row">\s*<td class="num">(\d+)</td>', html)
    assert played is not None and int(played[1]) == sum(games[:3]) + 1


def test_the_stored_form_keeps_every_sum_and_takes_the_shown_names():
    rows = [
        (1, "A", dt.date(2024, 1, 5), True, "standard", 1500, 20, 0.5, 1, 10, 1510, 1, 0),
        (2, "B", dt.date(2024, 1, 20), True, "standard", 1510, 20, 0.5, 0, -10, 1500, 1, 1),
        (3, "C", dt.date(2025, 2, 1), True, "rapid", 1500, 20, 0.5, 1, 10, 1510, 1, 2),
    ]
    games = [
        (10, 1, 1, "1-0", "white", 7, 1600.0, "standard"),
        (11, 2, 1, "1-0", "black", 8, 1400.0, "standard"),
        (12, 3, 1, "bye1", "white", None, None, "rapid"),
        (13, 3, 2, "0-1", "black", 7, 1700.0, "rapid"),
    ]
    summed = lifetime.summarise(rows, games, {1: {"10": [False, True, "variant"]}})
    back = lifetime.from_json(lifetime.to_json(summed), {7: "S. T.", 8: "Uma"})
    r = back.record
    assert (r.won, r.drawn, r.lost, r.byes) == (2, 0, 1, 1)
    assert {h.opponent: (h.tally.won, h.tally.lost) for h in back.summaries.head_to_head()} == {
        "S. T.": (2, 0),
        "Uma": (0, 1),
    }
    kinds = {k.kind: (k.event_count, k.tally.games) for k in back.summaries.kinds.values()}
    assert kinds == {"standard": (2, 2), "rapid": (1, 1)}
    # The 1600 win did not count for white: the best win is the one in event 3.
    best = back.summaries.best
    assert best is not None and (best.opponent, best.opponent_rating, best.event_id) == (
        "S. T.",
        1700.0,
        3,
    )
    t = back.timeline
    assert (t.events, t.counted, t.first) == (3, 3, (1, dt.date(2024, 1, 5), 1500))
    assert [(m.event_id, m.rating) for m in t.months] == [(2, 1500), (3, 1510)]  # each month's last
    assert [(y.year, y.events, y.rating_after) for y in t.years] == [
        (2025, 1, 1510),
        (2024, 2, 1500),
    ]
