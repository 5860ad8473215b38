"""The directors' ladders screen: the club's ladders, a new one, a new name, a kind moved.

Adding a ladder with kinds and moving a kind both re-rate two ladders, so both are shown
first: the form posts to itself and is answered with how each ladder would move (the write
made in a rolled-back savepoint, ladder/impact/ladders.py) and a confirmation carrying the same
values, which makes the write for real (directors/ladders/changes.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clubs.access import AuthedRequest, club_for_director, ladder_for_director
from clubs.models import Club, Ladder, Player
from directors.forms import POLICY_LABELS
from directors.ladders.changes import (
    KIND_LABELS,
    LadderRefused,
    add_ladder,
    assignment,
    move_kinds,
    rename_ladder,
    shown_name,
)
from directors.ladders.forms import AddLadderForm, MoveKindForm, RenameLadderForm
from ladder.impact.ladders import LadderMove, moves_impact

MOVES_SHOWN = 25


def ladders(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return _page(request, club)


@require_POST
def ladder_add(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = AddLadderForm(request.POST, club=club)
    if not form.is_valid():
        return _page(request, club, add_form=form, status=400)
    if _stale(request, club, form.cleaned_data["based_on"]):
        return redirect("club_ladders", slug=club.slug)
    data = form.cleaned_data

    def write() -> object:
        return add_ladder(
            club, slug=data["slug"], name=data["name"], policy=data["policy"],
            kinds=data["kinds"], user=request.user,
        )  # fmt: skip

    if "confirm" in request.POST or not data["kinds"]:
        if not _made(request, write):
            return redirect("club_ladders", slug=club.slug)
        messages.success(request, _("The ladder is added; the ladders are being recalculated."))
        return redirect("club_ladders", slug=club.slug)
    return _preview(request, club, write, add_form=form, action="add")


@require_POST
def ladder_move(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = MoveKindForm(request.POST, club=club, ladders=list(Ladder.objects.for_club(club.pk)))
    if not form.is_valid():
        return _page(request, club, move_form=form, status=400)
    if _stale(request, club, form.cleaned_data["based_on"]):
        return redirect("club_ladders", slug=club.slug)
    target, kind = form.target, form.cleaned_data["kind"]

    def write() -> object:
        return move_kinds(club, target, [kind], user=request.user)

    if "confirm" in request.POST:
        if _made(request, write):
            messages.success(request, _("The kind is moved; both ladders are being recalculated."))
        return redirect("club_ladders", slug=club.slug)
    return _preview(request, club, write, move_form=form, action="move")


@require_POST
def ladder_rename(request: AuthedRequest, slug: str, ladder: str) -> HttpResponse:
    found = ladder_for_director(request, slug, ladder)
    form = RenameLadderForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the ladder a name of up to 80 characters."))
    elif rename_ladder(found, form.cleaned_data["name"], user=request.user):
        messages.success(request, _("The ladder is renamed."))
    return redirect("club_ladders", slug=slug)


def _stale(request: AuthedRequest, club: Club, based_on: str) -> bool:
    if based_on == assignment(club):
        return False
    messages.error(
        request,
        _(
            "The ladders were changed by someone else since you opened the page, so nothing "
            "was saved. The page now shows them as they are."
        ),
    )
    return True


def _made(request: AuthedRequest, write: Callable[[], object]) -> bool:
    try:
        write()
    except LadderRefused as refused:
        messages.error(request, str(refused))
        return False
    return True


def _preview(
    request: AuthedRequest,
    club: Club,
    write: Callable[[], object],
    *,
    action: str,
    add_form: AddLadderForm | None = None,
    move_form: MoveKindForm | None = None,
) -> HttpResponse:
    try:
        moves = moves_impact(club.pk, write)
    except LadderRefused as refused:
        messages.error(request, str(refused))
        return redirect("club_ladders", slug=club.slug)
    form = add_form if action == "add" else move_form
    assert form is not None
    return _page(
        request,
        club,
        add_form=add_form,
        move_form=move_form,
        preview={
            "action": action,
            "ladders": _shown_moves(moves),
            "values": _as_hidden(request, ("name", "slug", "policy", "kinds", "kind", "to")),
            "based_on": form.cleaned_data["based_on"],
        },
    )


def _page(
    request: AuthedRequest,
    club: Club,
    *,
    add_form: AddLadderForm | None = None,
    move_form: MoveKindForm | None = None,
    preview: dict[str, object] | None = None,
    status: int = 200,
) -> HttpResponse:
    rows = list(Ladder.objects.for_club(club.pk))
    return render(
        request,
        "directors/ladders/ladders.html",
        {
            "club": club,
            "ladders": [
                {
                    "ladder": ladder,
                    "name": shown_name(ladder.name),
                    "policy": POLICY_LABELS.get(ladder.rating_policy, ladder.rating_policy),
                    "kinds": [KIND_LABELS[kind] for kind in ladder.kinds if kind in KIND_LABELS],
                    "rename": RenameLadderForm(
                        initial={"name": ladder.name}, auto_id=f"id_rename_{ladder.slug}_%s"
                    ),
                }
                for ladder in rows
            ],
            "unclaimed": [label for kind, label in KIND_LABELS.items() if not _claimed(rows, kind)],
            "add_form": add_form or AddLadderForm(None, club=club),
            "move_form": move_form or MoveKindForm(None, club=club, ladders=rows),
            "preview": preview,
        },
        status=status,
    )


def _claimed(ladders: Sequence[Ladder], kind: str) -> bool:
    return any(kind in ladder.kinds for ladder in ladders)


def _as_hidden(request: AuthedRequest, names: Sequence[str]) -> list[tuple[str, str]]:
    """The previewed values as the confirmation re-posts them."""
    return [(name, value) for name in names for value in request.POST.getlist(name)]


def _shown_moves(moves: list[LadderMove]) -> list[dict[str, object]]:
    """Each ladder's impact with the names of its largest moves (one query for all)."""
    shown = {id(move): move.impact.moves[:MOVES_SHOWN] for move in moves}
    ids = {m.player_id for rows in shown.values() for m in rows}
    names = dict(Player.objects.filter(pk__in=ids).values_list("id", "name")) if ids else {}
    return [
        {
            "ladder": move,
            "name": shown_name(move.name),
            "impact": move.impact,
            "moves": [{"name": names.get(m.player_id, ""), "move": m} for m in shown[id(move)]],
            "key": f"impact-{move.slug}",
        }
        for move in moves
    ]
