"""An event's rounds board by board: their own page under the event's (events/<id>/rounds/),
so that the event page's size follows its entrants, not entrants × rounds (issue 27).

An event of up to BOARDS_ON_ONE_PAGE games shows every round on the one page; a larger one
shows one round at a time (?round=N, the first by default), each reachable from the others'
and from the event page. Needs no standings: names and results only.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from clubs.labels.results import RESULT_LABELS
from clubs.models import Event
from clubs.results import Result
from ladder.event_rules import BOARDS_ON_ONE_PAGE
from ladder.page_texts import VARIANT_TEXT
from ladder.roster.rosters import Roster
from members.pages.events.event_pages import Standing, entrants, event_games


@dataclass(frozen=True)
class Board:
    number: int
    white: Standing
    black: Standing | None
    result: str


@dataclass(frozen=True)
class RoundsPage:
    event: Event
    rounds: list[tuple[int, list[Board]]]  # the rounds shown, in order
    round_numbers: list[int]  # every round of the event
    shown: int | None  # the one round shown, or None: every round
    fits_one_page: bool = True  # every round may be shown at once (BOARDS_ON_ONE_PAGE)


def rounds_page(
    event: Event, roster: Roster, unconfirmed: str, round_no: int | None = None
) -> RoundsPage:
    """The boards of round `round_no`; without one (or one the event has not), every round,
    or the first alone when every round would make more than BOARDS_ON_ONE_PAGE boards."""
    people = {
        entry: Standing(entry, player, name, start)
        for entry, (player, name, start, _file_rank) in entrants(event, roster, unconfirmed).items()
    }
    games = event_games(event)
    numbers = sorted({g[0] for g in games})
    if round_no not in numbers:
        round_no = None if len(games) <= BOARDS_ON_ONE_PAGE else numbers[0]
    labels = {result: str(label.text) for result, label in RESULT_LABELS.items()}
    rounds: dict[int, list[Board]] = defaultdict(list)
    for number, white_id, black_id, result_code, variant in games:
        if round_no is not None and number != round_no:
            continue
        shown = labels[Result(result_code)]
        if variant:
            shown = VARIANT_TEXT % {"result": shown, "variant": variant}
        black = people[black_id] if black_id else None
        rounds[number].append(Board(len(rounds[number]) + 1, people[white_id], black, shown))
    fits = len(games) <= BOARDS_ON_ONE_PAGE
    return RoundsPage(event, sorted(rounds.items()), numbers, round_no, fits)
