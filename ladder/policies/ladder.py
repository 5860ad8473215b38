"""The default "club ladder" policy (SPEC §2): Elo expectation, two K values,
provisional players and the protection rule, frozen pre-event values.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass

from clubs.rating_policies import POLICY_LABELS
from clubs.results import RESULT_SCORES
from ladder.policies.base import (
    RESULT_UNRATED_REASON,
    EventInput,
    EventRating,
    GameOutcome,
    PlayerOutcome,
    PlayerState,
    PolicySettings,
    RatingPolicy,
    SettingError,
    UnratedReason,
    check_event,
    event_unrated_reason,
    outcome,
    reject_unknown,
    require_bool,
    require_finite,
    require_int,
)

# Bounds are sanity limits for a form, not chess rules: they keep a typo such
# as K 400 or a start rating of 12000 from wrecking a club's ladder.
MAX_RATING = 4000.0
MAX_K = 100.0
MAX_GAMES = 10_000


@dataclass(frozen=True)
class LadderSettings(PolicySettings):
    start_rating: float = 1200.0
    k_high: float = 40.0
    k_low: float = 20.0
    k_threshold: int = 20  # K = k_high while rated_games < k_threshold
    provisional_below: int = 5  # provisional while rated_games < provisional_below
    junior_k_rule: bool = False  # optional club rule: juniors keep k_high ...
    junior_k_max_rating: float = 2300.0  # ... while their rating is under this


_FIELDS = frozenset(f.name for f in dataclasses.fields(LadderSettings))


def expected_score(rating: float, opponent: float) -> float:
    """Elo expectation of a player rated ``rating`` against ``opponent``."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))  # type: ignore[no-any-return]


class LadderPolicy:
    name = "ladder"
    label = POLICY_LABELS["ladder"]  # shown in the club settings form

    def default_settings(self) -> LadderSettings:
        return LadderSettings()

    def parse_settings(self, raw: Mapping[str, object]) -> LadderSettings:
        reject_unknown(raw, _FIELDS)
        d = LadderSettings()
        settings = LadderSettings(
            start_rating=require_finite(
                "start_rating", raw.get("start_rating", d.start_rating), low=0, high=MAX_RATING
            ),
            k_high=require_finite("k_high", raw.get("k_high", d.k_high), low=1, high=MAX_K),
            k_low=require_finite("k_low", raw.get("k_low", d.k_low), low=1, high=MAX_K),
            k_threshold=require_int(
                "k_threshold", raw.get("k_threshold", d.k_threshold), low=0, high=MAX_GAMES
            ),
            provisional_below=require_int(
                "provisional_below",
                raw.get("provisional_below", d.provisional_below),
                low=0,
                high=MAX_GAMES,
            ),
            junior_k_rule=require_bool("junior_k_rule", raw.get("junior_k_rule", d.junior_k_rule)),
            junior_k_max_rating=require_finite(
                "junior_k_max_rating",
                raw.get("junior_k_max_rating", d.junior_k_max_rating),
                low=0,
                high=MAX_RATING,
            ),
        )
        # "High" and "low" would be meaningless the other way round; most
        # likely the two fields were swapped in the form.
        if settings.k_high < settings.k_low:
            raise SettingError(
                "k_high",
                f"must be at least k_low ({settings.k_low:g}), got {settings.k_high:g}",
                at_least="k_low",
            )
        return settings

    def settings_to_dict(self, settings: LadderSettings) -> dict[str, object]:
        return dataclasses.asdict(settings)

    def start_rating(self, settings: LadderSettings) -> float:
        return settings.start_rating

    def is_provisional(self, state: PlayerState, settings: LadderSettings) -> bool:
        return state.rated_games < settings.provisional_below

    def k_factor(self, state: PlayerState, settings: LadderSettings) -> float:
        """K from the pre-event state; it stays fixed for the whole event."""
        if settings.junior_k_rule and state.junior and state.rating < settings.junior_k_max_rating:
            return settings.k_high
        if state.rated_games < settings.k_threshold:
            return settings.k_high
        return settings.k_low

    def rate_event(
        self, event: EventInput, before: Mapping[int, PlayerState], settings: LadderSettings
    ) -> EventRating:
        in_event = check_event(event, before)
        provisional = {p: self.is_provisional(before[p], settings) for p in in_event}

        # Per player, the expected and actual score of every game counted for
        # them. Kept as lists and summed with math.fsum, which is exactly
        # rounded and so independent of the order of the games.
        expected: dict[int, list[float]] = {p: [] for p in provisional}
        actual: dict[int, list[float]] = {p: [] for p in provisional}
        games: dict[int, GameOutcome] = {}

        # unrated_reason(), with its event-wide half decided once per event.
        event_reason = event_unrated_reason(event)
        rating = {p: before[p].rating for p in provisional}
        for game in event.games:
            reason = event_reason or (
                UnratedReason.VARIANT if game.variant else RESULT_UNRATED_REASON[game.result]
            )
            if reason is not None:
                games[game.id] = outcome(False, False, reason)
                continue
            white, black = game.white, game.black
            assert black is not None  # check_event: only byes lack an opponent
            # Protection rule: an established player neither moves nor counts
            # the game against a provisional one; the provisional side is rated
            # normally against the established rating.
            rated_white = rated_black = True
            if provisional[white] != provisional[black]:
                if provisional[black]:
                    rated_white, reason = False, UnratedReason.PROTECTED_WHITE
                else:
                    rated_black, reason = False, UnratedReason.PROTECTED_BLACK
            games[game.id] = outcome(rated_white, rated_black, reason)

            white_score, black_score = RESULT_SCORES[game.result]
            w_rating, b_rating = rating[white], rating[black]
            if rated_white:
                expected[white].append(expected_score(w_rating, b_rating))
                actual[white].append(white_score)
            if rated_black:
                expected[black].append(expected_score(b_rating, w_rating))
                actual[black].append(black_score)

        players: dict[int, PlayerOutcome] = {}
        for player, is_provisional in provisional.items():
            state = before[player]
            k = self.k_factor(state, settings)
            total_expected = math.fsum(expected[player])
            total_actual = math.fsum(actual[player])
            counted = len(expected[player])
            # K is constant within the event, so K x sum(s - E) equals the sum
            # of the per-game changes, applied once at the end.
            change = k * (total_actual - total_expected)
            players[player] = PlayerOutcome(
                pre_rating=state.rating,
                k=k,
                provisional=is_provisional,
                games_counted=counted,
                expected=total_expected,
                actual=total_actual,
                change=change,
                post_rating=state.rating + change,
                rated_games_after=state.rated_games + counted,
            )
        return EventRating(players=players, games=games)


POLICY: RatingPolicy[LadderSettings] = LadderPolicy()
