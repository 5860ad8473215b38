"""Results reported at the board, as web pages: the players' page behind a slip's code
(/b/<code>/: no account, any phone, plain forms), the director's per-round report states as
JSON for the results screen (static/directors/night/reports.js) and the evening's switch.

Thin views: the rate limit, the access helper, a form, one function of
directors/night/board_reports.py, a redirect or a page with the reason.
"""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs.access import AuthedRequest, BoardCodeGone, board_code_for_visitor
from clubs.accounts.throttle import count_attempt, key_hash, request_address
from clubs.labels.results import RESULT_LABELS
from clubs.models import BoardCode
from clubs.results import Result
from directors.edits import PublishingError
from directors.night import board_reports
from directors.night.board_reports import REPORTED_RESULTS, SIDES, ReportRefused
from directors.night.round_views import paired_round
from directors.night.views import is_closed, night_for_director

# The cookie that remembers which side this phone reported for, so one phone cannot speak
# for both players of a board (a second phone, or the director, confirms).
SIDE_COOKIE_SALT = "board-side"
SIDE_COOKIE_SECONDS = 12 * 3600


class BoardReportForm(forms.Form):
    side = forms.ChoiceField(choices=[(side.value, side.label) for side in SIDES])
    result = forms.ChoiceField(choices=[(r.value, r.value) for r in REPORTED_RESULTS])


def _over_limit(key: str, limit: int) -> bool:
    return count_attempt(key, settings.BOARD_REPORT_WINDOW_SECONDS) > limit


def _page(request: HttpRequest, template: str, status: int, **context: object) -> HttpResponse:
    response = render(request, template, {"noindex": True, **context}, status=status)
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _refused(request: HttpRequest, message: str, status: int) -> HttpResponse:
    return _page(request, "directors/night/board_refused.html", status, message=message)


GONE_MESSAGES = {
    "unknown": gettext_lazy(
        "No board has this code. Check the code on your slip, or ask the director to enter "
        "your result."
    ),
    "expired": gettext_lazy(
        "This code has expired: its round is over (or was paired again). Ask the director to "
        "enter your result."
    ),
    "off": gettext_lazy(
        "Results are not reported at the board this evening: give your slip to the director."
    ),
}


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def board_report(request: HttpRequest, board_code: str) -> HttpResponse:
    """One board of the round being played, for its two players."""
    address = request_address(request)
    if _over_limit(
        key_hash("board-report", "address", address), settings.BOARD_REPORT_ADDRESS_LIMIT
    ):
        return _too_many(request)
    try:
        code = board_code_for_visitor(board_code)
    except BoardCodeGone as gone:
        return _refused(request, str(GONE_MESSAGES[gone.reason]), 404)
    if _over_limit(key_hash("board-report", "code", code.code), settings.BOARD_REPORT_CODE_LIMIT):
        return _too_many(request)
    here = reverse("board_report", args=[code.code])
    cookie = f"board-{code.pk}"
    my_side = request.get_signed_cookie(cookie, default=None, salt=SIDE_COOKIE_SALT)
    if request.method == "POST":
        form = BoardReportForm(request.POST)
        if not form.is_valid():
            return _board_page(
                request, code, my_side, _("Choose your colour and one of the three results."), 400
            )
        side = form.cleaned_data["side"]
        if my_side is not None and my_side != side:
            message = _(
                "This phone already reported for %(side)s: the other player reports from "
                "their own phone."
            ) % {"side": str(board_reports.side_label(my_side)).lower()}
            return _board_page(request, code, my_side, message, 409)
        try:
            board_reports.report(code, side, Result(form.cleaned_data["result"]))
        except ReportRefused as refused:
            return _board_page(request, code, my_side, refused.message, refused.status)
        response = redirect(here)
        response.set_signed_cookie(
            cookie, side, salt=SIDE_COOKIE_SALT, max_age=SIDE_COOKIE_SECONDS, httponly=True,
            samesite="Lax", secure=request.is_secure(),
        )  # fmt: skip
        return response
    return _board_page(request, code, my_side, "", 200)


def _too_many(request: HttpRequest) -> HttpResponse:
    response = _refused(
        request,
        _("Too many tries from here: wait ten minutes, or give your slip to the director."),
        429,
    )
    response["Retry-After"] = str(settings.BOARD_REPORT_WINDOW_SECONDS)
    return response


def _board_page(
    request: HttpRequest, code: BoardCode, my_side: str | None, message: str, status: int
) -> HttpResponse:
    facts = board_reports.board_facts(code)
    if facts.stale:
        return _refused(request, board_reports.stale_message(code.round), max(status, 409))
    said = {"white": facts.white_said, "black": facts.black_said}
    mine = said.get(my_side) if my_side else None
    return _page(
        request,
        "directors/night/board.html",
        status,
        facts=facts,
        message=message,
        my_side=my_side,
        mine=str(RESULT_LABELS[mine].short) if mine is not None else "",
        said=[
            (board_reports.side_label(side), str(RESULT_LABELS[result].short))
            for side, result in said.items()
            if result is not None
        ],
        disputed=facts.white_said is not None
        and facts.black_said is not None
        and facts.white_said != facts.black_said,
        results=[(r.value, RESULT_LABELS[r].short) for r in REPORTED_RESULTS],
        sides=[(side.value, side.label) for side in SIDES],
        action=reverse("board_report", args=[code.code]),
    )


@require_safe
def night_reports(
    request: AuthedRequest, slug: str, event_id: int, round_number: int
) -> JsonResponse:
    """The round's boards as the results screen shows them: result and reports, for
    reports.js to refresh the director's screen every few seconds."""
    event = night_for_director(request, slug, event_id)
    paired_round(event, round_number)
    states = board_reports.round_states(event, round_number)
    boards = []
    for board in event.round_boards(round_number):
        if board.is_bye:
            continue
        state = states[board.number]
        result = board.game.result_code if board.game is not None else None
        boards.append(
            {
                "number": board.number,
                "result": result.value if result is not None else "",
                "label": str(RESULT_LABELS[result].short) if result is not None else "",
                "state": state.state.value,
                "text": board_reports.state_text(state),
            }
        )
    response = JsonResponse({"round": round_number, "boards": boards})
    response["Cache-Control"] = "private, no-store"
    return response


class SwitchForm(forms.Form):
    reports = forms.ChoiceField(choices=[("club", "club"), ("on", "on"), ("off", "off")])


@require_POST
def night_board_switch(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """Reporting at the board on or off for this evening, or as the club says."""
    event = night_for_director(request, slug, event_id)
    back = reverse("night_evening", args=[slug, event.pk]) + "#board-reports"
    form = SwitchForm(request.POST)
    if not form.is_valid() or is_closed(event):
        messages.error(request, _("The form could not be read: reload the page and try again."))
        return redirect(back)
    choice = {"club": None, "on": True, "off": False}[form.cleaned_data["reports"]]
    try:
        board_reports.switch_evening(event.pk, choice, request.user)
    except PublishingError as error:
        messages.error(request, error.message)
        return redirect(back)
    event.refresh_from_db()
    messages.success(
        request,
        _("Players report their results at the board this evening.")
        if event.reports_at_board
        else _("Results are not reported at the board this evening."),
    )
    return redirect(back)
