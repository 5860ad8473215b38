"""What an event page shows of its rating changes: one line per rated entrant, as stored by
the replay, and (for the HSB sum) the opponents' ratings of the games that counted."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import cached_property

from clubs.models import Event
from ladder.explain import ChangeSum, EloSum, change_sum, elo_sum
from ladder.models import RatedEvent
from ladder.store import standings as standings_store


# A value, never changed once made (but for keep_sums' cache), yet not frozen: a frozen
# dataclass sets each field through object.__setattr__, and an open's page makes 284 lines
# on every request, which took a twentieth of its time.
@dataclass
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

    # The printed sums, worked out once a line: the standings' change column and the rating
    # changes' row print the same numbers, and an open of 284 players has 284 lines.
    @cached_property
    def elo(self) -> EloSum | None:
        """K × (score − expected) as printed, for a policy with a K."""
        if self.k is None:
            return None
        if kept := self._kept("elo"):
            return EloSum(*map(Decimal, kept))
        return elo_sum(
            pre=self.pre_rating,
            k=self.k,
            actual=self.actual,
            expected=self.expected,
            post=self.post_rating,
        )

    @cached_property
    def printed(self) -> ChangeSum:
        """Before, change and after as every page prints them, so that they add up."""
        if kept := self._kept("elo"):
            _k, _score, _expected, change, before, after = kept
            return ChangeSum(Decimal(before), Decimal(change), Decimal(after))
        if kept := self._kept("printed"):
            return ChangeSum(*map(Decimal, kept))
        if self.elo is not None:
            return ChangeSum(self.elo.before, self.elo.change, self.elo.after)
        return change_sum(
            pre=self.pre_rating,
            post=self.post_rating,
            change=self.change,
            k=self.k,
            actual=self.actual,
            expected=self.expected,
        )

    @property
    def printed_change(self) -> Decimal:
        """printed.change, read alone from the kept change where there is one: the standings
        print only the change, an open's 284 of them on every request."""
        if "printed" not in self.__dict__ and self._kind_kept() is not None:
            return Decimal(self.__dict__["kept_change"])
        return self.printed.change

    def keep_sums(self, change: str, sums: str) -> None:
        """Take the printed sums as already worked out (kept with the event's standings,
        ladder.standings): the printed change, and all the sum's numbers in
        one text ("elo" and K, score, expected, change, before, after, or "printed" and
        before, change, after, space-separated): the same numbers, not worked out again,
        and the text split only where a page prints the whole sum. Beside the line's
        fields: the line itself stays as stored."""
        self.__dict__["kept_change"] = change
        self.__dict__["kept_sums"] = sums

    def _kind_kept(self) -> str | None:
        """The kind of the kept sums ("elo" or "printed"), if they are the line's own kind:
        "elo" for a line with a K, "printed" for one without."""
        sums: str | None = self.__dict__.get("kept_sums")
        if sums is None:
            return None
        kind = "elo" if self.k is not None else "printed"
        return kind if sums.startswith(f"{kind} ") else None

    def _kept(self, kind: str) -> list[str] | None:
        if self._kind_kept() != kind:
            return None
        return str(self.__dict__["kept_sums"]).split(" ")[1:]


def rating_lines(event: Event) -> dict[int, RatingLine]:
    """Each rated entrant's line, by player id."""
    return {line[0]: RatingLine(*line[1:]) for line in standings_store.event_lines(event.pk)}


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
