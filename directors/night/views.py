"""The director's club-night screens: start the evening, then the evening page with its
entrants (seeds, withdrawals, byes, late arrivals), pairing and publishing.

Thin views: the access helper, a form, one function of directors/night/evening.py or
directors/night/rounds.py, a redirect. Every change is a plain form POST, so the evening runs
on a phone without JavaScript; a refusal comes back as the service's message. The rounds'
own pages (pairing sheet, results by board, standings) are directors/night/round_views.py.
"""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db import transaction
from django.db.models import F
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from clubs.access import NOT_FOUND, AuthedRequest, club_for_director, event_for_director
from clubs.models import (
    ROUND_ROBINS,
    Club,
    Entry,
    Event,
    Game,
    MissedRounds,
    PairingBye,
    PairingSystem,
    Player,
    RequestedBye,
    Round,
    User,
)
from clubs.results import Result
from directors.edits import PublishingError
from directors.night import changes, evening, names, pairing, sections
from directors.night import rounds as night_rounds
from directors.night import split as splits
from directors.night.forms import (
    NEW_PERSON,
    NEWCOMER,
    PICK,
    SEARCH,
    ByesForm,
    EntrantForm,
    LateArrivalForm,
    RoundForm,
    StartNightForm,
)
from directors.night.names import check_newcomer
from directors.roster import players
from directors.roster.merging import RosterChangeError
from directors.roster.players import MAX_NAME_LENGTH
from directors.schedule import ScheduleRefused, scheduled_day, start_night
from ladder.page_texts import points_text
from ladder.roster.ladders import event_ratings

# The start form's fields a search or a newcomer carries over in the page's address.
_KEPT = (
    "name", "date", "kind", "system", "rounds", "pairing_bye", "first_colour", "accelerated", "q",
    "scheduled", "split", "thresholds", "section_names",
)  # fmt: skip
LATE_ARRIVALS_SHOWN = 20


def night_for_director(request: AuthedRequest, slug: str, event_id: int) -> Event:
    """A club night of a directed club; any other event is not found here."""
    event = event_for_director(request, slug, event_id)
    if not event.pairing_system:
        raise Http404(NOT_FOUND)
    return event


def entrant_name(entry: Entry | None) -> str:
    """Directors see full names: the roster's name as it is now (the entry keeps the name
    it joined under)."""
    if entry is None:
        return ""
    return entry.player.name if entry.player is not None else entry.typed_name


def is_closed(event: Event) -> bool:
    """Published or deleted: the evening's pages are read-only."""
    return event.deleted_at is not None or event.status == Event.Status.PUBLISHED


# Start -----------------------------------------------------------------------------------------


def night_start(request: AuthedRequest, slug: str) -> HttpResponse:
    club = club_for_director(request, slug)
    # Shown with their standing on the club's first ladder (the night's kind is chosen here).
    roster = list(
        Player.objects.filter(club=club).active().rated_on(club.first_ladder()).order_by("name")
    )
    roster_ids = {player.pk for player in roster}
    if request.method != "POST":
        initial, ticked = _state_from(request.GET, roster_ids)
        initial = _with_scheduled(request, club, initial)
        form = StartNightForm(initial=initial, roster_ids=roster_ids)
        return _start_page(request, club, form, roster, ticked)
    form = StartNightForm(request.POST, roster_ids=roster_ids)
    ticked = [pk for pk in form.ticked() if pk in roster_ids]
    action = request.POST.get("action") or ""
    if action in (SEARCH, NEWCOMER, NEW_PERSON) or action.startswith(PICK):
        # A search or a newcomer changes no evening: the page comes back at an address
        # holding everything typed and ticked so far, so a reload repeats nothing.
        return redirect(_carried_over(request, club, action, roster_ids, ticked))
    if form.is_valid():
        try:
            event = _start_from_form(club, form.cleaned_data, roster, request.user)
        except PublishingError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request, _("The evening is started. Pair round 1 when everyone is in.")
            )
            return redirect("night_evening", slug=club.slug, event_id=event.pk)
    return _start_page(request, club, form, roster, ticked)


def _carried_over(
    request: AuthedRequest, club: Club, action: str, roster_ids: set[int], ticked: list[int]
) -> str:
    """The start page's address after a search, a pick among close names or a newcomer,
    holding what was typed and ticked: a picked or added player is ticked, and a newcomer
    whose name is close to roster players waits there for the director to choose."""
    waiting = ""
    if action.startswith(PICK):
        picked = {str(pk): pk for pk in roster_ids}.get(action.removeprefix(PICK))
        if picked is not None:
            ticked.append(picked)
    elif action != SEARCH:
        try:
            newcomer = _add_newcomer(request, club, new_person=action == NEW_PERSON)
        except RosterChangeError as error:
            messages.error(request, error.message)
        else:
            if newcomer is None:
                waiting = request.POST.get("newcomer_name", "")
            else:
                ticked.append(newcomer.pk)
    done = action != SEARCH and not waiting
    return _start_url(club, request.POST, ticked, newcomer=done, waiting=waiting)


def _with_scheduled(
    request: AuthedRequest, club: Club, initial: dict[str, object]
) -> dict[str, object]:
    """The start form opened from a scheduled date: its name, date and kind filled in (under
    what the director already typed); a reference that cannot be run is said and dropped."""
    reference = str(initial.get("scheduled") or "")
    if not reference:
        return initial
    try:
        scheduled = scheduled_day(club, reference)
    except ScheduleRefused as refused:
        messages.error(request, refused.message)
        return {key: value for key, value in initial.items() if key != "scheduled"}
    entry = scheduled.entry
    return {
        "name": entry.name,
        "date": scheduled.day,
        "kind": entry.kind,
        **initial,
        "scheduled": scheduled.reference,
    }


def _start_from_form(club: Club, data: dict[str, Any], roster: list[Player], user: User) -> Event:
    """The evening a valid start form asks for, its blanks read as the form shows them
    (a Swiss's rounds only; no bye choice; the first colour by lot), linked from the
    scheduled date it was opened from, if any (refused with the schedule's reason). Split
    into sections, each is started with these choices and the first is returned."""
    scheduled = scheduled_day(club, data["scheduled"]) if data["scheduled"] else None
    by_id = {player.pk: player for player in roster}
    ticked = [by_id[pk] for pk in data["players"]]
    system = data["system"]
    start = partial(
        evening.start_event,
        club,
        date=data["date"],
        system=system,
        rounds=None if system != PairingSystem.SWISS else data["rounds"],
        user=user,
        kind=data["kind"],
        rated=data["rated"],
        pairing_bye=data["pairing_bye"] or None,
        first_colour=data["first_colour"] or evening.BY_LOT,
        accelerated=data["accelerated"],
    )

    def one() -> Event:
        return start(name=data["name"], players=ticked)

    def several() -> Event:
        plan = sections.plan_sections(
            club, ticked, kind=data["kind"], how=data["split"],
            thresholds=data["thresholds"], names=data["section_names"],
        )  # fmt: skip
        started = sections.start_sections(
            club, name=data["name"], date=data["date"], sections=plan, user=user,
            start=lambda name, players: start(name=name, players=players, least_players=0),
            chosen=data["split"] == splits.BY_CHOICE,
        )  # fmt: skip
        return started[0]

    run = several if data["split"] else one
    return run() if scheduled is None else start_night(scheduled, run)


def _add_newcomer(request: AuthedRequest, club: Club, *, new_person: bool) -> Player | None:
    """The player to tick for a typed newcomer: the roster player the name is, or a new
    one; None while the name is close to roster players and the director has not said it
    is a new person (the page then shows them)."""
    name = request.POST.get("newcomer_name", "")
    found = check_newcomer(club, name, new_person=new_person)
    if found.existing is not None:
        messages.success(request, already_on_roster(found.existing, name))
        return found.existing
    if found.close:
        messages.warning(request, close_names_first())
        return None
    junior = bool(request.POST.get("newcomer_junior"))
    # Held: met in a draft, on no club page until the evening is published.
    player = players.add_player(
        club, name, junior=junior, start_rating=None, user=request.user, held=True
    )
    messages.success(request, _("%(name)s is on the roster and ticked.") % {"name": player.name})
    return player


def close_names_first() -> str:
    return _(
        "That name is close to players on the roster: choose one of them, or say that this "
        "is a new person."
    )


def already_on_roster(player: Player, typed: str) -> str:
    return _("%(typed)s is %(name)s, already on the roster: ticked, not added again.") % {
        "typed": typed.strip(),
        "name": player.name,
    }


def _state_from(query: QueryDict, roster_ids: set[int]) -> tuple[dict[str, object], list[int]]:
    """The start form as a search or a newcomer left it (see `_start_url`)."""
    initial: dict[str, object] = {key: query[key] for key in _KEPT if query.get(key)}
    if query.get("rated") == "0":
        initial["rated"] = False
    # Matched as text against the roster's ids: "²" is a digit to str.isdigit, not to int().
    by_text = {str(pk): pk for pk in roster_ids}
    ticked = [by_text[v] for v in query.getlist("players") if v in by_text]
    return initial, ticked


def _start_url(
    club: Club, posted: QueryDict, ticked: list[int], *, newcomer: bool, waiting: str = ""
) -> str:
    state: list[tuple[str, str]] = [
        (key, posted.get(key, "")) for key in _KEPT if posted.get(key, "").strip()
    ]
    if newcomer:
        # The newcomer is ticked; the list shows everyone again to go on ticking.
        state = [(key, value) for key, value in state if key != "q"]
    if waiting:
        # A newcomer's name close to roster players: the page shows them and waits.
        state.append(("newcomer_name", waiting))
        if posted.get("newcomer_junior"):
            state.append(("newcomer_junior", "1"))
    state.append(("rated", "1" if posted.get("rated") else "0"))
    state += [("players", str(pk)) for pk in dict.fromkeys(ticked)]
    return f"{reverse('night_start', args=[club.slug])}?{urlencode(state)}"


def _start_page(
    request: AuthedRequest,
    club: Club,
    form: StartNightForm,
    roster: list[Player],
    ticked: list[int],
) -> HttpResponse:
    query = str(form["q"].value() or "").strip()
    chosen = set(ticked)
    shown = roster
    if query:
        # Aliases and the name suggestions count: a regular is found under an old spelling.
        by_id = {player.pk: player for player in roster}
        found = names.find_players(club, query, limit=len(roster) or 1)
        shown = [by_id[player.pk] for player in found if player.pk in by_id]
    shown_ids = {player.pk for player in shown}
    waiting = request.GET.get("newcomer_name", "").strip()[:MAX_NAME_LENGTH]
    close = names.check_newcomer(club, waiting, new_person=False).close if waiting else []
    return render(
        request,
        "directors/night/start.html",
        {
            "club": club,
            "form": form,
            "query": query,
            "rows": [{"player": p, "ticked": p.pk in chosen} for p in shown],
            # Ticked but filtered out by the search: kept as hidden inputs.
            "kept": [p for p in roster if p.pk in chosen and p.pk not in shown_ids],
            "ticked": len(chosen),
            "round_robin": evening.round_robin_rounds(len(chosen), PairingSystem.ROUND_ROBIN)
            if len(chosen) >= 2
            else None,
            "waiting": waiting if close else "",
            "waiting_junior": bool(request.GET.get("newcomer_junior")),
            "close": close,
        },
    )


# The evening ----------------------------------------------------------------------------------


@require_safe
def night_evening(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    paired = event.paired_rounds()
    planned = event.planned_rounds or 0
    missing = night_rounds.missing_results(event, paired) if paired else []
    closed = is_closed(event)
    entries = list(event.entries.select_related("player").order_by("start_rank", "id"))
    ratings = event_ratings(event)
    points = {v.player: v.points for v in night_rounds.standings(event, paired)}
    byes: dict[int, list[dict[str, object]]] = {}
    for entry_id, round_number, result in (
        Game.objects.filter(event=event, round__gt=paired, black__isnull=True)
        .order_by("round")
        .values_list("white_id", "round", "result")
    ):
        text = _bye_text(result) % {"round": round_number}
        byes.setdefault(entry_id, []).append({"round": round_number, "text": text})
    # Late entrants whose missed rounds are half-point byes (the others' are absences).
    missed_half = set(
        Game.objects.filter(
            event=event, black__isnull=True, result=Result.BYE_HALF,
            white__joined_round__gt=F("round"),
        ).values_list("white_id", flat=True)
    )  # fmt: skip
    round_robin = event.pairing_system in ROUND_ROBINS
    results_in = event.boards.filter(round=paired, black__isnull=False, game__isnull=False)
    return render(
        request,
        "directors/night/evening.html",
        {
            "club": event.club,
            "event": event,
            "closed": closed,
            "paired": paired,
            "planned": planned,
            "rounds": range(1, paired + 1),
            "paired_on_old": set(
                Round.objects.filter(event=event, paired_before_correction=True).values_list(
                    "number", flat=True
                )
            ),
            "future_rounds": range(paired + 1, planned + 1),
            "next_round": paired + 1
            if paired < planned and not missing and not closed and len(entries) >= 2
            else None,
            # A section chosen per player may start with fewer than two: filled by moves.
            "few_players": not closed and len(entries) < 2,
            "missing": missing,
            "can_unpair": not closed and paired > 0 and not results_in.exists(),
            "can_publish": not closed and paired > 0 and not missing,
            "can_move_seeds": not closed and paired == 0,
            "can_add": not closed
            and (not round_robin or paired == 0)
            and (paired == 0 or paired < planned),
            "rows": [
                {
                    "entry": entry,
                    "name": entrant_name(entry),
                    "rating": ratings.get(entry.player_id) if entry.player_id else None,
                    "points": points_text(points.get(entry.pk, 0.0)),
                    "byes": byes.get(entry.pk, []),
                    "missed_half": entry.pk in missed_half,
                }
                for entry in entries
            ],
            "allowed_byes": [
                (letter, label)
                for letter, label in RequestedBye.choices
                if letter in event.requestable_byes
            ],
            "byes_form": ByesForm(initial={"byes": list(event.requestable_byes)}),
            "missed_default": event.club.missed_rounds,
            "missed_choices": MissedRounds.choices,
            **_late_arrivals(request, event, entries),
            **_waiting_newcomer(request, event, entries),
            **changes.evening_tools(event, paired, closed),
            **_sections(event, paired, closed),
            "apart_failed": request.GET.get("apart") == "failed",
            # A large Swiss field is slow to pair: the director is told to press once and wait.
            "slow_pairing": not round_robin and len(entries) > pairing.SLOW_PAIRING_FIELD,
        },
    )


def section_cards(event: Event) -> list[dict[str, object]]:
    """Each section of the evening, side by side on its screens, with its own next round and
    publish; none for an evening of one section."""
    if event.evening_id is None:
        return []
    cards: list[dict[str, object]] = []
    for section in event.sections():
        paired = section.paired_rounds()
        planned = section.planned_rounds or 0
        missing = night_rounds.missing_results(section, paired) if paired else []
        closed = is_closed(section)
        players = section.entries.count()
        cards.append(
            {
                "event": section,
                "current": section.pk == event.pk,
                "paired": paired,
                "planned": planned,
                "players": players,
                "missing": len(missing),
                "closed": closed,
                "few_players": not closed and players < 2,
                "next_round": paired + 1
                if paired < planned and not missing and not closed and players >= 2
                else None,
                "can_publish": not closed and paired > 0 and not missing,
            }
        )
    return cards


def _sections(event: Event, paired: int, closed: bool) -> dict[str, object]:
    cards = section_cards(event)
    open_before_round_one = bool(cards) and not closed and paired == 0
    return {
        "sections": cards,
        # Before this section's first round: a player may move to another open section, and
        # the section's own rules may change.
        "move_to": [card["event"] for card in cards if not card["current"] and not card["closed"]]
        if open_before_round_one
        else [],
        "rules_form": open_before_round_one,
        "systems": PairingSystem.choices,
        "byes": PairingBye.choices,
    }


def _bye_text(result: str) -> str:
    """A requested bye as the evening page lists it (its round is put in after)."""
    texts = {
        Result.BYE_ZERO: _("Zero-point bye in round %(round)d."),
        Result.BYE_FULL: _("Full-point bye in round %(round)d."),
    }
    return texts.get(Result(result), _("Half-point bye in round %(round)d."))


def _late_arrivals(request: AuthedRequest, event: Event, entries: list) -> dict[str, object]:
    """Roster players not playing whose name holds the search (only after a search)."""
    find = request.GET.get("find", "").strip()[:120]
    if not find:
        return {"find": "", "found": []}
    playing = {entry.player_id for entry in entries}
    # Aliases and the name suggestions count, as at check-in.
    found = names.find_players(event.club, find, limit=LATE_ARRIVALS_SHOWN + len(playing))
    return {"find": find, "found": [p for p in found if p.pk not in playing][:LATE_ARRIVALS_SHOWN]}


def _waiting_newcomer(request: AuthedRequest, event: Event, entries: list) -> dict[str, object]:
    """A newcomer's name close to roster players, waiting for the director to choose."""
    waiting = request.GET.get("newcomer", "").strip()[:MAX_NAME_LENGTH]
    if not waiting:
        return {"waiting": "", "close": []}
    playing = {entry.player_id for entry in entries}
    close = names.check_newcomer(event.club, waiting, new_person=False).close
    return {"waiting": waiting, "close": close, "playing": playing}


def _back(event: Event, anchor: str = "") -> HttpResponse:
    url = reverse("night_evening", args=[event.club.slug, event.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def _unreadable(request: AuthedRequest, event: Event) -> HttpResponse:
    messages.error(request, _("The form could not be read: reload the page and try again."))
    return _back(event)


@require_POST
def night_seed(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = EntrantForm(request.POST)
    if not form.is_valid() or form.cleaned_data["seed"] is None:
        return _unreadable(request, event)
    try:
        evening.move_seed(
            event.pk, form.cleaned_data["entry"], form.cleaned_data["seed"], request.user
        )
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The seed is moved."))
    return _back(event, "entrants")


@require_POST
def night_withdraw(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = EntrantForm(request.POST)
    if not form.is_valid():
        return _unreadable(request, event)
    back = form.cleaned_data["back"]
    try:
        evening.withdraw(event.pk, form.cleaned_data["entry"], request.user, back=back)
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("The player is paired again from the next round.")
            if back
            else _("The player is not paired from the next round on."),
        )
    return _back(event, "entrants")


@require_POST
def night_bye(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = EntrantForm(request.POST)
    if not form.is_valid() or form.cleaned_data["round"] is None:
        return _unreadable(request, event)
    cancel = form.cleaned_data["cancel"]
    bye = form.cleaned_data["bye"] or RequestedBye.HALF
    try:
        evening.request_bye(
            event.pk,
            form.cleaned_data["entry"],
            form.cleaned_data["round"],
            request.user,
            cancel=cancel,
            bye=bye,
        )
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        recorded = {
            RequestedBye.ZERO: _("The zero-point bye is recorded."),
            RequestedBye.HALF: _("The half-point bye is recorded."),
            RequestedBye.FULL: _("The full-point bye is recorded."),
        }
        messages.success(request, _("The bye is cancelled.") if cancel else recorded[bye])
    return _back(event, "entrants")


@require_POST
def night_byes(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """The byes players of this evening may ask for (the club's default when it started)."""
    event = night_for_director(request, slug, event_id)
    form = ByesForm(request.POST)
    if not form.is_valid():
        errors = form.errors.get("byes")
        messages.error(request, str(errors[0]) if errors else _("Choose the byes from the list."))
        return _back(event, "byes")
    try:
        allowed = evening.set_requestable_byes(event.pk, form.cleaned_data["byes"], request.user)
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("This evening's players may ask for: %(allowed)s.")
            % {"allowed": evening.allowed_byes_text(allowed)},
        )
    return _back(event, "byes")


@require_POST
def night_add(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = LateArrivalForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, str(errors[0]))
        return _back(event, "late")
    data = form.cleaned_data
    try:
        # A newcomer joins the roster and the evening together, or neither.
        with transaction.atomic():
            if data["player"]:
                player = Player.objects.filter(club=event.club_id, pk=data["player"]).first()
                if player is None:
                    raise PublishingError(_("Every player must be on this club's roster."))
            else:
                typed = data["newcomer_name"]
                found = check_newcomer(event.club, typed, new_person=data["new_person"])
                if found.close:
                    messages.warning(request, close_names_first())
                    url = reverse("night_evening", args=[event.club.slug, event.pk])
                    return redirect(f"{url}?{urlencode({'newcomer': typed.strip()})}#late")
                player = found.existing or players.add_player(
                    event.club,
                    typed,
                    junior=data["newcomer_junior"],
                    start_rating=None,
                    user=request.user,
                    held=True,
                )
                if found.existing is not None:
                    messages.info(request, already_on_roster(player, typed))
            evening.add_entrant(event.pk, player, request.user, missed=data["missed"] or None)
    except (PublishingError, RosterChangeError) as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s is playing from the next round.") % {"name": player})
    return _back(event, "entrants")


@require_POST
def night_pair(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = RoundForm(request.POST)
    if not form.is_valid() or form.cleaned_data["expected"] is None:
        return _unreadable(request, event)
    try:
        number = night_rounds.pair_next_round(
            event.pk,
            request.user,
            expected=form.cleaned_data["expected"],
            keep_apart=not form.cleaned_data["without_never_pair"],
        )
    except night_rounds.KeepingApartImpossible as error:
        # The page offers to pair without the never-pair list; nothing was paired.
        messages.error(request, error.message)
        url = reverse("night_evening", args=[event.club.slug, event.pk])
        return redirect(f"{url}?apart=failed#rounds")
    except PublishingError as error:
        messages.error(request, error.message)
        return _back(event)
    messages.success(request, _("Round %(round)d is paired.") % {"round": number})
    return redirect("night_sheet", slug=slug, event_id=event.pk, round_number=number)


@require_POST
def night_unpair(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    event = night_for_director(request, slug, event_id)
    form = RoundForm(request.POST)
    if not form.is_valid() or form.cleaned_data["round"] is None:
        return _unreadable(request, event)
    number = form.cleaned_data["round"]
    changed = night_rounds.changed_boards(event, number)
    if changed and not form.cleaned_data["confirm"] and not is_closed(event):
        # Pairing again throws the hand changes away: asked first, on a page of its own.
        return render(
            request,
            "directors/night/confirm.html",
            {
                "club": event.club,
                "event": event,
                "action": "unpair",
                "round_number": number,
                "boards": changed,
                "pairing": Round.pairing_of(event.pk, number),
            },
        )
    try:
        night_rounds.unpair_round(
            event.pk, number, request.user, pairing=form.cleaned_data["pairing"]
        )
    except PublishingError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("Round %(round)d is no longer paired: pair it again.") % {"round": number}
        )
    return _back(event)


@require_POST
def night_publish(request: AuthedRequest, slug: str, event_id: int) -> HttpResponse:
    """Publish; with rounds still to pair, only after a second step that says how many
    rounds will be rated (a mis-tap under "Pair round N" must not rate 1 of 5 rounds)."""
    event = night_for_director(request, slug, event_id)
    form = RoundForm(request.POST)
    if not form.is_valid():
        return _unreadable(request, event)
    paired, planned = event.paired_rounds(), event.planned_rounds or 0
    confirmed = form.cleaned_data["confirm"]
    if confirmed and form.cleaned_data["paired"] != paired:
        messages.error(
            request,
            _("The evening changed since you were asked: %(paired)d rounds are paired now.")
            % {"paired": paired},
        )
        confirmed = False
    if 0 < paired < planned and not confirmed and not is_closed(event):
        return render(
            request,
            "directors/night/confirm.html",
            {
                "club": event.club,
                "event": event,
                "action": "publish",
                "paired": paired,
                "planned": planned,
            },
        )
    try:
        night_rounds.publish_night(event.pk, request.user)
    except PublishingError as error:
        messages.error(request, error.message)
        return _back(event)
    messages.success(request, _("The event is published: the ladder is being updated."))
    return redirect("event_detail", slug=slug, event_id=event.pk)
