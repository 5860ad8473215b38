"""What an event page shows of its rating changes: one line per rated entrant, as stored by
the replay, and (for the HSB sum) the opponents' ratings of the games that counted."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

from clubs.models import Event
from ladder.models import PlayerEventResult, RatedEvent


@dataclass(frozen=True)
class RatingLine:
    pre_rating: float
    expected: float
    actual: float
    change: float
    games_counted: int
    k: float | None = None
    # As stored: the next event's "before" is this rating, so the page prints its rounding.
    post_rating: float = 0.0
    # HSB only: the pre-event ratings of the opponents in the games counted for this player,
    # which give the written sum's p exactly (as on the player page).
    opponent_ratings: tuple[float, ...] = ()


def rating_lines(event: Event) -> dict[int, RatingLine]:
    """Each rated entrant's line, by player id."""
    return {
        player_id: RatingLine(pre, expected, actual, change, counted, k, post)
        for player_id, pre, expected, actual, change, counted, k, post in (
            PlayerEventResult.objects.filter(event=event).values_list(
                "player_id",
                "pre_rating",
                "expected",
                "actual",
                "change",
                "games_counted",
                "k",
                "post_rating",
            )
        )
    }


def with_opponent_ratings(event: Event, ratings: dict[int, RatingLine]) -> dict[int, RatingLine]:
    """Each rating line with the pre-event ratings of its counted games' opponents.

    The replay stores only the games not rated for both sides (RatedEvent.game_outcomes),
    so a game between two players that is missing there counted for both."""
    stored = RatedEvent.objects.filter(event=event).values_list("game_outcomes", flat=True).first()
    outcomes: dict[str, list] = stored or {}
    opponents: dict[int, list[float]] = defaultdict(list)
    games = event.games.filter(black__isnull=False).values_list(
        "id", "white__player_id", "black__player_id"
    )
    for game_id, white, black in games:
        outcome = outcomes.get(str(game_id))
        for mine, theirs, index in ((white, black, 0), (black, white, 1)):
            counted = outcome is None or bool(outcome[index])
            if counted and mine in ratings and theirs in ratings:
                opponents[mine].append(ratings[theirs].pre_rating)
    return {
        player_id: replace(line, opponent_ratings=tuple(opponents[player_id]))
        for player_id, line in ratings.items()
    }
