"""The screens only an evening of several sections has (directors/night/sections.py): a
section's own rules before its first round, a player moved to another section, and the
pairing sheet of one round for every section. The sections side by side on the evening
page are directors/night/views.py's (`section_cards`).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.access import NOT_FOUND, AuthedRequest
from clubs.labels.results import RESULT_LABELS
from clubs.models import Board, PairingSystem
from directors.edits import PublishingError
from directors.night import board_reports, sections
from directors.night.board_reports import SlipCode
from directors.night.forms import MoveForm, SectionRulesForm
from directors.night.round_views import site_address
from directors.night.views import _back, _unreadable, entrant_name, night_for_director


@require_POST
def night_rules(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = SectionRulesForm(request.POST)
    if event.evening_id is None:
        raise Http404(NOT_FOUND)
    if not form.is_valid():
        return _unreadable(request, event)
    data = form.cleaned_data
    try:
        sections.change_rules(
            event.pk,
            system=data["system"],
            rounds=None if data["system"] != PairingSystem.SWISS else data["rounds"],
            pairing_bye=data["pairing_bye"] or None,
            user=request.user,
        )
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The section's rules are changed."))
    return _back(event)


@require_POST
def night_move(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _unreadable(request, event)
    # Only a section of this evening: any other event, the club's or not, is not found.
    wanted = form.cleaned_data["section"]
    target = next((s for s in event.sections() if s.pk == wanted and s.pk != event.pk), None)
    if target is None:
        raise Http404(NOT_FOUND)
    try:
        moved = sections.move_entrant(event.pk, form.cleaned_data["entry"], target.pk, request.user)
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(name)s plays in the section “%(section)s”.")
            % {"name": moved.typed_name, "section": target.section},
        )
    return _back(event, "entrants")


@require_safe
def night_sections_sheet(
    request: AuthedRequest, slug: str, event_id: int, round_number: int
) -> HttpResponse:
    """Round N of every section, each section's boards under its name (a section whose
    round N is not paired yet says so), with their board codes as the section's own sheet
    has them; each section's own sheet stays linked."""
    event = night_for_director(request, slug, event_id)
    if event.evening_id is None or not 1 <= round_number <= event.paired_rounds():
        raise Http404(NOT_FOUND)
    shown = []
    address = site_address(request)
    for section in event.sections():
        paired = section.paired_rounds() >= round_number
        boards = section.round_boards(round_number) if paired else []
        # As on the section's own sheet: codes while its round N takes reports at the board.
        codes = board_reports.slip_codes(section, round_number, address) if paired else {}
        shown.append(
            {
                "event": section,
                "paired": paired,
                "boards": [
                    _board(board, codes.get(board.number)) for board in boards if not board.is_bye
                ],
                "bye": next((entrant_name(b.white) for b in boards if b.is_bye), ""),
            }
        )
    return render(
        request,
        "directors/night/sections_sheet.html",
        {"club": event.club, "event": event, "round_number": round_number, "sections": shown},
    )


def _board(board: Board, code: SlipCode | None) -> dict[str, object]:
    return {
        "number": board.number,
        "white": entrant_name(board.white),
        "black": entrant_name(board.black),
        "result": str(RESULT_LABELS[board.game.result_code].short) if board.game else "",
        "code": code,
    }
