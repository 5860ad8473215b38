"""The sums the club pages write out, chosen so that they add up from the printed numbers.

Pure Python: no Django. A parent who recomputes a printed sum with a calculator must get
the printed answer, so every printed operand is chosen here, as an exact Decimal, and the
printed result is computed from the printed operands, never from the stored full-precision
values. members.pages.tables only swaps in the language's decimal mark.

Two rules hold for every event (tests/members/pages/test_explain.py and the page tests check both):

1. K x (score - expected), computed from the printed operands and rounded to the printed
   precision of the change, is the printed change (HSB: 20 x (score - games x p) + bonus,
   rounded to a whole number, is the printed change, and p is 0.5 + (printed rating -
   printed opponents' average) / 600, rounded to its printed decimals).
2. Printed rating before + printed change = printed rating after, exactly.

Ratings and changes are printed with one decimal (SPEC §2) and the expected score with
four. The two rules cannot always both hold at that precision: before, after and the change
are each rounded on their own, so about one event in four has, say, 1400.04 + 0.04 =
1400.08, printed 1400.0 + 0.0 = 1400.1. For such an event we print more decimals (of the
three ratings and, if that is what breaks rule 1, of the expected score) until both rules
hold; the next event's "before" is the same stored rating, so it still reads the same at
any precision. We never print a rounded "after" that is not the rating's own rounding: the
page's chart and the next event show that rating too.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import ROUND_FLOOR, ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import NamedTuple

from ladder.policies.hsb import FULL_SCALE, POINTS_PER_EXCESS, expected_fraction

RATING_DIGITS = 1  # SPEC §2: a per-event breakdown shows one decimal
EXPECTED_DIGITS = 4  # the expected score inside a formula (tables may keep two)
P_DIGITS = 4  # HSB's expected share p
# Beyond this many decimals a stored float says nothing more; see _last_resort below.
MAX_RATING_DIGITS = 8
MAX_P_DIGITS = 12
MIN_BONUS, MAX_BONUS = 0, 100  # the bonuses searched when the stored change disagrees
_HALF = Decimal("0.5")


def to_decimal(value: float | int | Fraction) -> Decimal:
    """A stored number as the decimal a reader would write down: 1400.05, not 1400.0499….

    Floats go through their shortest round-tripping text (repr), the number Python and
    the exports print; fractions are divided out to 40 significant digits.
    """
    if isinstance(value, Fraction):
        with localcontext() as context:
            context.prec = 40
            return Decimal(value.numerator) / Decimal(value.denominator)
    return Decimal(repr(float(value))) if isinstance(value, float) else Decimal(value)


def rounded(value: Decimal, digits: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """Rounded to `digits` decimals; halves away from zero, as a calculator and school do."""
    return value.quantize(_quantum(digits), rounding=rounding)


@functools.lru_cache(maxsize=64)
def _quantum(digits: int) -> Decimal:
    # 10^-digits, made once: an event page rounds some thousand numbers.
    return Decimal(1).scaleb(-digits)


def plain(value: Decimal) -> Decimal:
    """Without trailing zeros and never in exponent form: 40.0 -> 40, 4.50 -> 4.5."""
    normal = value.normalize()
    return normal.quantize(Decimal(1)) if normal == normal.to_integral() else normal


def is_half(value: Decimal, digits: int) -> bool:
    """Whether `value` lies exactly halfway between two numbers of `digits` decimals.

    Such a printed result would round one way on one calculator and the other way on
    another (half up, half even), so rule 1 would depend on the reader's habit.
    """
    scaled = value.scaleb(digits)
    return abs(scaled - scaled.to_integral_value(rounding=ROUND_FLOOR)) == _HALF


def reads_as_whole(shown: Decimal, true: Decimal) -> bool:
    """Whether a rating printed as `shown` rounds to the whole number the ladder, the
    player's header and the chart print for it (the true rating, rounded half up).

    2132.46 printed with one decimal is 2132.5, which a reader rounds to 2133 while the
    ladder says 2132: such a rating is printed with more decimals (2132.46), so that
    no page rounds a rounded number.
    """
    return math.floor(shown + _HALF) == math.floor(true + _HALF)


class EloSum(NamedTuple):
    """Change = K x (score - expected), and before + change = after, as printed. A tuple: an
    event page makes one a rated line, and a frozen dataclass took twice as long to build."""

    k: Decimal
    score: Decimal
    expected: Decimal
    change: Decimal
    before: Decimal
    after: Decimal


@functools.lru_cache(maxsize=256)
def _plain_number(value: float) -> Decimal:
    """plain(to_decimal(value)) of a K or a score: a few values (20, 40; 0 to 9 by halves)
    repeat over every line of an event, so each is worked out once."""
    return plain(to_decimal(value))


def elo_sum(*, pre: float, k: float, actual: float, expected: float, post: float) -> EloSum:
    """The printed numbers of a club-ladder event (see the module's docstring)."""
    k_printed, score = _plain_number(k), _plain_number(actual)
    true_expected, true_pre, true_post = to_decimal(expected), to_decimal(pre), to_decimal(post)
    for digits in range(RATING_DIGITS, MAX_RATING_DIGITS + 1):
        before, after = rounded(true_pre, digits), rounded(true_post, digits)
        # Neither depends on the expected score's decimals: checked once per precision.
        if not (reads_as_whole(before, true_pre) and reads_as_whole(after, true_post)):
            continue
        # K is at most 100, so each decimal of the expected score more shrinks K x its
        # rounding error tenfold; five more than the change's decimals make it negligible.
        for expected_digits in range(EXPECTED_DIGITS, digits + EXPECTED_DIGITS + 2):
            shown_expected = rounded(true_expected, expected_digits)
            exact = k_printed * (score - shown_expected)
            change = rounded(exact, digits)
            if before + change == after and not is_half(exact, digits):
                return EloSum(k_printed, score, shown_expected, change, before, after)
    return _last_resort(k_printed, score, true_expected, true_pre)


def _last_resort(k: Decimal, score: Decimal, expected: Decimal, pre: Decimal) -> EloSum:
    """Eight decimals and still no agreement: the stored after is pre + change in binary
    floating point, a hair off the decimal sum. Print after as before + change, which is
    the stored rating to within 10^-8, so that both rules still hold on the page."""
    digits = MAX_RATING_DIGITS
    shown_expected = rounded(expected, digits + EXPECTED_DIGITS + 1)
    before = rounded(pre, digits)
    change = rounded(k * (score - shown_expected), digits)
    return EloSum(k, score, shown_expected, change, before, before + change)


@dataclass(frozen=True)
class HsbSum:
    """Change = 20 x (score - games x p) + bonus, rounded to a whole number, as printed."""

    factor: int
    score: Decimal
    games: int
    p: Decimal
    bonus: int
    exact: Decimal  # the formula's value from the printed operands, before rounding
    change: int
    before: Decimal
    after: Decimal
    opponents_average: Decimal | None  # None when the opponents' ratings are not known
    # p is the share from the printed rating and average cut off, not rounded, at its last
    # digit (the page marks it "…"): see hsb_sum for the rare event that needs it.
    p_cut: bool = False

    @property
    def was_rounded(self) -> bool:
        return self.exact != self.change


def half_up(value: Fraction | Decimal) -> int:
    """HSB's rounding (ladder.policies.hsb.round_half_up): halves toward +infinity."""
    if isinstance(value, Fraction):
        return math.floor(value + Fraction(1, 2))
    return math.floor(value + Decimal("0.5"))


def hsb_sum(
    *,
    pre: float,
    actual: float,
    games: int,
    expected: float,
    change: float,
    post: float,
    opponent_ratings: list[float],
    bonus: int,
) -> HsbSum | None:
    """The printed numbers of an HSB event; None if the stored numbers do not fit the rule.

    `opponent_ratings` are the pre-event ratings of the opponents in the counted games;
    `bonus` is the club's setting. A stored change that the setting does not explain (the
    setting changed and the replay has not run yet) is explained with the bonus that made
    it, if one does.

    As with elo_sum, every printed number is worked out from the printed numbers before
    it: p is 0.5 + (printed rating − printed average) / 600 rounded (never the exact p of
    the replay rounded, which is 0.0001 off that in about one event in thirty where the
    rating or the average has more decimals than the page prints), and the sum is worked
    out from that p. Where p's first four decimals tip the sum to the wrong whole number,
    p, the average and then the ratings get more decimals, as in elo_sum.
    """
    if games <= 0:
        return None
    score = to_decimal(actual)
    average: Fraction | None = None
    if len(opponent_ratings) == games:
        average = sum((Fraction(r) for r in opponent_ratings), Fraction(0)) / games
        p = expected_fraction(pre, average)
    else:
        p = Fraction(expected) / games
    shown_change = int(change)
    without_bonus = POINTS_PER_EXCESS * (Fraction(actual) - games * p)
    bonuses = [bonus, *range(MIN_BONUS, MAX_BONUS + 1)]
    used: int | None = next(
        (b for b in bonuses if half_up(without_bonus + b) == shown_change), None
    )
    if used is None or shown_change != change:
        return None
    # A printed halfway value may stand only where the true value is halfway too: the rule
    # (halves up) then decides, and the page says how it rounds.
    tie_is_true = (without_bonus + used).denominator == 2

    def exact_for(shown_p: Decimal) -> Decimal:
        return POINTS_PER_EXCESS * (score - games * shown_p) + used

    def fits(shown_p: Decimal) -> bool:
        value = exact_for(shown_p)
        return half_up(value) == shown_change and (tie_is_true or not is_half(value, 0))

    def made(
        before: Decimal, after: Decimal, p: Decimal, average: Decimal | None, cut: bool = False
    ) -> HsbSum:
        return HsbSum(
            factor=POINTS_PER_EXCESS,
            score=plain(score),
            games=games,
            p=p,
            bonus=used,
            exact=plain(exact_for(p)),
            change=shown_change,
            before=before,
            after=after,
            opponents_average=average,
            p_cut=cut,
        )

    true_pre, true_post = to_decimal(pre), to_decimal(post)
    if average is None:
        # No average printed: p is the stored expected share, rounded like any number.
        before, after = next(_rating_choices(true_pre, true_post, Decimal(shown_change)))
        true_p = to_decimal(p)
        for digits in range(P_DIGITS, MAX_P_DIGITS + 1):
            if fits(rounded(true_p, digits)):
                return made(before, after, rounded(true_p, digits), None)
        shown_p = rounded(true_p, P_DIGITS, ROUND_FLOOR)
        return made(before, after, shown_p, None, cut=True) if fits(shown_p) else None
    true_average = to_decimal(average)
    for rounding in (ROUND_HALF_UP, ROUND_FLOOR):
        for before, after in _rating_choices(true_pre, true_post, Decimal(shown_change)):
            for p_digits in range(P_DIGITS, MAX_P_DIGITS + 1):
                for average_digits in range(RATING_DIGITS, MAX_RATING_DIGITS + 1):
                    shown_average = rounded(true_average, average_digits)
                    shown_p = share(before, shown_average, p_digits, rounding)
                    if fits(shown_p):
                        cut = rounding == ROUND_FLOOR
                        return made(before, after, shown_p, shown_average, cut)
    # The second pass above: p repeats a digit of 5 or more (13/24 = 0.541666…) and the
    # change is an exact half, so every rounding of p tips the sum the wrong way (about one
    # event in 1,400 of whole ratings). p cut off is true in every digit it shows and keeps
    # the sum on its side; the page marks it "…". None is left only for ratings stored with
    # decimals whose binary floats tipped the replay's own exact half (some 3 events in
    # 100,000 of random decimal ratings): the page then prints the numbers without the sum.
    # A rating widened above (about 4 in 10,000 of those) reads one decimal more here than
    # in change_sum's tables, which do not know the opponents: both add up, and round alike.
    return None


def share(before: Decimal, average: Decimal, digits: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """HSB's expected share from the printed rating and the printed average, worked out
    exactly and then rounded half up (or cut, ROUND_FLOOR) to `digits` decimals: what a
    reader gets from 0.5 + (rating − average) / 600 with a calculator, kept between 0 and 1."""
    # share = (300 + rating − average) / 600 = num / (den x 600), in integers: an event page
    # works out some three hundred of these.
    num, den = (FULL_SCALE // 2 + before - average).as_integer_ratio()
    num = min(max(num, 0), den * FULL_SCALE)
    scaled, whole_den = num * 10**digits, den * FULL_SCALE
    if rounding == ROUND_FLOOR:
        whole = scaled // whole_den
    else:
        whole = (2 * scaled + whole_den) // (2 * whole_den)
    return Decimal(whole).scaleb(-digits)


def _rating_choices(
    pre: Decimal, post: Decimal, change: Decimal
) -> Iterator[tuple[Decimal, Decimal]]:
    """Before and after at each precision (fewest decimals first, at least one) at which
    before + change = after holds and each reads as its whole number; when none up to eight
    decimals does, after = before + change at eight (as in _last_resort). Lazy: nearly
    every event takes the first."""
    found = False
    for digits in range(RATING_DIGITS, MAX_RATING_DIGITS + 1):
        before, after = rounded(pre, digits), rounded(post, digits)
        if before + change == after and reads_as_whole(before, pre) and reads_as_whole(after, post):
            found = True
            yield before, after
    if not found:
        before = rounded(pre, MAX_RATING_DIGITS)
        yield before, before + change


def _ratings(pre: Decimal, post: Decimal, change: Decimal) -> tuple[Decimal, Decimal]:
    """Before and after with the fewest decimals (at least one) at which before + change
    = after holds; as in _last_resort, after = before + change past eight decimals."""
    return next(_rating_choices(pre, post, change))


def shown_rating(value: float) -> Decimal:
    """A rating printed alone, as a breakdown prints it: one decimal, or more where one
    decimal would round to another whole number than the ladder prints (reads_as_whole)."""
    true = to_decimal(value)
    for digits in range(RATING_DIGITS, MAX_RATING_DIGITS + 1):
        shown = rounded(true, digits)
        if reads_as_whole(shown, true):
            return shown
    return rounded(true, MAX_RATING_DIGITS)


class ChangeSum(NamedTuple):
    """Before + change = after of one player's event, as every table prints it."""

    before: Decimal
    change: Decimal
    after: Decimal


def change_sum(
    *, pre: float, post: float, change: float, k: float | None, actual: float, expected: float
) -> ChangeSum:
    """The printed before, change and after of one player's event.

    The event page, the director's preview and the player page's breakdown all print these,
    so one event reads the same everywhere and the three numbers add up on every page. With
    a K the change is the one of the written formula (elo_sum); without one (HSB) a whole
    change is printed whole, as HSB's formula writes it, and any other with one decimal.
    """
    if k is not None:
        s = elo_sum(pre=pre, k=k, actual=actual, expected=expected, post=post)
        return ChangeSum(s.before, s.change, s.after)
    true_change = to_decimal(change)
    if true_change == true_change.to_integral_value():
        shown = true_change.quantize(Decimal(1))
    else:
        shown = rounded(true_change, RATING_DIGITS)
    before, after = _ratings(to_decimal(pre), to_decimal(post), shown)
    return ChangeSum(before, shown, after)


def column_for_total(values: list[float], total: Decimal) -> list[Decimal]:
    """Each game's expected score, printed so that the column sums to the printed `total`.

    Rounding each value on its own can leave the column a few ten-thousandths off the
    total the sentence above it uses, and a parent adding the column up would find a sum
    that does not add. So every value is cut to the total's decimals (at least four) and
    the units still missing go to the values that lost most in the cut (largest
    remainders): each printed value is still its true value rounded up or down in its
    last digit. Where the true values do not sum to the total within that slack (a stored
    total from other settings), each is simply rounded.
    """
    if not values:
        return []
    exponent = total.as_tuple().exponent
    assert isinstance(exponent, int)  # a finite number
    digits = max(EXPECTED_DIGITS, -exponent)
    unit = Decimal(1).scaleb(-digits)
    true = [to_decimal(v) for v in values]
    cut = [rounded(v, digits, ROUND_FLOOR) for v in true]
    missing = (total - sum(cut, Decimal(0))) / unit
    if missing != missing.to_integral_value() or not 0 <= missing <= len(values):
        return [rounded(v, digits) for v in true]
    by_remainder = sorted(range(len(values)), key=lambda i: (cut[i] - true[i], i))
    for i in by_remainder[: int(missing)]:
        cut[i] += unit
    return cut
