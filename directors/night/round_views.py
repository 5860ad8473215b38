"""A club night's rounds as the director sees them: the pairing sheet, results by board and
the standings after each round (the evening page itself is directors/night/views.py).

A result is one tap: each button is a tiny form of its own, so recording one needs no
JavaScript; forfeits sit behind a second step so that no ordinary tap records one.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from clubs.access import NOT_FOUND, AuthedRequest
from clubs.labels.results import RESULT_LABELS
from clubs.models import Board, Entry, Event, Round
from directors.edits import PublishingError
from directors.events.drafts import listed
from directors.night import board_reports, changes, rounds, taps
from directors.night.forms import BoardResultForm
from directors.night.views import entrant_name, is_closed, night_for_director
from ladder.page_texts import points_text
from ladder.roster.ladders import event_ratings
from members.pages.events.event_tables import tiebreak_head_cells, tiebreak_text
from members.pages.tables import Formats


def paired_round(event: Event, round_number: int) -> int:
    """The round asked for, which must be paired; any other is not found."""
    paired = event.paired_rounds()
    if not 1 <= round_number <= paired:
        raise Http404(NOT_FOUND)
    return paired


def _result_label(board: Board) -> str:
    if board.game is None:
        return ""
    return str(RESULT_LABELS[board.game.result_code].short)


@require_safe
def night_sheet(
    request: AuthedRequest, slug: str, event_id: int, round_number: int
) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    paired_round(event, round_number)
    before = {v.player: v.points for v in rounds.standings(event, round_number - 1)}
    boards = event.round_boards(round_number)
    requested = event.games.filter(
        round=round_number, black__isnull=True, board__isnull=True
    ).select_related("white__player")
    paired = event.paired_rounds()
    tools = changes.evening_tools(event, paired, is_closed(event))
    ratings = event_ratings(event)
    codes = board_reports.slip_codes(event, round_number, site_address(request))
    return render(
        request,
        "directors/night/sheet.html",
        {
            "club": event.club,
            "event": event,
            "round_number": round_number,
            "planned": event.planned_rounds or round_number,
            "boards": [
                {
                    "number": board.number,
                    "white": entrant_name(board.white),
                    "white_id": board.white_id,
                    "white_rating": _rating(board.white, ratings),
                    "white_points": points_text(before.get(board.white_id, 0.0)),
                    "black": entrant_name(board.black),
                    "black_id": board.black_id,
                    "black_rating": _rating(board.black, ratings),
                    "black_points": points_text(before.get(board.black_id or 0, 0.0)),
                    "result": _result_label(board),
                    "changed": board.changed_by_director,
                    "code": codes.get(board.number),
                }
                for board in boards
                if not board.is_bye
            ],
            "bye": next(
                (
                    {
                        "number": board.number,  # numbered last, as on the live page
                        "name": entrant_name(board.white),
                        "entry_id": board.white_id,
                        "rating": _rating(board.white, ratings),
                        "points": points_text(before.get(board.white_id, 0.0)),
                        "label": _result_label(board),
                        "changed": board.changed_by_director,
                    }
                    for board in boards
                    if board.is_bye
                ),
                None,
            ),
            "requested": [entrant_name(game.white) for game in requested],
            # A hand change: only the current round, before its first result.
            "can_change": tools["can_change_by_hand"] and round_number == paired,
            "confirm": _confirm_asked(request),
            # Sent with every hand change, so a change sent twice or from a stale tab is refused.
            "pairing": Round.pairing_of(event.pk, round_number),
        },
    )


def site_address(request: AuthedRequest) -> str:
    """The site's address as this request reached it, for the codes' printed addresses."""
    return f"{request.scheme}://{request.get_host()}"


def _rating(entry: Entry | None, ratings: dict[int, float | None]) -> str:
    rating = None if entry is None or entry.player_id is None else ratings.get(entry.player_id)
    return "" if rating is None else str(round(rating))


def _confirm_asked(request: AuthedRequest) -> dict[str, str] | None:
    """A hand change refused for a broken rule, offered again to confirm (digits only)."""
    if request.GET.get("confirm") != "1":
        return None
    asked = {key: request.GET.get(key, "") for key in ("first", "second", "board", "pairing")}
    return {key: value for key, value in asked.items() if value.isascii() and value.isdigit()}


@require_safe
def night_results(
    request: AuthedRequest, slug: str, event_id: int, round_number: int
) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    paired = paired_round(event, round_number)
    boards = [b for b in event.round_boards(round_number) if not b.is_bye]
    last_round = round_number == paired and not is_closed(event)
    missing = [b.number for b in boards if b.game is None]
    this_round = Round.objects.filter(event=event, number=round_number).first()
    reports = board_reports.round_states(event, round_number)
    return render(
        request,
        "directors/night/results.html",
        {
            "club": event.club,
            "event": event,
            "round_number": round_number,
            # Any paired round's results can change until the evening is published.
            "open": not is_closed(event),
            "pairing": this_round.pairing if this_round else 0,
            "paired_before_correction": bool(this_round and this_round.paired_before_correction),
            "later_rounds": list(range(round_number + 1, paired + 1)),
            "missing": missing,
            "next_round": round_number + 1
            if last_round and not missing and paired < (event.planned_rounds or 0)
            else None,
            "boards": [
                {
                    "number": board.number,
                    "white": entrant_name(board.white),
                    "black": entrant_name(board.black),
                    "white_id": board.white_id,
                    "black_id": board.black_id,
                    "result": board.game.result if board.game else "",
                    "label": _result_label(board),
                    "report_state": reports[board.number].state.value,
                    "report": board_reports.state_text(reports[board.number]),
                }
                for board in boards
            ],
            # Reports at the board arrive while the screen is open (static/directors/night/
            # reports.js follows them).
            "reports_url": reverse("night_reports", args=[slug, event.pk, round_number])
            if last_round and event.reports_at_board
            else "",
            "over_the_board": [(r.value, RESULT_LABELS[r].short) for r in rounds.OVER_THE_BOARD],
            "forfeits": [(r.value, RESULT_LABELS[r].short) for r in rounds.FORFEITS],
        },
    )


@require_POST
def night_result(
    request: AuthedRequest, slug: str, event_id: int, round_number: int, board_number: int
) -> HttpResponse:
    """One tap. A form gets the page back at the next board waiting; the offline script
    (Accept: application/json) gets the outcome as JSON: 200 applied (or applied before,
    for a key sent again), 409 refused with the reason and the board as it is now, 400 for a
    form that cannot be read."""
    event = night_for_director(request, slug, event_id)
    here = reverse("night_results", args=[slug, event.pk, round_number])
    as_json = "application/json" in request.headers.get("Accept", "")
    form = BoardResultForm(request.POST)
    if not form.is_valid():
        reason = (
            _("Choose a result from the list.")
            if list(form.errors) == ["result"]
            else _("The form could not be read: reload the page and try again.")
        )
        if as_json:
            return JsonResponse({"status": "refused", "reason": reason}, status=400)
        messages.error(request, reason)
        return redirect(here)
    key = form.cleaned_data["key"]
    try:
        if key is not None:
            outcome = taps.enter_tap(
                event.pk, round_number, board_number, form.result_value(), request.user,
                key=key, shown=form.shown(), based_on=form.based_on_result(),
            )  # fmt: skip
            change = outcome.change
        else:
            change = rounds.enter_result(
                event.pk, round_number, board_number, form.result_value(), request.user,
                shown=form.shown(), based_on=form.based_on_result(),
            )  # fmt: skip
    except taps.TapKeyReused as error:
        if as_json:
            return JsonResponse({"status": "refused", "reason": error.message}, status=400)
        messages.error(request, error.message)
        return redirect(here)
    except PublishingError as error:
        if as_json:
            return JsonResponse(
                {"status": "refused", "reason": error.message,
                 **_board_now(event, round_number, board_number)},
                status=409,
            )  # fmt: skip
        messages.error(request, error.message)
        return redirect(here)
    warning = _paired_on_old(change.paired_on_old) if change else ""
    if as_json:
        return JsonResponse(
            {"status": "applied" if change else "replayed", "warning": warning,
             **_board_now(event, round_number, board_number)},
        )  # fmt: skip
    if warning:
        messages.warning(request, warning)
    missing = rounds.missing_results(event, round_number)
    # On to the next board still waiting (after this one, then from the top).
    following = [n for n in missing if n > board_number] or missing
    return redirect(f"{here}#board-{following[0]}" if following else f"{here}#all-in")


def _paired_on_old(later: tuple[int, ...]) -> str:
    if not later:
        return ""
    return ngettext(
        "Round %(rounds)s was already paired on the old result; it stays as paired.",
        "Rounds %(rounds)s were already paired on the old result; they stay as paired.",
        len(later),
    ) % {"rounds": listed([str(number) for number in later])}


def _board_now(event: Event, round_number: int, board_number: int) -> dict[str, object]:
    """The board as it is now, for the offline script to show beside an answer."""
    board = (
        event.boards.filter(round=round_number, number=board_number).select_related("game").first()
    )
    result = board.game.result_code if board is not None and board.game is not None else None
    return {
        "round": round_number,
        "board": board_number,
        "result": result.value if result is not None else "",
        "label": str(RESULT_LABELS[result].short) if result is not None else "",
        "pairing": Round.pairing_of(event.pk, round_number),
    }


@require_safe
def night_standings(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    paired = event.paired_rounds()
    after = _after(request.GET.get("after"), paired)
    order = rounds.club_tiebreak_order(event)
    entries = list(event.entries.select_related("player"))
    names = {e.pk: entrant_name(e) for e in entries}
    # Withdrawn by the round the standings are after (or before the next one is paired).
    withdrawn = {
        e.pk for e in entries if e.withdrawn_from_round and e.withdrawn_from_round <= after + 1
    }
    shown = Formats()
    rows = [
        {
            "rank": values.rank,
            "name": names.get(values.player, ""),
            "withdrawn": values.player in withdrawn,
            "points": points_text(values.points),
            "tiebreaks": [tiebreak_text(shown, t, values.value(t)) for t in order],
        }
        for values in rounds.standings(event, after)
    ]
    return render(
        request,
        "directors/night/standings.html",
        {
            "club": event.club,
            "event": event,
            "after": after,
            "rounds": range(1, paired + 1),
            "tiebreak_heads": tiebreak_head_cells(order, coded=True),
            "rows": rows,
        },
    )


def _after(text: str | None, paired: int) -> int:
    """The round the standings are after: the latest paired unless a paired one is asked."""
    try:
        after = int(text or "")
    except ValueError:
        return paired
    return after if 0 <= after <= paired else paired
