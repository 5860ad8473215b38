"""The season's honours from plain rows: pure, no database."""

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from ladder.seasons.summary import (
    LIST_LENGTH,
    MIN_IMPROVED_GAMES,
    MIN_PERFORMANCE_GAMES,
    SeasonResult,
    best_performances,
    champion,
    most_games,
    most_improved,
)


def chain(player: int, events: list[tuple[int, float, int]], start: float = 1500.0):
    """A player's results in (position, change, games) order, each starting where the last
    ended, as the replay stores them."""
    rows, rating = [], start
    for position, change, games in events:
        rows.append(SeasonResult(player, position, position, rating, rating + change, games))
        rating += change
    return rows


def test_the_most_improved_need_ten_rated_games_and_go_by_their_whole_change():
    rows = [
        *chain(1, [(1, 30.0, 5), (3, -10.0, 5)]),  # +20 over 10 games
        *chain(2, [(2, 80.0, 9)]),  # +80, but only 9 games
        *chain(3, [(1, 5.0, 6), (2, 10.0, 6)]),  # +15 over 12 games
    ]
    improved = most_improved(rows)
    assert [(i.player_id, i.change, i.games) for i in improved] == [(1, 20.0, 10), (3, 15.0, 12)]
    assert MIN_IMPROVED_GAMES == 10


def test_the_change_is_from_before_the_first_event_to_after_the_last_in_any_input_order():
    rows = chain(1, [(5, 12.5, 4), (9, -2.5, 4), (12, 40.0, 4)], start=1400.0)
    improved = most_improved(list(reversed(rows)))
    assert improved[0].change == 50.0


def test_the_printed_gain_is_the_printed_rating_after_less_the_printed_rating_before():
    # 1400.04 -> 1450.06: a gain of 50.02, which rounded alone prints 50.0; the page prints
    # the ratings 1400.0 and 1450.1, whose difference is 50.1.
    one = chain(1, [(1, 50.02, 10)], start=1400.04)
    # 1400.06 -> 1450.14: 50.08 (50.1 alone), printed 1400.1 and 1450.1, so 50.0.
    two = chain(2, [(1, 50.08, 10)], start=1400.06)
    improved = most_improved([*two, *one])
    shown = [(i.player_id, str(i.start), str(i.end), str(i.shown_change)) for i in improved]
    # Ranked by the printed gain, so a higher row never prints less.
    assert shown == [(1, "1400.0", "1450.1", "50.1"), (2, "1400.1", "1450.1", "50.0")]
    assert improved[1].change > improved[0].change  # the full-precision gains, the other way


@given(
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=5), st.floats(min_value=-60, max_value=60)),
        min_size=1,
        max_size=40,
    ),
    st.floats(min_value=200, max_value=2800),
)
def test_every_printed_gain_recomputes_from_the_printed_ratings(changes, start):
    rows = []
    for player in range(6):
        own = [(n, change, 5) for n, (who, change) in enumerate(changes) if who == player]
        rows += chain(player, own, start=start + player)
    improved = most_improved(rows)
    for i in improved:
        assert i.end - i.start == i.shown_change
        assert abs(i.shown_change - Decimal(repr(i.change))) < Decimal("0.1")
    gains = [i.shown_change for i in improved]
    assert gains == sorted(gains, reverse=True)


def test_most_games_go_by_games_played_and_leave_out_players_without_one():
    played = most_games({1: 7, 2: 9, 3: 0, 4: 7})
    assert [(g.player_id, g.games) for g in played] == [(2, 9), (1, 7), (4, 7)]


@given(st.lists(st.integers(min_value=0, max_value=30), min_size=0, max_size=40))
def test_the_lists_are_at_most_ten_long_and_in_order(games):
    rows = [SeasonResult(p, 1, 1, 1500.0, 1500.0 + g, g) for p, g in enumerate(games)]
    played = most_games({p: g for p, g in enumerate(games)})
    assert len(played) == min(LIST_LENGTH, sum(1 for g in games if g > 0))
    assert [g.games for g in played] == sorted((g for g in games if g > 0), reverse=True)[:10]
    improved = most_improved(rows)
    assert all(i.games >= MIN_IMPROVED_GAMES for i in improved)
    assert [i.change for i in improved] == sorted((i.change for i in improved), reverse=True)


def test_best_performances_need_three_rated_games_in_the_event():
    rows = [
        SeasonResult(1, 10, 1, 1500.0, 1510.0, MIN_PERFORMANCE_GAMES - 1),
        SeasonResult(2, 10, 1, 1500.0, 1510.0, MIN_PERFORMANCE_GAMES),
        SeasonResult(3, 11, 2, 1500.0, 1510.0, 5),
        SeasonResult(4, 11, 2, 1500.0, 1510.0, 5),
    ]
    performances = {(10, 1): 2300, (10, 2): 1700, (11, 3): 1900, (11, 4): None}
    best = best_performances(rows, performances)
    shown = [(b.player_id, b.event_id, b.performance) for b in best]
    assert shown == [(3, 11, 1900), (2, 10, 1700)]


def test_the_champion_is_the_first_established_row_of_the_ladder():
    assert champion([True, False, False]) == 1
    assert champion([False, True]) == 0
    assert champion([True, True]) is None
    assert champion([]) is None
