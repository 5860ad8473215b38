"""A player's games summed up, with no database: head-to-head, best win, by kind."""

import datetime as dt

from clubs.results import Result
from ladder.player_stats import GameSummaries, PlayedGame, Tally
from members.pages.player_page import Record

JAN, FEB = dt.date(2026, 1, 10), dt.date(2026, 2, 7)


def game(
    opponent: int | None = 2,
    mine: float = 1,
    kind: str = "standard",
    event: int = 1,
    over_the_board: bool = True,
    counted: bool | None = True,
    rating: float | None = 1500,
) -> PlayedGame:
    theirs = 1 - mine
    name = f"Player {opponent}" if opponent else ""
    return PlayedGame(event, kind, opponent, name, over_the_board, mine, theirs, counted, rating)


def summed(*games: tuple[PlayedGame, str, dt.date | None]) -> GameSummaries:
    s = GameSummaries()
    for g, event, date in games:
        s.add(g, event, date)
    return s


def test_head_to_head_counts_wins_draws_and_losses_most_games_first():
    s = summed(
        (game(3, 1), "A", JAN),
        (game(2, 0.5), "A", JAN),
        (game(2, 0), "B", FEB),
    )
    rows = [
        (h.opponent, h.tally.games, h.tally.score, h.tally.won, h.tally.lost)
        for h in s.head_to_head()
    ]
    assert rows == [("Player 2", 2, 0.5, 0, 1), ("Player 3", 1, 1, 1, 0)]


def test_byes_and_forfeits_are_no_games_but_their_event_counts_for_its_kind():
    s = summed(
        (game(None, 1, over_the_board=False), "A", JAN),  # a bye
        (game(2, 1, kind="rapid", event=2, over_the_board=False), "B", FEB),  # a forfeit
    )
    assert s.head_to_head() == []
    assert s.best is None
    kinds = {k.kind: (len(k.events), k.tally.games) for k in s.by_kind(["standard", "rapid"])}
    assert kinds == {"standard": (1, 0), "rapid": (1, 0)}


def test_the_best_win_is_the_highest_rated_opponent_beaten_in_a_counted_game():
    s = summed(
        (game(2, 1, rating=1600), "Swiss", JAN),
        (game(3, 1, rating=1900, counted=False), "Bughouse", JAN),  # not rated: not a best win
        (game(4, 0.5, rating=2000), "Swiss", JAN),  # a draw
        (game(5, 1, rating=1700), "Cup", FEB),
        (game(6, 1, rating=2100, counted=None), "Later", None),  # not rated yet
    )
    assert s.best is not None
    assert (s.best.opponent, s.best.opponent_rating, s.best.event, s.best.date) == (
        "Player 5",
        1700,
        "Cup",
        FEB,
    )


def test_of_two_wins_over_the_same_rating_the_earlier_is_the_best():
    s = summed((game(2, 1, rating=1600), "Later", FEB), (game(3, 1, rating=1600), "Earlier", JAN))
    assert s.best is not None and s.best.event == "Earlier"


def test_kinds_come_in_the_given_order_any_other_last():
    s = summed(
        (game(2, 1, kind="blitz", event=1), "A", JAN),
        (game(2, 1, kind="odd", event=2), "B", JAN),
        (game(2, 0.5, kind="standard", event=3), "C", JAN),
        (game(2, 1, kind="standard", event=4), "D", JAN),
    )
    rows = [
        (k.kind, len(k.events), k.tally.games, k.tally.score)
        for k in s.by_kind(["standard", "blitz"])
    ]
    assert rows == [("standard", 2, 2, 1.5), ("blitz", 1, 1, 1), ("odd", 1, 1, 1)]


def test_the_lifetime_record_counts_played_games_as_a_tally_does_and_keeps_the_rest_apart():
    record, tally = Record(), Tally()
    for mine, theirs in [(1, 0), (0.5, 0.5), (0, 1), (1, 0)]:
        record.add_result(Result.WHITE_WIN, mine, theirs)
        tally.add(mine, theirs)
    record.add_result(Result.UNRATED_DRAW, 0.5, 0.5)
    tally.add(0.5, 0.5)
    record.add_result(Result.BYE_FULL, 1, 0)
    record.add_result(Result.WHITE_FORFEIT_WIN, 1, 0)
    record.add_result(Result.BLACK_FORFEIT_WIN, 0, 1)
    assert (record.won, record.drawn, record.lost) == (tally.won, tally.drawn, tally.lost)
    assert (record.played, record.byes, record.forfeits) == (5, 1, 2)
    assert (record.forfeits_won, record.forfeits_lost) == (1, 1)
