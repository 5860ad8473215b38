"""The HSB (Haagse Schaak Bond) junior rating (SPEC §2, seed 002).

Per event and player: the average pre-event rating of the opponents in the
player's rated games gives an expected fraction
``p = clamp(0.5 + (R_self - R_avg) / 600, 0, 1)`` (300 points above the
average means 100%); the change is ``20 x (score - games x p) + bonus``,
rounded to a whole number and added. There is no K factor, no provisional
status (the seed defines none: unrated newcomers just get an estimate) and so
no protection rule.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from clubs.rating_policies import POLICY_LABELS
from ladder.policies.base import (
    EventInput,
    EventRating,
    GameOutcome,
    PlayerOutcome,
    PlayerState,
    PolicySettings,
    RatingPolicy,
    check_event,
    outcome,
    reject_unknown,
    require_finite,
    require_int,
    unrated_reason,
)

MAX_RATING = 4000.0  # a form sanity limit, not an HSB rule
POINTS_PER_EXCESS = 20  # rating points per point scored above (or below) expectation
FULL_SCALE = 600  # rating difference spanning p = 0 .. 1 (±300 around 50%)
MIN_BONUS, MAX_BONUS = 3, 8  # "3 tot 8 ratingpuntjes ... voor elk gespeeld toernooi"


@dataclass(frozen=True)
class HsbSettings(PolicySettings):
    start_rating: float = 800.0  # "Als je net de spelregels kent, heb je een rating van 800"
    bonus: int = 3  # per event with at least one rated game


_FIELDS = frozenset(f.name for f in dataclasses.fields(HsbSettings))


def round_half_up(value: Fraction) -> int:
    """Round to a whole number, halves toward +infinity: 12.5 -> 13, -2.5 -> -2.

    The seed only says "afgerond"; half up toward +infinity is the plain
    floor(x + 1/2) rule. Done on exact fractions so that a change that is
    mathematically x.5 is never pushed either way by float error.
    """
    return math.floor(value + Fraction(1, 2))


def expected_fraction(rating: float, opponents_average: Fraction) -> Fraction:
    """p = clamp(0.5 + (R_self - R_avg) / 600, 0, 1), exactly."""
    p = Fraction(1, 2) + (Fraction(rating) - opponents_average) / FULL_SCALE
    return min(max(p, Fraction(0)), Fraction(1))


class HsbPolicy:
    name = "hsb"
    label = POLICY_LABELS["hsb"]  # shown in the club settings form

    def default_settings(self) -> HsbSettings:
        return HsbSettings()

    def parse_settings(self, raw: Mapping[str, object]) -> HsbSettings:
        reject_unknown(raw, _FIELDS)
        d = HsbSettings()
        return HsbSettings(
            start_rating=require_finite(
                "start_rating", raw.get("start_rating", d.start_rating), low=0, high=MAX_RATING
            ),
            bonus=require_int("bonus", raw.get("bonus", d.bonus), low=MIN_BONUS, high=MAX_BONUS),
        )

    def settings_to_dict(self, settings: HsbSettings) -> dict[str, object]:
        return dataclasses.asdict(settings)

    def start_rating(self, settings: HsbSettings) -> float:
        return settings.start_rating

    def is_provisional(self, state: PlayerState, settings: HsbSettings) -> bool:
        return False

    def rate_event(
        self, event: EventInput, before: Mapping[int, PlayerState], settings: HsbSettings
    ) -> EventRating:
        players_in_event = check_event(event, before)

        # Per player: opponents' pre-event ratings and own scores over rated
        # games, one entry per game (a ten-game match counts the opponent ten
        # times). All arithmetic below is on exact fractions, so the result is
        # independent of game order and the half-up rounding is exact.
        opponents: dict[int, list[Fraction]] = {p: [] for p in players_in_event}
        scores: dict[int, Fraction] = {p: Fraction(0) for p in players_in_event}
        games: dict[int, GameOutcome] = {}

        for game in event.games:
            reason = unrated_reason(event, game)
            games[game.id] = outcome(reason is None, reason is None, reason)
            if reason is not None:
                continue
            white, black = game.white, game.black
            assert black is not None  # check_event: only byes lack an opponent
            white_score, black_score = game.result.scores
            opponents[white].append(Fraction(before[black].rating))
            opponents[black].append(Fraction(before[white].rating))
            scores[white] += Fraction(white_score)
            scores[black] += Fraction(black_score)

        players: dict[int, PlayerOutcome] = {}
        for player in players_in_event:
            state = before[player]
            counted = len(opponents[player])
            expected = Fraction(0)
            change = 0
            if counted:
                p = expected_fraction(state.rating, sum(opponents[player], Fraction(0)) / counted)
                expected = counted * p
                change = round_half_up(
                    POINTS_PER_EXCESS * (scores[player] - expected) + settings.bonus
                )
            players[player] = PlayerOutcome(
                pre_rating=state.rating,
                k=None,
                provisional=False,
                games_counted=counted,
                expected=float(expected),
                actual=float(scores[player]),
                change=float(change),
                post_rating=state.rating + change,
                rated_games_after=state.rated_games + counted,
            )
        return EventRating(players=players, games=games)


POLICY: RatingPolicy[HsbSettings] = HsbPolicy()
