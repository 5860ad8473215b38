"""A series as read from its events (members/series.py): whatever changes an event's final
places changes the series, with nothing stored; names under the page's rule; groups by the
rating the day before; a finished series names its winners."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import pytest
from django.utils import timezone, translation

from clubs.models import Entry, Evening, Game, Player, Series
from clubs.results import Result
from directors.events.publishing import delete_event, restore_event
from directors.events.results import grid_rows, grid_to_imported, set_results
from directors.roster.merging import merge_players, undo_merge
from ladder.roster.display import NameFacts, shown_names
from members.series import band_labels, series_events, series_standings
from tests.factories import make_event, make_players, set_standing

pytestmark = pytest.mark.django_db

WIN = Result.WHITE_WIN
SEP = dt.date(2025, 9, 1)


def finishing(club, order, *, date, kind="rapid", name=None, **fields):
    """An all-play-all in which each player beats everyone after them: places 1, 2, 3…"""
    pairs = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))]
    # One game a round, so each round is a valid grid round.
    games = [(n, order[i], order[j], WIN) for n, (i, j) in enumerate(pairs, start=1)]
    return make_event(club, games, date=date, kind=kind, name=name or f"Rapid {date}", **fields)


def series_of(club, *, events=(), **fields):
    rules = {
        "slug": "rapid-gp",
        "name": "Rapid Grand Prix",
        "points": [10, 8, 6, 5],
        "best": None,
        "ties": Series.Ties.SHARE,
        "members_only": False,
        "min_events": 0,
        **fields,
    }
    series = Series.objects.create(club=club, **rules)
    series.events.set(events)
    return series


def table(standings, group=0):
    return [
        (line.rank, line.name, line.total, line.sum_text) for line in standings.groups[group].lines
    ]


@pytest.fixture
def four(club):
    return make_players(club, ["Anna Berg", "Ben Cole", "Cem Demir", "Dora Eck"])


def test_points_come_from_the_event_page_final_places_and_a_guest_holds_her_place(club, four):
    anna, ben, cem, dora = four
    guest = Player.objects.create(club=club, name="Gina Guest", held=True)
    one = finishing(club, [anna, guest, ben, cem], date=SEP)
    two = finishing(club, [ben, anna, dora], date=SEP + dt.timedelta(days=7))
    series = series_of(club, events=[two, one], members_only=True)
    standings = series_standings(series)
    assert [event.pk for event in standings.events] == [one.pk, two.pk]  # in ladder order
    # Gina (held: met in a draft, never added to the roster) is not ranked, but Ben behind
    # her takes the 3rd place's 6.
    assert table(standings) == [
        (1, "Anna Berg", 18, "10 + 8 = 18"),
        (2, "Ben Cole", 16, "6 + 10 = 16"),
        (3, "Dora Eck", 6, "6"),
        (4, "Cem Demir", 5, "5"),
    ]
    everyone = series_standings(series_of(club, slug="open", events=[one, two]))
    assert ("Gina Guest", 8) in [(line.name, line.total) for line in everyone.groups[0].lines]


def test_an_entrant_without_a_player_holds_a_place_but_never_ranks(club, four):
    anna, ben, _cem, _dora = four
    event = finishing(club, [anna, ben], date=SEP)
    nobody = Entry.objects.create(event=event, typed_name="Walk In", start_rank=3)
    for round_no, beaten in ((2, anna), (3, ben)):
        black = event.entries.get(player=beaten)
        Game.objects.create(event=event, round=round_no, white=nobody, black=black, result=WIN)
    standings = series_standings(series_of(club, events=[event]))
    # Walk In won both games: first place is theirs, Anna takes 2nd's 8, Ben 3rd's 6.
    assert table(standings) == [(1, "Anna Berg", 8, "8"), (2, "Ben Cole", 6, "6")]


def test_a_correction_to_an_event_changes_the_series(club, four):
    anna, ben, cem, _dora = four
    event = finishing(club, [anna, ben, cem], date=SEP)
    series = series_of(club, events=[event])
    assert table(series_standings(series))[0][:2] == (1, "Anna Berg")
    # The director corrects Anna - Ben to a win for Ben in the results grid.
    rows = [
        replace(row, result=Result.BLACK_WIN.value)
        if (row.white, row.black) == ("Anna Berg", "Ben Cole")
        else row
        for row in grid_rows(event)
    ]
    event.refresh_from_db()
    imported = grid_to_imported(rows)
    set_results(event.pk, event.edit_version, imported, None, source="grid", replace_entries=False)
    assert table(series_standings(series)) == [
        (1, "Ben Cole", 10, "10"),
        (2, "Anna Berg", 8, "8"),
        (3, "Cem Demir", 6, "6"),
    ]


def test_a_deleted_event_leaves_the_series_and_comes_back_restored(club, four):
    anna, ben, cem, _dora = four
    one = finishing(club, [anna, ben, cem], date=SEP)
    two = finishing(club, [cem, ben, anna], date=SEP + dt.timedelta(days=7))
    series = series_of(club, kinds=["rapid"], date_from=SEP, date_to=dt.date(2026, 6, 30))
    assert [e.pk for e in series_events(series)] == [one.pk, two.pk]
    assert table(series_standings(series))[0] == (1, "Anna Berg", 16, "10 + 6 = 16")
    delete_event(two.pk, two.edit_version, None)
    standings = series_standings(series)
    assert [e.pk for e in standings.events] == [one.pk]
    assert table(standings)[0] == (1, "Anna Berg", 10, "10")
    two.refresh_from_db()
    restore_event(two.pk, two.edit_version, None)
    assert table(series_standings(series))[0] == (1, "Anna Berg", 16, "10 + 6 = 16")


def test_a_merge_joins_two_players_results_and_undoing_it_parts_them(club, four):
    anna, ben, cem, _dora = four
    anna_again = Player.objects.create(club=club, name="A. Berg")
    one = finishing(club, [anna, ben, cem], date=SEP)
    two = finishing(club, [anna_again, cem, ben], date=SEP + dt.timedelta(days=7))
    series = series_of(club, events=[one, two])
    assert table(series_standings(series)) == [
        (1, "Ben Cole", 14, "8 + 6 = 14"),
        (1, "Cem Demir", 14, "6 + 8 = 14"),
        (3, "A. Berg", 10, "10"),
        (3, "Anna Berg", 10, "10"),
    ]
    merge = merge_players(club, anna, anna_again, None)
    assert table(series_standings(series))[0] == (1, "Anna Berg", 20, "10 + 10 = 20")
    undo_merge(merge, None)
    names = {name: total for _rank, name, total, _sum in table(series_standings(series))}
    assert names["Anna Berg"] == 10 and names["A. Berg"] == 10


def test_the_page_passes_its_own_names_rule(club, four):
    anna, ben, cem, _dora = four
    club.name_display = "initials"
    club.save()
    event = finishing(club, [anna, ben, cem], date=SEP)
    facts = [NameFacts(p.pk, p.name, p.junior, p.full_name_consent) for p in four]
    shown = shown_names(facts, club, viewer_is_director=False)
    standings = series_standings(series_of(club, events=[event]), names=shown.__getitem__)
    assert [line.name for line in standings.groups[0].lines] == ["A. B.", "B. C.", "C. D."]
    full = series_standings(Series.objects.get(club=club))
    assert [line.name for line in full.groups[0].lines] == ["Anna Berg", "Ben Cole", "Cem Demir"]


def test_groups_by_the_rating_the_day_before_the_first_day_each_ranked_apart(club, four):
    anna, ben, cem, dora = four
    set_standing(anna, start_rating=1750, start_games=20)
    set_standing(ben, start_rating=1400, start_games=20)
    set_standing(cem, start_rating=1150, start_games=20)
    # Dora has no rated game: the lowest group.
    finishing(club, [anna, ben, cem, dora], date=SEP)
    finishing(club, [ben, dora, cem, anna], date=SEP + dt.timedelta(days=7))
    series = series_of(
        club,
        kinds=["rapid"],
        date_from=SEP,
        date_to=dt.date(2026, 6, 30),
        rating_bands=[1200, 1600],
        points=[],
        best=None,
    )
    standings = series_standings(series)
    with translation.override("en"):
        assert band_labels([1200, 1600]) == ["below 1200", "1200–1599", "1600 and up"]
    labels = [group.label for group in standings.groups]
    assert labels == ["1600 and up", "1200–1599", "below 1200"]
    by_group = {
        group.label: [(line.rank, line.name, line.total) for line in group.lines]
        for group in standings.groups
    }
    # Game points: Anna 3 + 0, Ben 2 + 3, Dora 0 + 2, Cem 1 + 1.
    assert by_group == {
        "1600 and up": [(1, "Anna Berg", 3)],
        "1200–1599": [(1, "Ben Cole", 5)],
        "below 1200": [(1, "Cem Demir", 2), (1, "Dora Eck", 2)],  # equal: by name
    }
    with translation.override("en"):
        said = series_standings(series).rules_sentence
    assert "groups by rating on " in said
    assert said.endswith(": 1600 and up, 1200–1599, below 1200.")


def test_a_finished_series_names_its_winner_per_group_and_joint_winners_of_a_shared_first(
    club, four
):
    anna, ben, cem, _dora = four
    today = timezone.localdate()
    one = finishing(club, [anna, ben, cem], date=today - dt.timedelta(days=20))
    two = finishing(club, [ben, anna, cem], date=today - dt.timedelta(days=10))
    chosen = series_of(club, events=[one], slug="one")
    standings = series_standings(chosen)
    assert standings.finished and [w.name for w in standings.groups[0].winners] == ["Anna Berg"]
    tied = series_standings(series_of(club, events=[one, two], slug="both"))
    assert tied.finished and len(tied.groups[0].winners) == 2  # Anna and Ben share first
    running = series_of(
        club,
        slug="running",
        kinds=["rapid"],
        date_from=today - dt.timedelta(days=30),
        date_to=today + dt.timedelta(days=30),
    )
    standings = series_standings(running)
    assert not standings.finished and standings.groups[0].winners == []
    assert [line.rank for line in standings.groups[0].lines] == [1, 1, 3]


def test_the_rules_sentence_states_every_rule(club):
    series = series_of(
        club, best=6, members_only=True, min_events=3, points=[10, 8, 6, 5, 4, 3, 2, 1]
    )
    with translation.override("en"):
        standings = series_standings(series)
    assert standings.rules_sentence == (
        "Points by final place: 10, 8, 6, 5, 4, 3, 2, 1, then 0; tied places share their points; "
        "the best 6 results count; members only; ranked from 3 events played; "
        "equal totals share a place."
    )
    assert standings.groups[0].lines == []  # no event yet


def test_a_series_counts_only_published_events_of_its_kinds_in_its_days(club, four):
    anna, ben, _cem, _dora = four
    counted = finishing(club, [anna, ben], date=SEP)
    finishing(club, [anna, ben], date=SEP, kind="blitz")  # another kind
    finishing(club, [anna, ben], date=dt.date(2025, 8, 31))  # the day before
    finishing(club, [anna, ben], date=dt.date(2025, 10, 1), published=False)  # a draft
    last_day = finishing(club, [ben, anna], date=dt.date(2025, 10, 31))
    series = series_of(club, kinds=["rapid"], date_from=SEP, date_to=dt.date(2025, 10, 31))
    assert [event.pk for event in series_events(series)] == [counted.pk, last_day.pk]


def test_a_chosen_event_not_published_is_left_out_and_keeps_the_series_running(club, four):
    anna, ben, _cem, _dora = four
    today = timezone.localdate()
    past = finishing(club, [anna, ben], date=today - dt.timedelta(days=3))
    coming = finishing(club, [ben, anna], date=today + dt.timedelta(days=3), published=False)
    series = series_of(club, events=[past, coming])
    standings = series_standings(series)
    assert [event.pk for event in standings.events] == [past.pk]
    # A chosen event not yet played (nor published): the series is still running.
    assert not standings.finished


def test_groups_by_section_rank_each_section_apart_and_name_each_winner(club):
    """Two finished Tuesdays of an Open and a Minor; Cem played the Minor once and the Open
    once: equally many, so he is ranked in the higher section, the Open, with both results."""
    anna, ben, cem, dora, eli, finn = make_players(
        club, ["Anna Berg", "Ben Cole", "Cem Demir", "Dora Eck", "Eli Falk", "Finn Gray"]
    )
    events = []
    for day, (top, low) in enumerate(
        [([anna, ben, cem], [dora, eli, finn]), ([ben, anna], [eli, cem, dora, finn])]
    ):
        date = SEP + dt.timedelta(days=7 * day)
        group = Evening.objects.create(club=club, name="Tuesday", date=date)
        # The Minor saved first: the place in its evening, not the id, makes it the lower.
        minor = finishing(club, low, date=date, name="Tuesday – Minor", evening=group,
                          section="Minor", order_in_day=1)  # fmt: skip
        opened = finishing(club, top, date=date, name="Tuesday – Open", evening=group,
                           section="Open", order_in_day=0)  # fmt: skip
        events += [opened, minor]
    series = series_of(club, events=events, by_section=True, points=[10, 8, 6, 5])
    with translation.override("en"):
        standings = series_standings(series)
    assert [group.label for group in standings.groups] == ["Open", "Minor"]
    assert [line.sum_text for line in standings.groups[0].lines] == [
        "10 + 8 = 18",  # Anna
        "8 + 10 = 18",  # Ben, sharing first
        "6 + 8 = 14",  # Cem: his Open and his Minor result both count
    ]
    open_lines = {line.name: (line.rank, line.total) for line in standings.groups[0].lines}
    assert open_lines == {"Anna Berg": (1, 18), "Ben Cole": (1, 18), "Cem Demir": (3, 14)}
    minor_lines = {line.name: (line.rank, line.total) for line in standings.groups[1].lines}
    # Dora 10 + 6, Eli 8 + 10, Finn 6 + 5.
    assert minor_lines == {"Eli Falk": (1, 18), "Dora Eck": (2, 16), "Finn Gray": (3, 11)}
    assert standings.finished
    assert [w.name for w in standings.groups[0].winners] == ["Anna Berg", "Ben Cole"]
    assert [w.name for w in standings.groups[1].winners] == ["Eli Falk"]
    assert standings.rules_sentence.endswith("; each section ranked apart: Open, Minor.")
