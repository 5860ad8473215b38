"""Results reported at the board (issue 36): each board of the round being played has a short
code (clubs/board_codes.py), printed with a QR code on its result slip and on the pairing sheet.
A player opens it on any phone, says which side they are and the result; when the other side
says the same (directors/night/agreement.py), the result is stored exactly as the director's tap
stores it (directors.night.rounds.enter_result). Two reports that disagree store nothing and
show as disputed on the director's results screen, where a tap settles any board.

A code is bound to its board, the round's pairing version and the pair's entry ids: a
re-pairing or a hand change leaves it telling its holder that the slip is old, and it can
never store a result for another pair. Expiry (the round closed) is the access helper's
(clubs.access.board_code_for_visitor); what a live code may still do is checked here again,
under the evening's lock.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs import audit
from clubs.board_codes import grouped, new_code, shown_prefix
from clubs.labels.results import RESULT_LABELS
from clubs.models import Board, BoardCode, BoardReport, Entry, Event, Round, User
from clubs.results import Result
from directors.edits import PublishingError
from directors.night import rounds
from directors.night.agreement import BoardState, Decision, Kind, State, board_state, decide
from directors.night.evening import lock_night
from directors.night.pairs import Shown, pair_text
from ladder.roster.rosters import load_roster

# What players may report: a game played over the board. A forfeit is the director's call.
REPORTED_RESULTS: tuple[Result, ...] = rounds.OVER_THE_BOARD
SIDES = (BoardReport.Side.WHITE, BoardReport.Side.BLACK)


class ReportRefused(Exception):
    """A report that stores nothing; the message says why, for the player at the board."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


def takes_reports(event: Event, round_number: int) -> bool:
    """Whether the round's boards have codes: the evening's last paired round, while it is
    open and reporting at the board is on."""
    return (
        event.reports_at_board
        and event.deleted_at is None
        and event.status != Event.Status.PUBLISHED
        and round_number == event.paired_rounds()
    )


def round_codes(event: Event, round_number: int) -> dict[int, BoardCode]:
    """Each board's code for the round's current pairing, by board number, made the first
    time a sheet or the slips are shown; none for a round that takes no reports."""
    if not takes_reports(event, round_number):
        return {}
    pairing = Round.pairing_of(event.pk, round_number)
    boards = [b for b in event.round_boards(round_number) if not b.is_bye]
    for _attempt in range(3):
        kept = {
            code.number: code
            for code in BoardCode.objects.filter(event=event, round=round_number, pairing=pairing)
        }
        missing = [board for board in boards if board.number not in kept]
        if not missing:
            break
        try:
            with transaction.atomic():
                BoardCode.objects.bulk_create(
                    [_new_code(event, board, pairing) for board in missing]
                )
        except IntegrityError:  # a second screen made them at the same moment: read theirs
            continue
    return {
        board.number: kept[board.number]
        for board in boards
        if board.number in kept and _same_pair(kept[board.number], board)
    }


def _new_code(event: Event, board: Board, pairing: int) -> BoardCode:
    return BoardCode(
        event=event,
        round=board.round,
        number=board.number,
        pairing=pairing,
        white_entry=board.white_id,
        black_entry=board.black_id or 0,
        code=new_code(),
    )


def _same_pair(code: BoardCode, board: Board | None) -> bool:
    return board is not None and (board.white_id, board.black_id) == (
        code.white_entry,
        code.black_entry,
    )


@dataclass(frozen=True)
class SlipCode:
    """A board's code as printed: grouped for typing, the short address, its QR code."""

    shown: str
    url: str
    qr: SafeString


def slip_codes(event: Event, round_number: int, base_url: str) -> dict[int, SlipCode]:
    """The printed codes of the round's boards, by board number; `base_url` is the site's
    address as the request reached it ("https://example.org")."""
    slips = {}
    for number, code in round_codes(event, round_number).items():
        url = base_url + reverse("board_report", args=[code.code])
        slips[number] = SlipCode(grouped(code.code), url, qr_svg(url))
    return slips


def qr_svg(url: str) -> SafeString:
    """The address as an inline SVG QR code (error correction M: a creased slip still scans)."""
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", xmldecl=False, svgns=True, scale=3, nl=False, svgclass="qr", title=url
    )
    # segno's own markup; it escapes the title (the address) itself.
    return mark_safe(out.getvalue().decode())


# --- The director's screen ------------------------------------------------------------------


def round_states(event: Event, round_number: int) -> dict[int, BoardState]:
    """Each board's reports beside its stored result, for the round's current pairing."""
    pairing = Round.pairing_of(event.pk, round_number)
    said: dict[int, dict[str, Result]] = {}
    reports = BoardReport.objects.filter(
        code__event=event, code__round=round_number, code__pairing=pairing
    ).values_list("code__number", "side", "result")
    for number, side, result in reports:
        said.setdefault(number, {})[side] = Result(result)
    states = {}
    for board in event.round_boards(round_number):
        if board.is_bye:
            continue
        sides = said.get(board.number, {})
        stored = board.game.result_code if board.game is not None else None
        states[board.number] = board_state(sides.get("white"), sides.get("black"), stored)
    return states


def side_label(side: str) -> str | Promise:
    return BoardReport.Side(side).label


def _short(result: Result | None) -> str:
    return "" if result is None else str(RESULT_LABELS[result].short)


def state_text(state: BoardState) -> str:
    """The board's reports in one line for the director (empty: nothing reported)."""
    if state.state is State.NONE:
        return ""
    if state.state is State.REPORTED:
        side, result = ("white", state.white) if state.white is not None else ("black", state.black)
        return _("Reported by %(side)s: %(result)s, waiting for the other player.") % {
            "side": str(side_label(side)).lower(),
            "result": _short(result),
        }
    if state.state is State.CONFIRMED:
        return _("Confirmed by both players: %(result)s.") % {"result": _short(state.white)}
    claims = {"white": _short(state.white) or "–", "black": _short(state.black) or "–"}
    if state.state is State.DISPUTED:
        return _("Disputed: white says %(white)s, black says %(black)s. Tap the result.") % claims
    return _("Settled by the director (white said %(white)s, black said %(black)s).") % claims


# --- The board's own page -------------------------------------------------------------------


@dataclass(frozen=True)
class BoardFacts:
    """What the board's page shows: the pair as the club's pages name them, and what is in."""

    event_name: str
    round: int
    number: int
    white: str
    black: str
    stale: bool  # the slip is from an old pairing
    stored: str  # the stored result's label; empty while none is in
    white_said: Result | None
    black_said: Result | None


def board_facts(code: BoardCode) -> BoardFacts:
    event = code.event
    board = event.boards.filter(round=code.round, number=code.number).select_related("game").first()
    stale = code.pairing != Round.pairing_of(event.pk, code.round) or not _same_pair(code, board)
    said = dict(code.reports.values_list("side", "result"))
    players = dict(
        Entry.objects.filter(pk__in=[code.white_entry, code.black_entry]).values_list(
            "pk", "player_id"
        )
    )
    # The names as the club's pages show them to a visitor (initials for a junior without
    # the family's consent, where the club asks for them); a newcomer is held until published.
    names = load_roster(event.club, False).names

    def name(entry: int) -> str:
        player = players.get(entry)
        shown = names.get(player) if player is not None else None
        return shown or _("newcomer")

    stored = board.game.result_code if board is not None and board.game is not None else None
    return BoardFacts(
        event_name=event.name,
        round=code.round,
        number=code.number,
        white=name(code.white_entry),
        black=name(code.black_entry),
        stale=stale,
        stored="" if stale or stored is None else _short(stored),
        white_said=Result(said["white"]) if "white" in said else None,
        black_said=Result(said["black"]) if "black" in said else None,
    )


def stale_message(round_number: int) -> str:
    return _(
        "This slip is from an old pairing of round %(round)d: ask the director for the new one."
    ) % {"round": round_number}


def report(code: BoardCode, side: str, result: Result) -> Decision:
    """One side's report through the board's code: stored as the board's result when the
    other side said the same, disputed when it said otherwise; ReportRefused stores nothing."""
    if side not in SIDES or result not in REPORTED_RESULTS:
        raise ReportRefused(_("Choose your colour and one of the three results."), 400)
    code_name = shown_prefix(code.code)
    with transaction.atomic():
        try:
            event = lock_night(code.event_id)
        except PublishingError as error:
            raise ReportRefused(error.message, 410) from error
        if not takes_reports(event, code.round):
            raise ReportRefused(_("This round is closed: ask the director."), 410)
        board = (
            event.boards.filter(round=code.round, number=code.number)
            .select_related("game", "white__player", "black__player")
            .first()
        )
        if code.pairing != Round.pairing_of(event.pk, code.round) or not _same_pair(code, board):
            raise ReportRefused(stale_message(code.round), 409)
        assert board is not None  # _same_pair
        if board.game is not None:
            raise ReportRefused(
                _("This board's result is already confirmed: %(result)s. Ask the director to "
                  "change it.") % {"result": _short(board.game.result_code)}
            )  # fmt: skip
        reports = {r.side: r for r in BoardReport.objects.select_for_update().filter(code=code)}
        earlier = reports.get(side)
        if earlier is not None and earlier.result == result:
            raise ReportRefused(
                _("You already reported %(result)s: it waits for the other player.")
                % {"result": _short(result)}
            )
        now = timezone.now()
        BoardReport.objects.update_or_create(
            code=code, side=side, defaults={"result": result.value, "reported_at": now}
        )
        said = {s: Result(r.result) for s, r in reports.items()} | {side: result}
        decision = decide(said.get("white"), said.get("black"))
        facts = {
            "event_id": event.pk, "round": code.round, "board": code.number, "code": code_name,
            "side": side, "result": result.value,
        }  # fmt: skip
        if earlier is not None:
            facts["old"] = earlier.result
        audit.record(event.club_id, None, "board_report.received", **facts)
        if decision.kind is Kind.CONFIRMED and decision.result is not None:
            rounds.enter_result(
                event.pk, code.round, code.number, decision.result, None,
                shown=Shown(code.pairing, code.white_entry, code.black_entry),
                reported_with=code_name,
            )  # fmt: skip
            audit.record(
                event.club_id, None, "board_report.confirmed", event_id=event.pk,
                round=code.round, board=code.number, code=code_name,
                result=decision.result.value, pair=pair_text(board),
            )  # fmt: skip
        elif decision.kind is Kind.DISPUTED:
            audit.record(
                event.club_id, None, "board_report.disputed", event_id=event.pk,
                round=code.round, board=code.number, code=code_name,
                white=said["white"].value, black=said["black"].value, pair=pair_text(board),
            )  # fmt: skip
    return decision


def switch_evening(event_id: int, on: bool | None, user: User | None) -> None:
    """Reporting at the board on or off for one evening (None: as the club says)."""
    with transaction.atomic():
        event = lock_night(event_id)
        if event.board_reports == on:
            return
        Event.objects.filter(pk=event.pk).update(board_reports=on)
        audit.record(
            event.club_id, user, "event.updated", event_id=event.pk, changed=["board_reports"]
        )
