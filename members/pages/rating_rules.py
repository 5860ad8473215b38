"""The club page "How ratings are calculated", written from the club's own rating settings.

Each policy has a writer here that turns its settings into plain sentences and a worked
example with the club's numbers; the example's sums come from ladder.explain, like the
player page's, so they add up from the numbers they show. A policy without a writer gets
the list of what is never rated and its settings as they are stored.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs.models import Club, Ladder
from ladder.explain import elo_sum, hsb_sum, plain, to_decimal
from ladder.policies import get_policy
from ladder.policies.base import PlayerState
from ladder.policies.hsb import HsbSettings
from ladder.policies.ladder import LadderPolicy, LadderSettings, expected_score
from members.pages.tables import Formats


@dataclass(frozen=True)
class Section:
    heading: str
    paragraphs: list[str]  # plain text: the template escapes it


@dataclass(frozen=True)
class RulesPage:
    policy: str
    sections: list[Section]


def rules_page(club: Club, ladder: Ladder | None = None) -> RulesPage:
    """How `ladder` (the club's first by default) rates."""
    ladder = ladder or club.first_ladder()
    policy = get_policy(ladder.rating_policy)
    try:
        settings = policy.parse_settings(ladder.rating_settings)
    except ValueError:
        # The replay refuses such settings too and tells the directors; visitors see the
        # rules the ladder was last calculated with, which are the defaults' shape at least.
        settings = policy.default_settings()
    f = Formats()
    # Each policy parses into its own settings class, so the class picks the writer.
    if isinstance(settings, LadderSettings):
        sections = _ladder(settings, f)
    elif isinstance(settings, HsbSettings):
        sections = _hsb(settings, f)
    else:
        sections = _other_policy(policy.settings_to_dict(settings))
    return RulesPage(policy.name, [*sections, _never_rated(), _precision()])


def _number(value: float) -> str:
    """A setting as the director typed it: 1200, 32.5."""
    return Formats().exact(plain(to_decimal(value)))


def _ladder(settings: LadderSettings, f: Formats) -> list[Section]:
    s = settings
    values = {
        "start": _number(s.start_rating),
        "k_high": _number(s.k_high),
        "k_low": _number(s.k_low),
        "threshold": s.k_threshold,
        "provisional": s.provisional_below,
        "junior_max": _number(s.junior_k_max_rating),
    }
    start = [
        _("This club uses the club ladder rating.")
        + " "
        + _(
            "A new player starts at %(start)s, unless a director gives a different starting "
            "estimate."
        )
        % values
    ]
    if s.provisional_below:
        start.append(
            ngettext(
                "A player with fewer than %(provisional)s rated game is provisional: shown in "
                "grey and listed below the established players.",
                "A player with fewer than %(provisional)s rated games is provisional: shown in "
                "grey and listed below the established players.",
                s.provisional_below,
            )
            % values
        )
    change = [
        _(
            "For each game there is an expected score: 1 / (1 + 10^((opponent’s rating − your "
            "rating) / 400)). It is 0.5 against an equal rating, more against a lower rating "
            "and less against a higher one."
        ),
        _(
            "A win scores 1, a draw 0.5 and a loss 0. After the event, change = K × (score − "
            "expected), with the score and the expected score added up over the games that "
            "counted."
        ),
        ngettext(
            "K is %(k_high)s while a player has fewer than %(threshold)s rated game, and "
            "%(k_low)s after that.",
            "K is %(k_high)s while a player has fewer than %(threshold)s rated games, and "
            "%(k_low)s after that.",
            s.k_threshold,
        )
        % values,
    ]
    if s.junior_k_rule:
        change.append(
            _("Junior rule: juniors keep K %(k_high)s while their rating is under %(junior_max)s.")
            % values
        )
    change.append(
        _(
            "Every game of an event uses the ratings from before the event, so the order of "
            "the games does not matter."
        )
    )
    if s.provisional_below:
        change.append(
            _(
                "Protection rule: when a provisional player meets an established one, the game "
                "counts only for the provisional player. The established player’s rating does "
                "not move, and the game does not count towards their rated games."
            )
        )
    return [
        Section(_("Starting out"), start),
        Section(_("How a rating changes"), change),
        Section(_("An example with this club’s numbers"), _ladder_example(s, f)),
    ]


def _ladder_example(s: LadderSettings, f: Formats) -> list[str]:
    """SPEC §2's worked example, moved to this club's start rating and K values."""
    rating = s.start_rating + 200
    games = max(s.k_threshold, s.provisional_below, 1)
    k = LadderPolicy().k_factor(PlayerState(rating, games), s)
    opponents = [rating + 100, rating - 100, rating + 200, rating - 50]
    scores = [0.5, 1.0, 0.0, 1.0]
    expected = math.fsum(expected_score(rating, o) for o in opponents)
    actual = sum(scores)
    change = k * (actual - expected)
    sums = elo_sum(pre=rating, k=k, actual=actual, expected=expected, post=rating + change)
    values = {
        "rating": f.exact(sums.before),
        "games": games,
        "k": f.exact(sums.k),
        "opponents": ", ".join(_number(o) for o in opponents),
        "score": f.exact(sums.score),
        "expected": f.exact(sums.expected),
        "change": f.exact_signed(sums.change),
        "after": f.exact(sums.after),
        "plus": f.exact(abs(sums.change)),
        "sign": "+" if sums.change >= 0 else "−",
    }
    return [
        ngettext(
            "Ann has a rating of %(rating)s and %(games)s rated game, so her K is %(k)s. In one "
            "event she plays established opponents rated %(opponents)s: a draw, a win, a loss "
            "and a win, a score of %(score)s.",
            "Ann has a rating of %(rating)s and %(games)s rated games, so her K is %(k)s. In "
            "one event she plays established opponents rated %(opponents)s: a draw, a win, a "
            "loss and a win, a score of %(score)s.",
            games,
        )
        % values,
        _("Her expected score, added up over the four games, is %(expected)s.") % values,
        _("Change = K × (score − expected) = %(k)s × (%(score)s − %(expected)s) = %(change)s.")
        % values,
        _("Her new rating: %(rating)s %(sign)s %(plus)s = %(after)s.") % values,
    ]


def _hsb(settings: HsbSettings, f: Formats) -> list[Section]:
    values = {"start": _number(settings.start_rating), "bonus": settings.bonus}
    start = [
        _("This club uses the HSB junior rating.")
        + " "
        + _(
            "A new player starts at %(start)s, unless a director gives a different starting "
            "estimate."
        )
        % values
        + " "
        + _("Nobody is provisional, and there is no protection rule.")
    ]
    change = [
        _(
            "For each event: the average rating of your opponents (from before the event) gives "
            "your expected share p = 0.5 + (your rating − their average) / 600, at least 0 and "
            "at most 1. 300 points above the average means p = 1."
        ),
        _(
            "Change = 20 × (score − games × p) + bonus, rounded to a whole number (a half is "
            "rounded up: 12.5 becomes 13, −2.5 becomes −2)."
        )
        + " "
        + ngettext(
            "The bonus is %(bonus)s point for every event in which you played a rated game.",
            "The bonus is %(bonus)s points for every event in which you played a rated game.",
            settings.bonus,
        )
        % values,
        _(
            "A win scores 1, a draw 0.5 and a loss 0. A match of ten games against one opponent "
            "counts that opponent ten times in the average."
        ),
    ]
    return [
        Section(_("Starting out"), start),
        Section(_("How a rating changes"), change),
        Section(_("An example with this club’s numbers"), _hsb_example(settings, f)),
    ]


def _hsb_example(settings: HsbSettings, f: Formats) -> list[str]:
    """The seed's match example (1350 against 1200 over ten games, 9 points), moved to this
    club's start rating and bonus."""
    opponent = settings.start_rating
    rating = opponent + 150
    games, score = 10, 9.0
    # p = 0.5 + 150 / 600 = 0.75 exactly, whatever the start rating.
    change = math.floor(20 * (score - games * 0.75) + settings.bonus + 0.5)
    sums = hsb_sum(
        pre=rating,
        actual=score,
        games=games,
        expected=games * 0.75,
        change=float(change),
        post=rating + change,
        opponent_ratings=[opponent] * games,
        bonus=settings.bonus,
    )
    assert sums is not None  # every number here is exact
    values = {
        "rating": f.exact(sums.before),
        "opponent": f.exact(sums.opponents_average or Decimal(0)),
        "p": f.exact(sums.p),
        "score": f.exact(sums.score),
        "games": games,
        "factor": sums.factor,
        "bonus": sums.bonus,
        "change": f.exact_signed(Decimal(sums.change)),
        "after": f.exact(sums.after),
        "plus": abs(sums.change),
        "sign": "+" if sums.change >= 0 else "−",
    }
    return [
        _(
            "Tim has a rating of %(rating)s. In one event he plays ten games against an opponent "
            "rated %(opponent)s and scores %(score)s points."
        )
        % values,
        _("His expected share: p = 0.5 + (%(rating)s − %(opponent)s) / 600 = %(p)s.") % values,
        _(
            "Change = 20 × (score − games × p) + bonus = %(factor)s × (%(score)s − %(games)s × "
            "%(p)s) + %(bonus)s = %(change)s."
        )
        % values,
        _("His new rating: %(rating)s %(sign)s %(plus)s = %(after)s.") % values,
    ]


def _other_policy(stored: dict[str, object]) -> list[Section]:
    lines = [f"{key}: {value}" for key, value in sorted(stored.items())]
    return [Section(_("This club’s rating settings"), lines)]


def _never_rated() -> Section:
    return Section(
        _("What is never rated"),
        [
            _("Byes of every kind: a bye is not a game."),
            _("Forfeits, no-shows and games without a result."),
            _("Results that were entered as not rated."),
            _("Every game of a bughouse event, and of an event the director marked as not rated."),
            _("Games that were not standard chess (variants such as Chess960)."),
            _("These still score their points in the event’s standings."),
        ],
    )


def _precision() -> Section:
    return Section(
        _("The numbers on the pages"),
        [
            _(
                "Ratings are kept at full precision. The ladder shows whole numbers; a player’s "
                "events show one decimal, and more only where one decimal would make a written "
                "sum not add up."
            )
        ],
    )
