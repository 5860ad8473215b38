"""A club night run here: the entrants before and between rounds.

An event with a pairing system is a club night. It is a draft from the start: every
entrant comes from the roster, so publishing it (directors/night/rounds.py) needs no name
confirmed, and until then it never touches the ladder. The rounds themselves (pairing,
results by board, standings) are in directors/night/rounds.py.

Every change here locks the event row (`lock_night`) rather than claiming the edit
version a form carried: two directors at one evening, one ticking in a latecomer and one
recording a bye, must not refuse each other. Each still moves the edit version, so an
open results grid of the same event is told it is out of date.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import (
    REQUESTED_BYE_RESULTS,
    ROUND_ROBINS,
    Club,
    Entry,
    Event,
    FirstColour,
    Game,
    MissedRounds,
    PairingBye,
    PairingSystem,
    Player,
    RequestedBye,
    User,
    byes_text,
)
from directors.edits import PublishingError
from directors.events.drafts import EventDetails, create_event
from ladder.changes import OnPages, club_changed
from ladder.roster.ladders import seeding_ladder

# The start's third choice of first colour: drawn once, when the evening starts.
BY_LOT = "lot"


def draw_first_colour() -> str:
    """Seed 1's colour in round 1, drawn by lot."""
    return secrets.choice(FirstColour.values)


def seed_key(player: Player) -> tuple[bool, float, str]:
    """Seeds from the ladder: established players by rating, then provisional ones by
    rating (a player without one, last), then by name."""
    rating = player.rating if player.rating is not None else float("-inf")
    return (player.provisional or player.rating is None, -rating, player.name_key or player.name)


def round_robin_rounds(entrants: int, system: str) -> int:
    """Rounds of a Berger-table round robin: each meets each once (twice if double); none
    while fewer than two play (a section whose players are still to be moved in)."""
    if entrants < 2:
        return 0
    cycle = entrants - 1 if entrants % 2 == 0 else entrants
    return cycle * 2 if system == PairingSystem.DOUBLE_ROUND_ROBIN else cycle


def start_event(
    club: Club,
    *,
    name: str,
    date: dt.date,
    system: str,
    rounds: int | None,
    players: Sequence[Player],
    user: User | None,
    kind: str = Event.Kind.STANDARD,
    rated: bool = True,
    pairing_bye: str | None = None,
    first_colour: str = BY_LOT,
    accelerated: bool = False,
    least_players: int = 2,
) -> Event:
    """A new club night with these players, seeded from the ladder. A round robin's
    rounds follow from its size; `rounds` may be None for one, or must agree. The bye
    scores 1 in a Swiss and 0 in a round robin (the dummy's game) unless `pairing_bye`
    says otherwise. `first_colour`: seed 1's colour in round 1, white, black or drawn by
    lot here, once (stored, so pairing round 1 again gives the same boards).
    `least_players`: 0 for a section of an evening whose players are moved in on the evening
    page (directors.night.sections.start_sections checks each section's size itself); its
    first round is refused while it has fewer than two (directors.night.rounds)."""
    if system not in PairingSystem.values:
        raise PublishingError(_("Choose Swiss or round robin."))
    if pairing_bye is None:
        pairing_bye = PairingBye.ZERO if system in ROUND_ROBINS else PairingBye.FULL
    if pairing_bye not in PairingBye.values:
        raise PublishingError(_("Choose what the bye scores: 1, ½ or 0 points."))
    if first_colour not in (*FirstColour.values, BY_LOT):
        raise PublishingError(_("Choose white, black or by lot for the first colour."))
    if accelerated and system in ROUND_ROBINS:
        raise PublishingError(_("Only a Swiss can be accelerated."))
    _check_players(club, players, least_players)
    rounds = checked_rounds(system, rounds, len(players))
    by_lot = first_colour == BY_LOT
    if by_lot:
        first_colour = draw_first_colour()
    with transaction.atomic():
        event = create_event(club, EventDetails(name, date, 0, kind, rated), user)
        Event.objects.filter(pk=event.pk).update(
            pairing_system=system, planned_rounds=rounds, pairing_bye=pairing_bye,
            first_colour=first_colour, first_colour_by_lot=by_lot, accelerated=accelerated,
            # The byes players may ask for: the club's, changeable for this evening.
            requestable_byes=Club.objects.values_list("requestable_byes", flat=True).get(
                pk=club.pk
            ),
        )  # fmt: skip
        # Seeded by the ladder the night's kind feeds.
        ladder = seeding_ladder(club.pk, kind)
        standing = {
            p.pk: p for p in Player.objects.filter(pk__in=[p.pk for p in players]).rated_on(ladder)
        }
        ordered = sorted((standing[p.pk] for p in players), key=seed_key)
        Entry.objects.bulk_create(
            Entry(event=event, typed_name=player.name, player=player, start_rank=seed)
            for seed, player in enumerate(ordered, start=1)
        )
        audit.record(
            club, user, "club_night.started", event_id=event.pk, name=event.name,
            players=len(players), system=system, rounds=rounds,
        )  # fmt: skip
        club_changed(club.pk, OnPages())
    return Event.objects.select_related("club").get(pk=event.pk)


def _check_players(club: Club, players: Sequence[Player], least: int = 2) -> None:
    if len(players) < least:
        raise PublishingError(_("Tick at least two players."))
    if len(players) > settings.EVENT_MAX_ENTRANTS:
        raise PublishingError(
            _("An event can have at most %(max)d players.") % {"max": settings.EVENT_MAX_ENTRANTS}
        )
    if len({player.pk for player in players}) != len(players):
        raise PublishingError(_("A player is ticked twice."))
    if any(player.club_id != club.pk or player.merged_into_id is not None for player in players):
        raise PublishingError(_("Every player must be on this club's roster."))


def checked_rounds(system: str, rounds: int | None, entrants: int) -> int:
    if system in ROUND_ROBINS:
        needed = round_robin_rounds(entrants, system)
        if rounds is not None and rounds != needed:
            raise PublishingError(
                _("A round robin of %(players)d players has %(rounds)d rounds.")
                % {"players": entrants, "rounds": needed}
            )
        if entrants < 2:
            return 0  # a section still to be filled: its table follows the players moved in
        rounds = needed
    if rounds is None or rounds < 1:
        raise PublishingError(_("Choose the number of rounds."))
    if rounds > settings.EVENT_MAX_ROUNDS:
        raise PublishingError(
            _("An event can have at most %(max)d rounds.") % {"max": settings.EVENT_MAX_ROUNDS}
        )
    # An odd field has one more round: each player's one pairing-allocated bye covers it
    # (directors.night.pairing.max_swiss_rounds, not imported here: it loads the pairing engine).
    # A section still to be filled is checked again when its first round is paired.
    most = entrants if entrants % 2 else entrants - 1
    if system == PairingSystem.SWISS and entrants >= 2 and rounds > most:
        raise PublishingError(
            _("%(players)d players can play at most %(rounds)d Swiss rounds without a rematch.")
            % {"players": entrants, "rounds": most}
        )
    return rounds


# --- Changes between rounds ------------------------------------------------------------------


def lock_night(event_id: int) -> Event:
    """The club night, locked for this transaction; refused once it is published or deleted."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_night() must run inside transaction.atomic()")
    event = Event.objects.select_for_update().select_related("club").get(pk=event_id)
    if not event.pairing_system:
        raise PublishingError(_("This event was not run here as a club night."))
    if event.deleted_at is not None:
        raise PublishingError(_("This event is deleted: restore it before changing it."))
    if event.status == Event.Status.PUBLISHED:
        raise PublishingError(_("This event is published: its rounds can no longer change."))
    Event.objects.filter(pk=event_id).update(edit_version=F("edit_version") + 1)
    return event


def add_entrant(
    event_id: int, player: Player, user: User | None, *, missed: str | None = None
) -> Entry:
    """A late arrival (or a newcomer added on the spot) joins before the next round; they
    take the next seed, so nobody's pairing number moves under them. The rounds already
    paired are games without an opponent: an absence (0, TRF "Z") or a half-point bye (TRF
    "H"), `missed` as the director chose (by default the club's setting)."""
    with transaction.atomic():
        event = lock_night(event_id)
        if missed is None:
            missed = event.club.missed_rounds
        if missed not in MissedRounds.values:
            raise PublishingError(_("Choose what the missed rounds score: 0 or ½ point."))
        if player.club_id != event.club_id or player.merged_into_id is not None:
            raise PublishingError(_("Every player must be on this club's roster."))
        if event.entries.filter(player=player).exists():
            raise PublishingError(_("%(name)s is already playing.") % {"name": player.name})
        # One check-in for an evening of sections: a player plays in one of them.
        elsewhere = (
            Event.objects.filter(evening_id=event.evening_id, entries__player=player)
            .exclude(pk=event.pk)
            .not_deleted()
            .first()
            if event.evening_id is not None
            else None
        )
        if elsewhere is not None:
            raise PublishingError(
                _("%(name)s is already playing in %(section)s.")
                % {"name": player.name, "section": elsewhere.section}
            )
        paired = refuse_joining(event)
        last_seed = event.entries.aggregate(last=Max("start_rank"))["last"] or 0
        entry = Entry.objects.create(
            event=event, typed_name=player.name, player=player, start_rank=last_seed + 1
        )
        score_missed_rounds(entry, paired, missed)
        if event.pairing_system in ROUND_ROBINS:
            _update_round_robin_rounds(event)
        facts = {"missed": missed, "rounds": paired} if paired else {}
        audit.record(
            event.club_id, user, "entry.added", event_id=event.pk, typed_name=player.name,
            **facts,
        )  # fmt: skip
        club_changed(event.club_id, OnPages())
    return entry


def refuse_joining(event: Event) -> int:
    """Whether one more player may join this club night now (call inside its lock): not in a
    round robin already paired, not once every round is paired, not past the entrant limit.
    Returns how many rounds are paired already."""
    paired = event.paired_rounds()
    if event.pairing_system in ROUND_ROBINS and paired:
        raise PublishingError(_("A round robin's table is fixed once its first round is paired."))
    if paired and paired >= (event.planned_rounds or 0):
        raise PublishingError(_("Every round is paired: there is no round left to join."))
    if event.entries.count() >= settings.EVENT_MAX_ENTRANTS:
        raise PublishingError(
            _("An event can have at most %(max)d players.") % {"max": settings.EVENT_MAX_ENTRANTS}
        )
    return paired


def score_missed_rounds(entry: Entry, paired: int, missed: str) -> None:
    """A player joining after `paired` rounds: those rounds are games without an opponent,
    an absence or a half-point bye as `missed` says (MissedRounds), and they joined in the
    next round. Call inside the night's lock."""
    if not paired:
        return
    entry.joined_round = paired + 1
    entry.save(update_fields=["joined_round"])
    result = REQUESTED_BYE_RESULTS[missed]
    Game.objects.bulk_create(
        Game(event_id=entry.event_id, round=number, white=entry, result=result)
        for number in range(1, paired + 1)
    )


def rejoin_round(event: Event, round_number: int) -> None:
    """The last round's pairing was taken back (directors.night.rounds.unpair_round): a late
    entrant who joined after it was paired may play it now, so its missed-round game goes.
    Call inside the lock."""
    latecomers = event.entries.filter(joined_round=round_number + 1)
    Game.objects.filter(
        event=event, round=round_number, black__isnull=True, white__in=latecomers,
        result__in=[REQUESTED_BYE_RESULTS[m] for m in MissedRounds.values],
    ).delete()  # fmt: skip
    latecomers.update(joined_round=round_number if round_number > 1 else None)


def _update_round_robin_rounds(event: Event) -> None:
    rounds = round_robin_rounds(event.entries.count(), event.pairing_system)
    Event.objects.filter(pk=event.pk).update(planned_rounds=rounds)


def move_seed(event_id: int, entry_id: int, seed: int, user: User | None) -> None:
    """The director moves one entrant to seed `seed` (1 = top) before the first round; the
    others keep their order around it."""
    with transaction.atomic():
        event = lock_night(event_id)
        if event.paired_rounds():
            raise PublishingError(_("Seeds are fixed once the first round is paired."))
        entries = list(event.entries.order_by("start_rank", "id"))
        moving = next((entry for entry in entries if entry.pk == entry_id), None)
        if moving is None:
            raise PublishingError(_("That player is not in this event."))
        if not 1 <= seed <= len(entries):
            raise PublishingError(_("Choose a seed from 1 to %(count)d.") % {"count": len(entries)})
        entries.remove(moving)
        entries.insert(seed - 1, moving)
        for number, entry in enumerate(entries, start=1):
            entry.start_rank = number
        Entry.objects.bulk_update(entries, ["start_rank"])
        audit.record(
            event.club_id, user, "seed.moved", event_id=event.pk, typed_name=moving.typed_name,
            seed=seed,
        )  # fmt: skip
        club_changed(event.club_id, OnPages())


def withdraw(event_id: int, entry_id: int, user: User | None, *, back: bool = False) -> None:
    """Stop pairing an entrant from the next round on (or, `back`, pair them again)."""
    with transaction.atomic():
        event = lock_night(event_id)
        entry = _entry(event, entry_id)
        next_round = event.paired_rounds() + 1
        entry.withdrawn_from_round = None if back else next_round
        entry.save(update_fields=["withdrawn_from_round"])
        facts = {"event_id": event.pk, "typed_name": entry.typed_name, "round": next_round}
        if back:
            audit.record(event.club_id, user, "entrant.returned", **facts)
        else:
            audit.record(event.club_id, user, "entrant.withdrawn", **facts)
        club_changed(event.club_id, OnPages())


def request_bye(
    event_id: int,
    entry_id: int,
    round_number: int,
    user: User | None,
    *,
    cancel: bool = False,
    bye: str = RequestedBye.HALF,
) -> None:
    """Record (or cancel) a requested bye for a round not yet paired: `bye` is its TRF letter
    (Z 0, H ½, F 1 point), one the evening allows. Asked again with another worth, the bye
    is changed."""
    with transaction.atomic():
        event = lock_night(event_id)
        entry = _entry(event, entry_id)
        planned = event.planned_rounds or 0
        if not event.paired_rounds() < round_number <= planned:
            raise PublishingError(_("A bye can be asked for a round that is not paired yet."))
        byes = Game.objects.filter(event=event, round=round_number, white=entry, black__isnull=True)
        if cancel:
            if not byes.delete()[0]:
                raise PublishingError(_("There is no bye to cancel in that round."))
        else:
            if bye not in event.requestable_byes or bye not in REQUESTED_BYE_RESULTS:
                raise PublishingError(
                    _("This evening allows these byes only: %(allowed)s.")
                    % {"allowed": allowed_byes_text(event.requestable_byes)}
                )
            result = REQUESTED_BYE_RESULTS[bye]
            if byes.filter(result=result).exists():
                return  # asked twice: it stands, nothing to record again
            if not byes.update(result=result):
                Game.objects.create(event=event, round=round_number, white=entry, result=result)
        facts = {"event_id": event.pk, "typed_name": entry.typed_name, "round": round_number}
        if cancel:
            audit.record(event.club_id, user, "bye.cancelled", **facts)
        else:
            audit.record(event.club_id, user, "bye.requested", bye=bye, **facts)
        club_changed(event.club_id, OnPages())


def allowed_byes_text(letters: str) -> str:
    """The byes allowed, as the screens say them: "0 points, ½ point"."""
    labels = dict(RequestedBye.choices)
    return ", ".join(str(labels[letter]) for letter in letters if letter in labels)


def set_requestable_byes(event_id: int, letters: list[str] | str, user: User | None) -> str:
    """The byes players of this evening may ask for from now on (byes already recorded
    stand). Returns them as stored."""
    try:
        allowed = byes_text(letters)
    except ValueError:
        raise PublishingError(_("Allow at least one bye: 0, ½ or 1 point.")) from None
    with transaction.atomic():
        event = lock_night(event_id)
        old = event.requestable_byes
        if allowed != old:
            Event.objects.filter(pk=event.pk).update(requestable_byes=allowed)
            audit.record(
                event.club_id, user, "bye_settings.changed", event_id=event.pk, old=old,
                new=allowed,
            )  # fmt: skip
    return allowed


def _entry(event: Event, entry_id: int) -> Entry:
    entry = event.entries.filter(pk=entry_id).first()
    if entry is None:
        raise PublishingError(_("That player is not in this event."))
    return entry
