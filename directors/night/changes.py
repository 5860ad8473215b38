"""The director's own pairing tools for a club night: the never-pair list, the rules handed
to the pairing engine (directors/night/pairing/), and a change made by hand to the current round
before its first result (two players swapped between boards, or a board's colours).

A hand change is refused when it breaks an absolute pairing rule (a rematch, a second
pairing-allocated bye, three of one colour in a row or a colour difference over two) or
seats a never-pair couple together, unless the director confirms it; every one is marked on
its boards ("changed by the director"), in the audit log and in the TRF export. A board
changed back to what the engine paired (clubs.models.Round.engine_boards) loses its mark.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Board, Club, Entry, Event, FirstColour, Game, NeverPair, Player, User
from clubs.models.night import Round
from clubs.results import PAIRING_BYES, Result
from directors.edits import PublishingError
from directors.night import pairing
from directors.night.evening import lock_night
from ladder.changes import OnPages, club_changed

# Results played over the board: only these make two players "have met" (C.04.1.b) and
# give colours, as directors/night/pairing/swiss.py reads the history.
_PLAYED = frozenset(
    {
        Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN,
        Result.UNRATED_WHITE_WIN, Result.UNRATED_DRAW, Result.UNRATED_BLACK_WIN,
    }
)  # fmt: skip


class NeedsConfirming(PublishingError):
    """The change breaks an absolute pairing rule: made only if the director confirms."""


# --- Never pair ------------------------------------------------------------------------------


def _ordered(first: Player, second: Player) -> tuple[Player, Player]:
    return (first, second) if first.pk < second.pk else (second, first)


def set_never_pair(
    club: Club,
    first: Player,
    second: Player,
    user: User | None,
    *,
    event: Event | None = None,
    remove: bool = False,
) -> bool:
    """Add (or `remove`) a pair the pairing keeps apart: the club's, or one evening's own.
    Returns whether anything changed (adding a pair twice, or removing one not listed, does
    nothing)."""
    if first.pk == second.pk:
        raise PublishingError(_("Choose two different players."))
    if any(p.club_id != club.pk or p.merged_into_id is not None for p in (first, second)):
        raise PublishingError(_("Every player must be on this club's roster."))
    low, high = _ordered(first, second)
    with transaction.atomic():
        if event is not None:
            lock_night(event.pk)
        pairs = NeverPair.objects.filter(club=club, event=event, first=low, second=high)
        if remove:
            changed = bool(pairs.delete()[0])
        elif pairs.exists():
            changed = False
        else:
            NeverPair.objects.create(club=club, event=event, first=low, second=high)
            changed = True
        if changed:
            details = {
                "first_id": low.pk, "first": low.name, "second_id": high.pk,
                "second": high.name, **({"event_id": event.pk} if event is not None else {}),
            }  # fmt: skip
            # Literal actions, so the one list of actions can be checked against the code.
            if remove:
                audit.record(club, user, "never_pair.removed", **details)
            else:
                audit.record(club, user, "never_pair.added", **details)
    return changed


def never_pairs(club: Club, event: Event | None = None) -> list[NeverPair]:
    """The club's pairs (and, with `event`, that evening's own), by name."""
    where = Q(event__isnull=True) if event is None else Q(event__isnull=True) | Q(event=event)
    return list(
        NeverPair.objects.filter(where, club=club)
        .select_related("first", "second")
        .order_by("first__name", "second__name")
    )


# --- What the engine is told -----------------------------------------------------------------


def night_pairing_rules(
    event: Event, entries: list[Entry], number: int, absent: set[int]
) -> pairing.DirectorRules:
    """The director's rules for pairing round `number` (entries in seed order)."""
    entry_of = {entry.player_id: entry.pk for entry in entries if entry.player_id is not None}
    kept_apart = frozenset(
        (entry_of[first], entry_of[second])
        for first, second in NeverPair.objects.filter(
            Q(event__isnull=True) | Q(event=event), club=event.club_id
        ).values_list("first_id", "second_id")
        if first in entry_of and second in entry_of
    )
    group: frozenset[int] = frozenset()
    if event.accelerated:
        group = frozenset(_baku_group(event, entries, number, absent))
    return pairing.DirectorRules(
        never_pair=kept_apart,
        white_first=event.first_colour != FirstColour.BLACK,
        accelerated=group,
    )


def _baku_group(event: Event, entries: list[Entry], number: int, absent: set[int]) -> list[int]:
    """Group A of the Baku acceleration: drawn from the players paired in round 1 and kept
    for the whole event (a late entry is never in it, C.04.5.1 "Late entries")."""
    if number == 1:
        listed = [entry.pk for entry in entries if entry.pk not in absent]
    else:
        round_one = event.boards.filter(round=1)
        first_round = set(round_one.values_list("white_id", flat=True))
        first_round |= set(round_one.exclude(black=None).values_list("black_id", flat=True))
        listed = [entry.pk for entry in entries if entry.pk in first_round]
    return listed[: pairing.baku_group_size(len(listed))]


def first_colour_note(event: Event) -> dict[str, object]:
    """What the start of the evening says about the first colour (drawn by lot or chosen)."""
    return {"white": event.first_colour != FirstColour.BLACK, "by_lot": event.first_colour_by_lot}


# --- Changes by hand -------------------------------------------------------------------------


def swap_players(
    event_id: int,
    first: int,
    second: int,
    user: User | None,
    *,
    confirmed: bool = False,
    pairing: int | None = None,
) -> None:
    """Swap two entrants of the current round between their boards (or one with the
    pairing-allocated bye), before the round's first result. With `pairing` (the round's
    pairing version the screen showed) a change sent twice, or from a tab that shows an
    older pairing, is refused instead of undoing the first or moving other boards."""
    with transaction.atomic():
        event = lock_night(event_id)
        number, boards = _current_round(event, pairing)
        at = {b.white_id: (b, "white_id") for b in boards}
        at |= {b.black_id: (b, "black_id") for b in boards if b.black_id is not None}
        if first not in at or second not in at or first == second:
            raise PublishingError(_("Choose two players of this round."))
        (board_a, side_a), (board_b, side_b) = at[first], at[second]
        if board_a.pk == board_b.pk:
            raise PublishingError(
                _("They play each other: exchange the colours of their board instead.")
            )
        setattr(board_a, side_a, second)
        setattr(board_b, side_b, first)
        if not confirmed:
            _refuse_never_pair(event, [board_a, board_b])
            _refuse_broken_rules(event, number, [board_a, board_b])
        engine = _engine_boards(event, number)
        # The unique board numbers stay; a bye board's game follows its new holder.
        for board in (board_a, board_b):
            board.changed_by_director = _differs(board, engine)
            board.save(update_fields=["white", "black", "changed_by_director"])
            if board.is_bye and board.game_id is not None:
                Game.objects.filter(pk=board.game_id).update(white_id=board.white_id)
        _changed(event, number, user, boards=[board_a.number, board_b.number], how="swap")


def swap_colours(
    event_id: int,
    board_number: int,
    user: User | None,
    *,
    confirmed: bool = False,
    pairing: int | None = None,
) -> None:
    """Exchange the colours of one board of the current round, before its first result;
    `pairing` as for swap_players."""
    with transaction.atomic():
        event = lock_night(event_id)
        number, boards = _current_round(event, pairing)
        board = next((b for b in boards if b.number == board_number and not b.is_bye), None)
        if board is None:
            raise PublishingError(_("There is no such board in this round."))
        assert board.black_id is not None  # not a bye
        board.white_id, board.black_id = board.black_id, board.white_id
        if not confirmed:
            _refuse_broken_rules(event, number, [board])
        board.changed_by_director = _differs(board, _engine_boards(event, number))
        board.save(update_fields=["white", "black", "changed_by_director"])
        _changed(event, number, user, boards=[board.number], how="colours")


def _current_round(event: Event, pairing: int | None = None) -> tuple[int, list[Board]]:
    number = event.paired_rounds()
    if number < 1:
        raise PublishingError(_("No round is paired yet."))
    if pairing is not None and pairing != Round.pairing_of(event.pk, number):
        raise PublishingError(
            _(
                "The pairing of round %(round)d changed since your screen showed it (another "
                "tab, or the same change sent twice), so nothing was changed: here it is now."
            )
            % {"round": number}
        )
    boards = list(event.boards.filter(round=number).order_by("number"))
    if any(b.game_id is not None for b in boards if not b.is_bye):
        raise PublishingError(
            _("Round %(round)d has results: a board is changed by hand only before the first.")
            % {"round": number}
        )
    return number, boards


def _engine_boards(event: Event, number: int) -> dict[str, list[int | None]] | None:
    """The round's boards as the engine paired them; None for a round paired before they
    were kept (its marks then stay)."""
    found = Round.objects.filter(event=event, number=number).values_list("engine_boards")
    kept = next((boards for (boards,) in found), None)
    return kept or None


def _differs(board: Board, engine: dict[str, list[int | None]] | None) -> bool:
    """Whether the board is no longer as the engine paired it."""
    if engine is None:
        return True
    return engine.get(str(board.number)) != [board.white_id, board.black_id]


def _refuse_never_pair(event: Event, boards: list[Board]) -> None:
    """A board that seats a couple of the never-pair list (the club's or the evening's)."""
    seated = {
        frozenset((board.white_id, board.black_id)): board
        for board in boards
        if board.black_id is not None
    }
    player_of = dict(
        event.entries.filter(pk__in=[e for pair in seated for e in pair]).values_list(
            "pk", "player_id"
        )
    )
    kept_apart = {
        frozenset(pair)
        for pair in NeverPair.objects.filter(
            Q(event__isnull=True) | Q(event=event), club=event.club_id
        ).values_list("first_id", "second_id")
    }
    names = dict(event.entries.values_list("pk", "typed_name"))
    for pair, board in seated.items():
        players = frozenset(player_of.get(entry) for entry in pair)
        if None not in players and players in kept_apart:
            assert board.black_id is not None
            raise NeedsConfirming(
                _("%(white)s and %(black)s are on the never-pair list.")
                % {"white": names[board.white_id], "black": names[board.black_id]}
            )


def _refuse_broken_rules(event: Event, number: int, boards: list[Board]) -> None:
    games = list(event.games.filter(round__lt=number).values_list("white_id", "black_id", "result"))
    allocated_before = set(
        event.boards.filter(round__lt=number, black__isnull=True).values_list("white_id", flat=True)
    )
    allocated_before |= {w for w, b, r in games if b is None and r in PAIRING_BYES}
    # A forfeit win rules out the bye as one already had does (C.04.1.d).
    allocated_before |= {w for w, b, r in games if r == Result.WHITE_FORFEIT_WIN}
    allocated_before |= {b for w, b, r in games if r == Result.BLACK_FORFEIT_WIN and b}
    met = {frozenset((w, b)) for w, b, r in games if b is not None and r in _PLAYED}
    names = dict(event.entries.values_list("pk", "typed_name"))
    for board in boards:
        if board.black_id is None:
            if board.white_id in allocated_before:
                raise NeedsConfirming(
                    _("%(name)s already had a pairing-allocated bye or a forfeit win.")
                    % {"name": names[board.white_id]}
                )
        elif frozenset((board.white_id, board.black_id)) in met:
            raise NeedsConfirming(
                _("%(white)s and %(black)s have already played each other.")
                % {"white": names[board.white_id], "black": names[board.black_id]}
            )
    colours = _colours(event, number)
    for board in boards:
        if board.black_id is None:
            continue
        sides: tuple[tuple[int, bool], ...] = ((board.white_id, True), (board.black_id, False))
        for pid, white in sides:
            after = [*colours.get(pid, []), white]
            if abs(sum(1 if c else -1 for c in after)) > 2 or (
                len(after) >= 3 and len(set(after[-3:])) == 1
            ):
                raise NeedsConfirming(
                    _("%(name)s would break the colour rules (three in a row or two too many).")
                    % {"name": names[pid]}
                )


def _colours(event: Event, number: int) -> dict[int, list[bool]]:
    """Each entrant's colours in games played over the board before round `number`."""
    found: dict[int, list[bool]] = {}
    for white, black, result in (
        event.games.filter(round__lt=number, black__isnull=False)
        .order_by("round")
        .values_list("white_id", "black_id", "result")
    ):
        if result in _PLAYED:
            found.setdefault(white, []).append(True)
            found.setdefault(black, []).append(False)
    return found


def _changed(event: Event, number: int, user: User | None, *, boards: list[int], how: str) -> None:
    Round.bump_pairing(event.pk, number)
    audit.record(
        event.club_id, user, "board.changed", event_id=event.pk, round=number,
        boards=boards, how=how,
    )  # fmt: skip
    club_changed(event.club_id, OnPages())


def evening_tools(event: Event, paired: int, closed: bool) -> dict[str, object]:
    """What the evening page shows of the director's tools: the first colour, the
    never-pair couples (the club's and the evening's own), and whether the current round
    may still be changed by hand."""
    entrants = list(
        event.entries.filter(player__isnull=False).select_related("player").order_by("player__name")
    )
    boards = event.boards.filter(round=paired)
    return {
        "first_colour": first_colour_note(event),
        "never_pairs": never_pairs(event.club, event),
        "pairable_players": [entry.player for entry in entrants],
        "can_change_by_hand": not closed
        and paired > 0
        and not boards.filter(black__isnull=False, game__isnull=False).exists(),
    }
