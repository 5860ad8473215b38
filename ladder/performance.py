"""A player's performance rating for one event, as FIDE computes TPR.

Pure Python (no Django). FIDE C.07 art. 10.2 (TPR): the average rating of the opponents
met over the board plus dp, the rating difference that table 8.1(a) of the FIDE Rating
Regulations (Handbook B.02) gives for the fraction scored, p. Forfeits, byes and absences
are not games and do not count, nor does a game against an unrated opponent (no rating
to average). Rounding: p to two decimals, half up (2 of 3 = .67, 3 of 8 = .38), as the
table is read; the result to a whole number, half up, at the end. p = 0 and p = 1 read
the table's ends, -800 and +800.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import ROUND_HALF_UP, Decimal

from clubs.results import RESULT_SCORES
from ladder.tiebreaks import Game

# dp for p = .50, .51, ..., 1.00 (B.02 table 8.1(a)); below .50, dp(p) = -dp(1 - p).
_DP_FROM_HALF = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65,
    72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230,
    240, 251, 262, 273, 284, 296, 309, 322, 336, 351,
    366, 383, 401, 422, 444, 470, 501, 538, 589, 677,
    800,
)  # fmt: skip


def _hundredths(value: float) -> int:
    return int(Decimal(str(value)).scaleb(2).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@functools.lru_cache(maxsize=1024)
def dp(p: float) -> int:
    """The rating difference for the fraction scored p (0 to 1), p rounded to hundredths.

    Kept per p: an event's fractions repeat (points in halves over a few games), and an
    open of 2,000 players asks for one each."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"a fraction scored is between 0 and 1, not {p}")
    hundredths = _hundredths(p)
    if hundredths >= 50:
        return _DP_FROM_HALF[hundredths - 50]
    return -_DP_FROM_HALF[50 - hundredths]


def performance_rating(results: Iterable[tuple[float, float]]) -> int | None:
    """TPR over (opponent's rating, points scored) pairs, one per game played over the
    board against a rated opponent; None without any such game."""
    pairs = list(results)
    if not pairs:
        return None
    average = sum(rating for rating, _ in pairs) / len(pairs)
    p = sum(points for _, points in pairs) / len(pairs)
    value = Decimal(str(average)) + dp(p)
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def event_performances(
    games: Iterable[Game], ratings: Mapping[int, float | None]
) -> dict[int, int | None]:
    """Every player's TPR in an event: only the rated over-the-board results (1-0, ½-½,
    0-1) count, against opponents with a rating in `ratings` (the rating the event used).
    Every player of `ratings` appears, with None when they had no such game."""
    pairs: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for game in games:
        if game.black is None or not game.result.is_played:
            continue
        white_points, black_points = RESULT_SCORES[game.result]
        black_rating, white_rating = ratings.get(game.black), ratings.get(game.white)
        if black_rating is not None:
            pairs[game.white].append((black_rating, white_points))
        if white_rating is not None:
            pairs[game.black].append((white_rating, black_points))
    players = set(ratings) | set(pairs)
    return {player: performance_rating(pairs.get(player, ())) for player in players}
