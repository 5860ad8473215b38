"""The directors' roster: players, possible duplicates, merges and their undo, re-pointing.

Thin views: the access helpers answer 404 to outsiders, the forms turn posted ids
into this club's active players, and directors.roster.merging makes every change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from clubs.access import NOT_FOUND, AuthedRequest, club_for_director, player_for_director
from clubs.models import Club, Entry, Merge, NeverPair, Player, PlayerAlias
from directors.edits import PublishingError
from directors.events import confirmation
from directors.events.changes import PendingRepoint
from directors.events.forms import PlayerNameField
from directors.roster.merging import (
    REASON_LABELS,
    RosterChangeError,
    check_merge,
    dismiss_duplicate,
    duplicate_candidates,
    merge_players,
    player_record,
    prepared_roster,
    undo_blockers,
    undo_merge,
)
from directors.roster.players import update_player_details
from directors.roster_edit_views import RenameForm
from ladder.roster.ladders import starts_of
from matching import first_last, suggest_prepared

if TYPE_CHECKING:  # the stubs' name for a str or a lazy translation (dev dependency only)
    from django_stubs_ext import StrOrPromise

PLAYERS_PER_PAGE = 200


class _ActivePlayerField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        if obj.rating is None:
            return obj.name
        return f"{obj.name} ({obj.rating:.0f})"


def _active_player_field(
    club: Club, label: StrOrPromise, *, required: bool = True
) -> _ActivePlayerField:
    return _ActivePlayerField(
        queryset=club.players.active().rated_on(club.first_ladder()).order_by("name", "id"),
        label=label,
        required=required,
        error_messages={"invalid_choice": gettext_lazy("Choose a player of this club's roster.")},
    )


class MergeForm(forms.Form):
    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kept"] = _active_player_field(club, gettext_lazy("Keep"))
        self.fields["merged"] = _active_player_field(club, gettext_lazy("Merge into it"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("kept") is not None and data.get("kept") == data.get("merged"):
            raise forms.ValidationError(gettext_lazy("Choose two different players."))
        return data


class DismissForm(forms.Form):
    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"] = _active_player_field(club, gettext_lazy("Player"))
        self.fields["second"] = _active_player_field(club, gettext_lazy("Other player"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(gettext_lazy("Choose two different players."))
        return data


class RepointForm(forms.Form):
    new_name = PlayerNameField(
        label=gettext_lazy("Name of the new player"), max_length=120, required=False
    )

    def __init__(self, *args: Any, entry: Entry, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = _active_player_field(club, gettext_lazy("Another player"), required=False)
        if entry.player_id is not None:
            assert field.queryset is not None  # _active_player_field always sets one
            field.queryset = field.queryset.exclude(pk=entry.player_id)
        self.fields["player"] = field
        self.order_fields(["player", "new_name"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        name = " ".join(data.get("new_name", "").split())
        if self.errors:
            return data
        if (data.get("player") is None) == (not name):
            raise forms.ValidationError(
                gettext_lazy("Choose one existing player, or give a name for a new player.")
            )
        return data


class PlayerDetailsForm(forms.Form):
    junior = forms.BooleanField(label=gettext_lazy("Junior"), required=False)
    full_name_consent = forms.BooleanField(
        label=gettext_lazy("The family agreed that the full name may be shown"), required=False
    )
    start_rating = forms.FloatField(
        label=gettext_lazy("Starting estimate (empty: the club's start rating)"),
        required=False,
        min_value=0,
        max_value=4000,
    )


@require_POST
def player_details(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    found = player_for_director(request, slug, player_id)
    form = PlayerDetailsForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("roster_player", slug=slug, player_id=found.pk)
    changed = update_player_details(found, user=request.user, **form.cleaned_data)
    if changed:
        messages.success(request, _("The player's details are saved."))
    return redirect("roster_player", slug=slug, player_id=found.pk)


class RosterFilterForm(forms.Form):
    """The roster's GET filters: a search over names and other spellings, and the names
    that arrived as "Last,First"."""

    q = forms.CharField(label=gettext_lazy("Search"), required=False, max_length=120)
    last_first = forms.BooleanField(
        label=gettext_lazy('Only names written "Last,First"'), required=False
    )


@require_safe
def players(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    search = RosterFilterForm(request.GET)
    query, last_first = "", False
    if search.is_valid():
        query = " ".join(search.cleaned_data["q"].split())
        last_first = search.cleaned_data["last_first"]
    # The roster screen shows each player's standing on the club's first ladder.
    roster = club.players.active().rated_on(club.first_ladder())
    if query:
        spelt = PlayerAlias.objects.filter(player__club=club, name__icontains=query)
        roster = roster.filter(Q(name__icontains=query) | Q(pk__in=spelt.values("player_id")))
    if last_first:
        roster = roster.filter(name__contains=",")
    roster = roster.annotate(events=Count("entries__event", distinct=True)).order_by("name", "id")
    page = Paginator(roster, PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    offers = {p.pk: first_last(p.name) for p in page.object_list}
    shown = [p.pk for p in page.object_list]
    held = set(club.players.held_back().filter(pk__in=shown).values_list("pk", flat=True))
    rows = [(p, offers[p.pk] if last_first else None, p.pk in held) for p in page.object_list]
    filters = request.GET.copy()
    filters.pop("page", None)
    return render(
        request,
        "directors/roster/players.html",
        {
            "club": club,
            "page": page,
            "rows": rows,
            "search": search,
            "query": query,
            "last_first": last_first,
            "offers": any(offers.values()) and last_first,
            "filters": filters.urlencode(),
            # The club's never-pair couples (directors/night/changes.py), kept at every club night.
            "never_pair_url": reverse("roster_never_pair", args=[club.slug]),
            "never_pairs": NeverPair.objects.filter(club=club, event__isnull=True)
            .select_related("first", "second")
            .order_by("first__name", "second__name"),
        },
    )


@require_safe
def player(request: AuthedRequest, slug: str, player_id: int) -> HttpResponse:
    found = player_for_director(request, slug, player_id)
    club = found.club
    first = club.first_ladder()
    others = club.players.active().rated_on(first).exclude(pk=found.pk).order_by("name", "id")
    record = player_record(found)
    in_merge = Merge.objects.filter(Q(kept=found) | Q(merged=found)).exists()
    return render(
        request,
        "directors/roster/player.html",
        {
            "club": club,
            "record": record,
            "rename_form": RenameForm(initial={"name": found.name}),
            "first_last": first_last(found.name) if found.merged_into_id is None else None,
            "deletable": not record.entries and not in_merge,
            "held": club.players.held_back().filter(pk=found.pk).exists(),
            "others": others if found.merged_into_id is None else None,
            "merged_into": found.merged_into,
            "details_form": PlayerDetailsForm(
                initial={
                    "junior": found.junior,
                    "full_name_consent": found.full_name_consent,
                    # The estimate on the club's first ladder, which this form sets.
                    "start_rating": starts_of(club.first_ladder().pk, [found.pk])[found.pk][0],
                }
            ),
        },
    )


@require_safe
def duplicates(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return render(
        request,
        "directors/roster/duplicates.html",
        {"club": club, "candidates": duplicate_candidates(club)},
    )


@require_POST
def dismiss(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = DismissForm(request.POST, club=club)
    if not form.is_valid():
        messages.error(request, _("Choose two different players of this club's roster."))
        return redirect("roster_duplicates", slug=club.slug)
    first, second = form.cleaned_data["first"], form.cleaned_data["second"]
    dismiss_duplicate(club, first, second, request.user)
    messages.success(
        request,
        _("%(first)s and %(second)s will not be suggested as duplicates again.")
        % {"first": first.name, "second": second.name},
    )
    return redirect("roster_duplicates", slug=club.slug)


@require_safe
def merge_confirm(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    return _merge_page(request, club, MergeForm(request.GET, club=club))


@require_POST
def merge(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    form = MergeForm(request.POST, club=club)
    if not form.is_valid():
        return _merge_page(request, club, form)
    kept, merged = form.cleaned_data["kept"], form.cleaned_data["merged"]
    try:
        merge_players(club, kept, merged, request.user)
    except RosterChangeError as refused:
        return _merge_page(request, club, form, refused.message)
    messages.success(
        request,
        _("%(merged)s is merged into %(kept)s. You can undo this on the merges page.")
        % {"merged": merged.name, "kept": kept.name},
    )
    return redirect("roster_player", slug=club.slug, player_id=kept.pk)


def _merge_page(
    request: HttpRequest, club: Club, form: MergeForm, problem: str | None = None
) -> HttpResponse:
    records = None
    if form.is_valid():
        kept, merged = form.cleaned_data["kept"], form.cleaned_data["merged"]
        if problem is None:
            try:
                check_merge(club, kept, merged)
            except RosterChangeError as refused:
                problem = refused.message
        records = (player_record(kept), player_record(merged))
    return render(
        request,
        "directors/roster/merge_confirm.html",
        {"club": club, "form": form, "records": records, "problem": problem},
        status=200 if form.is_valid() else 400,
    )


@require_safe
def merges(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    found = list(
        club.merges.select_related("kept", "merged", "created_by", "undone_by").order_by("-pk")
    )
    blockers = undo_blockers(found)
    rows = [(merge, blockers.get(merge.pk)) for merge in found]
    return render(request, "directors/roster/merges.html", {"club": club, "rows": rows})


@require_POST
def merge_undo(request: AuthedRequest, slug: str, merge_id: int) -> HttpResponse:
    club = club_for_director(request, slug)
    found = club.merges.filter(pk=merge_id).select_related("kept", "merged").first()
    if found is None:
        raise Http404(NOT_FOUND)
    try:
        undo_merge(found, request.user)
    except RosterChangeError as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(merged)s and %(kept)s are two players again.")
            % {"merged": found.merged.name, "kept": found.kept.name},
        )
    return redirect("roster_merges", slug=club.slug)


@require_http_methods(["GET", "HEAD", "POST"])
def repoint(request: AuthedRequest, slug: str, entry_id: int) -> HttpResponse:
    club = club_for_director(request, slug)
    entry = (
        Entry.objects.filter(pk=entry_id, event__club=club)
        .select_related("event", "player")
        .first()
    )
    if entry is None:
        raise Http404(NOT_FOUND)
    data = request.POST if request.method == "POST" else None
    form = RepointForm(data, entry=entry, club=club)
    problem = None
    if request.method == "POST" and form.is_valid():
        chosen = form.cleaned_data["player"]
        change = PendingRepoint(
            event_id=entry.event_id,
            version=entry.event.edit_version,
            entry_id=entry.pk,
            player_id=None if chosen is None else chosen.pk,
            new_name=form.cleaned_data["new_name"],
        )
        try:
            # A published event's ladder moves: shown first, made on confirmation.
            done = confirmation.submit(request, entry.event, change)
        except (RosterChangeError, PublishingError) as refused:
            problem = refused.message
        else:
            if done.page is not None:
                return done.page
            assert isinstance(done.result, Player)
            target = done.result
            messages.success(
                request,
                _("%(typed)s in %(event)s now counts for %(name)s.")
                % {"typed": entry.typed_name, "event": entry.event, "name": target.name},
            )
            return redirect("roster_player", slug=club.slug, player_id=target.pk)
    return render(
        request,
        "directors/roster/repoint.html",
        {
            "club": club,
            "entry": entry,
            "form": form,
            "problem": problem,
            "suggestions": _suggestions(club, entry),
        },
        status=400 if form.is_bound and (problem or form.errors) else 200,
    )


def _suggestions(club: Club, entry: Entry) -> list[tuple[Player, Any]]:
    """Roster players the typed name may stand for, best first, its current player left out."""
    roster, owners = prepared_roster(club)
    ranked = suggest_prepared(entry.typed_name, roster, limit=6)
    ids = [owners[s.index] for s in ranked if owners[s.index] != entry.player_id][:5]
    found = club.players.active().rated_on(club.first_ladder()).in_bulk(ids)
    reasons = {owners[s.index]: REASON_LABELS[s.reason] for s in ranked}
    return [(found[pk], reasons[pk]) for pk in ids if pk in found]
