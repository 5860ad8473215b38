"""A club night's rounds: pair, record results by board, standings, publish.

The pairing itself is directors/night/pairing/ (a library behind one small module); this file
turns the event's entrants and games into its input and its answer into boards. A board's
result is an ordinary Game, so standings, exports and publishing read a club night like
any uploaded event. The last round can be paired again until its first result; any paired
round's boards can be corrected, right up to publishing, and later rounds stay as paired
(directors/night/models.Round remembers they were paired on the old result); publishing
rates the event exactly as an upload, through directors/events/publishing.py and the one door.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.models import (
    ROUND_ROBINS,
    Board,
    Entry,
    Event,
    FirstColour,
    Game,
    PairingSystem,
    Round,
    User,
)
from clubs.results import Result
from directors.edits import PublishingError
from directors.events.drafts import listed
from directors.events.flow import publish_event
from directors.night import pairing
from directors.night.changes import night_pairing_rules
from directors.night.evening import checked_rounds, lock_night, rejoin_round
from directors.night.pairs import (
    Shown,
    pair_text,
    refuse_moved_result,
    refuse_stale,
    result_moved,
)
from ladder import tiebreaks
from ladder.changes import OnPages, club_changed
from ladder.roster.ladders import event_ratings
from ladder.standings import final_standings
from ladder.store import standings as standings_store
from members.pages.events.event_pages import club_order, event_tiebreaks

# What a director can record on a board: over the board, or a forfeit (behind a second
# step on the phone screen, so no ordinary tap records one by accident).
OVER_THE_BOARD: tuple[Result, ...] = (Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN)
FORFEITS: tuple[Result, ...] = (
    Result.WHITE_FORFEIT_WIN,
    Result.BLACK_FORFEIT_WIN,
    Result.DOUBLE_FORFEIT,
)
BOARD_RESULTS: tuple[Result, ...] = OVER_THE_BOARD + FORFEITS


class KeepingApartImpossible(PublishingError):
    """No legal pairing keeps every never-pair couple apart; one without that rule exists.
    The director may pair again with `keep_apart=False`."""


def pair_next_round(
    event_id: int, user: User | None, *, expected: int | None = None, keep_apart: bool = True
) -> int:
    """Pair the next round and return its number. `expected` (the round the director's
    page offered) makes a double tap pair one round, not two. `keep_apart=False` pairs
    without the never-pair list, once the director has been told it cannot be kept."""
    with transaction.atomic():
        event = lock_night(event_id)
        number = event.paired_rounds() + 1
        if expected is not None and expected != number:
            raise PublishingError(_("Round %(round)d is already paired.") % {"round": expected})
        _check_can_pair(event, number)
        entries = list(event.entries.select_related("player").order_by("start_rank", "id"))
        if event.pairing_system in ROUND_ROBINS:
            planned = _round_robin_round(event, entries, number)
        else:
            planned = _swiss_round(event, entries, number, keep_apart=keep_apart)
        _make_boards(event, number, planned)
        Round.bump_pairing(event.pk, number)
        # What the engine paired, so a hand change undone is seen as undone (changes.py).
        engine = {
            str(n): [w, b]
            for n, w, b in event.boards.filter(round=number).values_list(
                "number", "white_id", "black_id"
            )
        }
        Round.objects.filter(event=event, number=number).update(
            paired_before_correction=False, engine_boards=engine
        )
        audit.record(
            event.club_id, user, "round.paired", event_id=event.pk, round=number,
            **({} if keep_apart else {"never_pair": "ignored"}),
        )  # fmt: skip
        club_changed(event.club_id, OnPages())
    return number


def _check_can_pair(event: Event, number: int) -> None:
    entrants = event.entries.count()
    if entrants < 2:
        # A section chosen per player starts empty: its players are moved in first.
        raise PublishingError(
            _(
                "The section “%(section)s” has fewer than two players to pair: move players "
                "into it first (“Move to the section” under a player on another section's "
                "page)."
            )
            % {"section": event.section}
            if event.section
            else _("Fewer than two players are in this evening: add a late arrival first.")
        )
    planned = event.planned_rounds or 0
    if number == 1 and event.pairing_system == PairingSystem.SWISS:
        # A section may have started with fewer players than its rounds need.
        checked_rounds(event.pairing_system, planned, entrants)
    if number > planned:
        raise PublishingError(
            ngettext(
                "The only round is already paired.",
                "All %(rounds)d rounds are already paired.",
                planned,
            )
            % {"rounds": planned}
        )
    refuse_missing_results(event, number - 1)


def refuse_missing_results(event: Event, round_number: int) -> None:
    """Refuse, naming them, while boards of the round wait for a result."""
    missing = missing_results(event, round_number)
    if missing:
        raise PublishingError(
            ngettext(
                "Round %(round)d has a board without a result: %(boards)s.",
                "Round %(round)d has boards without a result: %(boards)s.",
                len(missing),
            )
            % {"round": round_number, "boards": listed([str(b) for b in missing])}
        )


def missing_results(event: Event, round_number: int) -> list[int]:
    """Board numbers of the round that still wait for a result."""
    return list(
        event.boards.filter(round=round_number, game__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _history(event: Event, before_round: int) -> list[pairing.PastGame]:
    allocated = set(
        event.boards.filter(round__lt=before_round, black__isnull=True).values_list(
            "game_id", flat=True
        )
    )
    return [
        pairing.PastGame(
            round=g.round,
            white=g.white_id,
            black=g.black_id,
            result=g.result_code,
            allocated=g.pk in allocated,
        )
        for g in event.games.filter(round__lt=before_round).order_by("round", "id")
    ]


def _swiss_round(
    event: Event, entries: list[Entry], number: int, *, keep_apart: bool = True
) -> pairing.RoundPairing:
    absent = {
        entry.pk
        for entry in entries
        if entry.withdrawn_from_round is not None and entry.withdrawn_from_round <= number
    }
    # A requested bye is already a game of this round (directors.night.evening.request_bye).
    absent |= set(
        event.games.filter(round=number, black__isnull=True).values_list("white_id", flat=True)
    )
    ratings = event_ratings(event)
    entrants = [
        pairing.Entrant(
            id=entry.pk,
            seed=seed,
            rating=round(ratings.get(entry.player_id) or 0) if entry.player_id else 0,
        )
        for seed, entry in enumerate(entries, start=1)
    ]
    history = _history(event, number)
    total = event.planned_rounds or number
    rules = night_pairing_rules(event, entries, number, absent)
    if not keep_apart:
        rules = dataclasses.replace(rules, never_pair=frozenset())
    try:
        return pairing.pair_swiss(entrants, history, number, total, absent, rules)
    except pairing.PairingImpossible as error:
        if rules.never_pair:
            without = dataclasses.replace(rules, never_pair=frozenset())
            try:
                pairing.pair_swiss(entrants, history, number, total, absent, without)
            except pairing.PairingImpossible:
                pass
            else:
                raise KeepingApartImpossible(
                    _(
                        "Round %(round)d cannot be paired keeping every never-pair couple "
                        "apart. You may pair it without that rule."
                    )
                    % {"round": number}
                ) from error
        raise PublishingError(
            _("Round %(round)d cannot be paired: %(reason)s")
            % {"round": number, "reason": str(error)}
        ) from error


def _round_robin_round(event: Event, entries: list[Entry], number: int) -> pairing.RoundPairing:
    table = pairing.round_robin(
        [entry.pk for entry in entries],
        double=event.pairing_system == PairingSystem.DOUBLE_ROUND_ROBIN,
    )
    planned = table[number - 1]
    if event.first_colour == FirstColour.BLACK:
        # Seed 1 starts with black: the whole table with colours turned round.
        turned = tuple((black, white) for white, black in planned.boards)
        return pairing.RoundPairing(boards=turned, bye=planned.bye)
    return planned


def _make_boards(event: Event, number: int, planned: pairing.RoundPairing) -> None:
    withdrawn = {
        entry.pk for entry in event.entries.filter(withdrawn_from_round__lte=number).only("pk")
    }
    requested = set(
        event.games.filter(round=number, black__isnull=True).values_list("white_id", flat=True)
    )
    boards = []
    for board_number, (white, black) in enumerate(planned.boards, start=1):
        board = Board(
            event=event, round=number, number=board_number, white_id=white, black_id=black
        )
        # A round robin's table is fixed: a board with an entrant who withdrew or asked
        # for a bye is a forfeit win for the one who came.
        gone = {white, black} & (withdrawn | requested)
        if gone:
            if gone == {white, black}:
                result = Result.DOUBLE_FORFEIT
            elif white in gone:
                result = Result.BLACK_FORFEIT_WIN
            else:
                result = Result.WHITE_FORFEIT_WIN
            board.game = _board_game(event, number, white, black, result)
        boards.append(board)
    if planned.bye is not None:
        bye_game = Game.objects.create(
            event=event, round=number, white_id=planned.bye, result=event.pairing_bye
        )
        boards.append(
            Board(event=event, round=number, number=len(boards) + 1, white_id=planned.bye,
                  game=bye_game)
        )  # fmt: skip
    Board.objects.bulk_create(boards)


def _board_game(event: Event, number: int, white: int, black: int | None, result: Result) -> Game:
    """A board's game; a requested bye of the same entrant in a round robin gives way."""
    Game.objects.filter(
        event=event, round=number, black__isnull=True, white_id__in=[white, black]
    ).delete()
    return Game.objects.create(
        event=event, round=number, white_id=white, black_id=black, result=result
    )


def changed_boards(event: Event, round_number: int) -> list[int]:
    """Board numbers of the round the director changed by hand (pairing it again loses them)."""
    return list(
        event.boards.filter(round=round_number, changed_by_director=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def unpair_round(
    event_id: int, round_number: int, user: User | None, *, pairing: int | None = None
) -> None:
    """Take back the last round's pairing while no result is in, to pair it again (after a
    late arrival, a withdrawal or a bye request). With `pairing` (the round's pairing
    version the director confirmed against), a round changed since is refused. A late
    entrant who joined after this round was paired may play it now."""
    with transaction.atomic():
        event = lock_night(event_id)
        if round_number != event.paired_rounds() or round_number < 1:
            raise PublishingError(_("Only the last paired round can be paired again."))
        if pairing is not None and pairing != Round.pairing_of(event.pk, round_number):
            raise PublishingError(
                _(
                    "The pairing of round %(round)d changed since your screen showed it, so "
                    "it was not taken back: look at it again."
                )
                % {"round": round_number}
            )
        boards = event.boards.filter(round=round_number)
        if boards.filter(black__isnull=False, game__isnull=False).exists():
            raise PublishingError(
                _("Round %(round)d has results: correct them board by board instead.")
                % {"round": round_number}
            )
        Game.objects.filter(pk__in=boards.filter(black__isnull=True).values("game_id")).delete()
        boards.delete()
        rejoin_round(event, round_number)
        Round.bump_pairing(event.pk, round_number)
        audit.record(event.club_id, user, "round.unpaired", event_id=event.pk, round=round_number)
        club_changed(event.club_id, OnPages())


@dataclass(frozen=True)
class BoardChange:
    """One board's result as recorded: what it was (None: no result yet) and the later
    rounds that were paired on the old result (they stay as paired)."""

    board: Board
    old: Result | None
    new: Result
    paired_on_old: tuple[int, ...]


def enter_result(
    event_id: int,
    round_number: int,
    board_number: int,
    result: Result,
    user: User | None,
    *,
    shown: Shown | None = None,
    based_on: str | None = None,
    reported_with: str = "",
) -> BoardChange:
    """Record or correct one board's result in any paired round, right up to publishing.
    Later rounds stay as paired; `shown` (what the director's screen showed) refuses a tap
    for a board that was paired again since, `based_on` (the result the screen showed,
    directors.night.pairs.NO_RESULT_YET for none) one for a board whose result changed since.
    A tap that finds the board already holding its result changes nothing. `reported_with`:
    the players confirmed it with their board code (what the audit log names of it,
    directors/night/board_reports.py)."""
    if result not in BOARD_RESULTS:
        raise PublishingError(_("Choose a result from the list."))
    with transaction.atomic():
        event = lock_night(event_id)
        if shown is not None:
            refuse_stale(event, round_number, board_number, shown)
        board = played_board(event, round_number, board_number)
        old = board.game.result_code if board.game is not None else None
        if based_on is not None:
            if result_moved(old.value if old is not None else "", based_on, result.value):
                refuse_moved_result(board, based_on)
            if old == result:
                return BoardChange(board, old, result, ())
        _record(event, board, result)
        last = event.paired_rounds()
        later = tuple(range(round_number + 1, last + 1)) if old not in (None, result) else ()
        if later:
            Round.objects.filter(event=event, number__in=later).update(
                paired_before_correction=True
            )
        audit.record(
            event.club_id, user, "board_result.entered", event_id=event.pk,
            round=round_number, board=board_number, result=result.value,
            pair=pair_text(board), old=old.value if old is not None else "",
            **({"code": reported_with} if reported_with else {}),
        )  # fmt: skip
        club_changed(event.club_id, OnPages())
    return BoardChange(board, old, result, later)


def enter_round_results(
    event_id: int,
    round_number: int,
    results: Sequence[Result],
    user: User | None,
    *,
    shown: Shown | None = None,
) -> None:
    """Every board of a round at once, in board order (the enter_results command)."""
    if any(result not in BOARD_RESULTS for result in results):
        raise PublishingError(_("Choose a result from the list."))
    with transaction.atomic():
        event = lock_night(event_id)
        if round_number != event.paired_rounds() or round_number < 1:
            raise PublishingError(_("Only the last paired round takes results."))
        if shown is not None:
            refuse_stale(event, round_number, None, shown)
        boards = [board for board in event.round_boards(round_number) if not board.is_bye]
        if len(results) != len(boards):
            raise PublishingError(
                _("Round %(round)d has %(boards)d boards; %(given)d results were given.")
                % {"round": round_number, "boards": len(boards), "given": len(results)}
            )
        changes = []
        for board, result in zip(boards, results, strict=True):
            old = board.game.result if board.game is not None else ""
            _record(event, board, result)
            change = f"{old} → {result.value}" if old and old != result.value else result.value
            changes.append(f"{pair_text(board)} {change}")
        audit.record(
            event.club_id, user, "board_result.entered", event_id=event.pk,
            round=round_number, board=None, result="; ".join(changes),
        )  # fmt: skip
        club_changed(event.club_id, OnPages())


def played_board(event: Event, round_number: int, board_number: int) -> Board:
    if not 1 <= round_number <= event.paired_rounds():
        raise PublishingError(_("Round %(round)d is not paired yet.") % {"round": round_number})
    board = (
        event.boards.filter(round=round_number, number=board_number, black__isnull=False)
        .select_related("game", "white__player", "black__player")
        .first()
    )
    if board is None:
        raise PublishingError(_("There is no such board in this round."))
    return board


def _record(event: Event, board: Board, result: Result) -> None:
    if board.game is not None:
        Game.objects.filter(pk=board.game.pk).update(result=result)
        board.game.result = result
        return
    board.game = _board_game(event, board.round, board.white_id, board.black_id, result)
    board.save(update_fields=["game"])


# --- Standings and publishing ------------------------------------------------------------------


def standings(event: Event, after_round: int | None = None) -> list[tiebreaks.Values]:
    """Points and tie-breaks of any event, as its event page breaks them (the club's order,
    the rules of the event's date), after `after_round`; by default a club night's up to its
    last paired round (a requested bye of a round not paired yet is a game already), and an
    uploaded event's whole."""
    if after_round is None and event.pairing_system:
        after_round = event.paired_rounds()
    rows = [
        row
        for row in event.games.order_by("round", "id").values_list(
            "round", "white_id", "black_id", "result", "variant"
        )
        if after_round is None or row[0] <= after_round
    ]
    entries = standings_store.event_entries(event.pk)
    rules = event_tiebreaks(event)
    computed = rules.compute([entry for entry, *_rest in entries], rows)
    last_round = max((row[0] for row in rows), default=0)
    if after_round is not None and after_round < last_round:
        return computed  # standings after a round are the club's, as on the event page
    # The final ranking is the event page's own (its function: ranks in the file's order
    # where the page follows them), beside the values just computed.
    people = {entry: (player, "", start or 0) for entry, player, start, _rank in entries}
    file_ranks = {entry: rank for entry, _player, _start, rank in entries}
    ranked = final_standings(people, rows, rules, file_ranks).standings
    by_entry = {values.player: values for values in computed}
    for standing in ranked:
        by_entry[standing.entry_id].rank = standing.rank
    return [by_entry[standing.entry_id] for standing in ranked]


def club_tiebreak_order(event: Event) -> tuple[tiebreaks.Tiebreak, ...]:
    return tuple(club_order(event.club))


def publish_night(event_id: int, user: User | None, *, partial: bool = True) -> Event:
    """Rate the club night exactly as an uploaded event, once every paired board has a
    result. Its players all came from the roster, so no name needs confirming. Without
    `partial`, an evening with rounds still to pair is refused."""
    with transaction.atomic():
        if Event.objects.filter(pk=event_id, status=Event.Status.PUBLISHED).exists():
            raise PublishingError(_("This event is already published."))
        event = lock_night(event_id)
        last = event.paired_rounds()
        if not last:
            raise PublishingError(_("Pair and play a round before publishing."))
        planned = event.planned_rounds or 0
        if not partial and last < planned:
            raise PublishingError(
                _(
                    "Only %(paired)d of %(planned)d rounds are played: pair the rest, or "
                    "publish the rounds played so far on purpose."
                )
                % {"paired": last, "planned": planned}
            )
        for number in range(1, last + 1):
            refuse_missing_results(event, number)
        # Requested byes for rounds never paired are dropped: those rounds were not played.
        event.games.filter(round__gt=last).delete()
        version = Event.objects.values_list("edit_version", flat=True).get(pk=event_id)
        return publish_event(event_id, version, user)
