"""The director's own pairing tools on the club-night screens: never-pair couples (the
club's, on the roster screen, and one evening's own), a hand change of the current round
(swap two players, exchange a board's colours), and the printable alphabetical pairing
list and result slips.

Thin views: the access helper, a form, one function of directors/night/changes.py, a redirect.
A change that breaks an absolute pairing rule comes back to the pairing sheet with the
reason and a button to make it anyway.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.access import AuthedRequest, club_for_director
from clubs.models import Club, Event, Player
from directors.edits import PublishingError
from directors.night import board_reports, changes, rounds
from directors.night.names import players_named
from directors.night.round_views import paired_round, site_address
from directors.night.views import entrant_name, night_for_director
from directors.roster.players import MAX_NAME_LENGTH
from ladder.page_texts import points_text
from matching.name_order import last_first, surname_key

MAX_ID = 2**63 - 1


class PairOfPlayersForm(forms.Form):
    """Two roster players for the never-pair list, by id (a list's buttons) or by name as
    typed (the roster screen, read as start_event reads names); the service checks the club."""

    # Bounded by the id column (BigAutoField): a forged larger id is a form error, not a 500.
    first = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    second = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    name1 = forms.CharField(required=False, max_length=MAX_NAME_LENGTH)
    name2 = forms.CharField(required=False, max_length=MAX_NAME_LENGTH)
    remove = forms.BooleanField(required=False)


class HandChangeForm(forms.Form):
    """Two entrants to swap, or one board's colours; `confirmed` once told of a broken rule."""

    first = forms.IntegerField(required=False, min_value=1)
    second = forms.IntegerField(required=False, min_value=1)
    board = forms.IntegerField(required=False, min_value=1)
    confirmed = forms.BooleanField(required=False)
    # The round's pairing version the sheet showed (clubs.models.night.Round.pairing).
    pairing = forms.IntegerField(min_value=0, max_value=MAX_ID)


def _two_players(club: Club, data: dict[str, Any]) -> tuple[Player, Player] | None:
    if data["name1"].strip() and data["name2"].strip():
        chosen, problems = players_named(club, [data["name1"], data["name2"]])
        return None if problems else (chosen[0], chosen[1])
    found = Player.objects.filter(club=club).active().in_bulk([data["first"], data["second"]])
    first, second = found.get(data["first"]), found.get(data["second"])
    return (first, second) if first is not None and second is not None else None


def _set_pair(request: AuthedRequest, club: Club, event: Event | None) -> None:
    form = PairOfPlayersForm(request.POST)
    pair = _two_players(club, form.cleaned_data) if form.is_valid() else None
    if pair is None:
        messages.error(
            request, _("Choose two players of the roster (each name exactly one player).")
        )
        return
    remove = form.cleaned_data["remove"]
    try:
        changes.set_never_pair(club, *pair, request.user, event=event, remove=remove)
    except PublishingError as error:
        messages.error(request, error.message)
        return
    names = {"first": pair[0].name, "second": pair[1].name}
    messages.success(
        request,
        (
            _("%(first)s and %(second)s may be paired again.")
            if remove
            else _("%(first)s and %(second)s are never paired.")
        )
        % names,
    )


@require_POST
def roster_never_pair(request: AuthedRequest, slug: str) -> HttpResponse:
    """The club's own list, kept at every club night."""
    club = club_for_director(request, slug)
    _set_pair(request, club, None)
    return redirect(f"{reverse('roster_players', args=[club.slug])}#never-pair")


@require_POST
def night_never_pair(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """The evening's own couples, on top of the club's."""
    event = night_for_director(request, slug, event_id)
    _set_pair(request, event.club, event)
    return redirect(f"{reverse('night_evening', args=[slug, event.pk])}#never-pair")


@require_POST
def night_hand_change(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    number = event.paired_rounds()
    sheet = reverse("night_sheet", args=[slug, event.pk, max(number, 1)])
    form = HandChangeForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The form could not be read: reload the page and try again."))
        return redirect(sheet)
    data = form.cleaned_data
    try:
        shown = {"confirmed": data["confirmed"], "pairing": data["pairing"]}
        if data["board"]:
            changes.swap_colours(event.pk, data["board"], request.user, **shown)
        elif data["first"] and data["second"]:
            changes.swap_players(event.pk, data["first"], data["second"], request.user, **shown)
        else:
            messages.error(request, _("Choose two players, or a board."))
            return redirect(sheet)
    except changes.NeedsConfirming as error:
        messages.warning(request, error.message)
        asked = {k: data[k] for k in ("first", "second", "board") if data[k]}
        asked["pairing"] = data["pairing"]
        return redirect(f"{sheet}?{urlencode({'confirm': 1, **asked})}#change")
    except PublishingError as error:
        messages.error(request, error.message)
        return redirect(sheet)
    messages.success(request, _("The pairing is changed by hand: the sheet marks it."))
    return redirect(sheet)


def _alphabetical(event: Event, round_number: int) -> list[dict[str, object]]:
    """One line per player of the round, by surname as clubs post it ("Vries, Emma de";
    matching.name_order.surname_key): board, colour, opponent."""
    rows: list[dict[str, object]] = []
    for board in event.round_boards(round_number):
        if board.is_bye:
            rows.append({"name": entrant_name(board.white), "board": None, "opponent": ""})
            continue
        white, black = entrant_name(board.white), entrant_name(board.black)
        rows.append({"name": white, "board": board.number, "white": True, "opponent": black})
        rows.append({"name": black, "board": board.number, "white": False, "opponent": white})
    for row in rows:
        row["listed"] = last_first(str(row["name"]))
    return sorted(rows, key=lambda row: surname_key(str(row["name"])))


@require_safe
def night_print(
    request: AuthedRequest, slug: str, event_id: int, round_number: int
) -> HttpResponse:
    """The printable alphabetical pairing list and one result slip per board."""
    event = night_for_director(request, slug, event_id)
    paired_round(event, round_number)
    before = {v.player: v.points for v in rounds.standings(event, round_number - 1)}
    boards = [b for b in event.round_boards(round_number) if not b.is_bye]
    codes = board_reports.slip_codes(event, round_number, site_address(request))
    return render(
        request,
        "directors/night/print.html",
        {
            "club": event.club,
            "event": event,
            "round_number": round_number,
            "alphabetical": _alphabetical(event, round_number),
            "slips": [
                {
                    "number": board.number,
                    "white": entrant_name(board.white),
                    "white_points": points_text(before.get(board.white_id, 0.0)),
                    "black": entrant_name(board.black),
                    "black_points": points_text(before.get(board.black_id or 0, 0.0)),
                    "code": codes.get(board.number),
                }
                for board in boards
            ],
        },
    )
