"""A club night of several sections (issue 36): one check-in, then an Open and a Minor, or
juniors beside adults, each paired, scored and published on its own.

Each section is an ordinary club night (clubs.models.Event with a pairing system), so its
rounds, results, standings, exports, ratings and publishing are directors/night/rounds.py's
and every page's, unchanged; the sections share a clubs.models.Evening, the same date and
kind and consecutive orders in the day, and each event's name ends with its section's
("Club night – Minor"). What only an evening of several sections does lives here: starting
them from one check-in, the rules a section may change before its first round, and moving
a player to another section before their section's first round is paired. A late arrival
joins one section (evening.add_entrant, which refuses a player already in another).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import (
    ROUND_ROBINS,
    Club,
    Entry,
    Evening,
    Event,
    PairingBye,
    PairingSystem,
    Player,
    User,
)
from directors.edits import PublishingError
from directors.night import evening, split
from ladder.changes import OnPages, club_changed
from ladder.roster.ladders import seeding_ladder

# Between the evening's name and the section's: "Club night – Minor".
SEPARATOR = " – "


@dataclass(frozen=True)
class Section:
    name: str
    players: Sequence[Player]


def section_title(evening_name: str, section: str) -> str:
    return f"{evening_name}{SEPARATOR}{section}"


def start_sections(
    club: Club,
    *,
    name: str,
    date: dt.date,
    sections: Sequence[Section],
    start: Callable[[str, Sequence[Player]], Event],
    user: User | None,
    chosen: bool = False,
) -> list[Event]:
    """The sections of one evening, highest first, each started by `start(name, players)`
    (directors.night.evening.start_event with the director's choices, `least_players=0`:
    the sizes are checked here) under the name "<name> – <section>", in one transaction: a
    section refused starts none. Split by rating or age, each section has two players or
    more; `chosen` per player (split.BY_CHOICE), everyone starts in the first and the others
    may start empty: the director moves players in before their first round, which is
    refused while a section has fewer than two (directors.night.rounds)."""
    if len(sections) < 2:
        raise PublishingError(_("An evening of sections has at least two."))
    everyone = [player.pk for section in sections for player in section.players]
    if len(everyone) < 2:
        raise PublishingError(_("Tick at least two players."))
    for section in sections if not chosen else ():
        if len(section.players) < 2:
            raise PublishingError(
                _("The section “%(section)s” has fewer than two players.")
                % {"section": section.name}
            )
    if len(set(everyone)) != len(everyone):
        raise PublishingError(_("A player is in two sections."))
    with transaction.atomic():
        group = Evening.objects.create(club=club, name=name, date=date)
        # After the day's events, in a row: the ladder rates the sections in this order.
        last = Event.objects.filter(club=club, date=date).aggregate(last=Max("order_in_day"))
        first_order = 0 if last["last"] is None else last["last"] + 1
        started = []
        for number, section in enumerate(sections):
            event = start(section_title(name, section.name), section.players)
            Event.objects.filter(pk=event.pk).update(
                evening=group, section=section.name, order_in_day=first_order + number
            )
            event.refresh_from_db()
            started.append(event)
    return started


def change_rules(
    event_id: int,
    *,
    system: str,
    rounds: int | None,
    pairing_bye: str | None,
    user: User | None,
) -> None:
    """A section's own system, rounds and bye score, before its first round is paired
    (each section starts with the rules the director chose for the evening)."""
    if system not in PairingSystem.values:
        raise PublishingError(_("Choose Swiss or round robin."))
    if pairing_bye is None:
        pairing_bye = PairingBye.ZERO if system in ROUND_ROBINS else PairingBye.FULL
    if pairing_bye not in PairingBye.values:
        raise PublishingError(_("Choose what the bye scores: 1, ½ or 0 points."))
    with transaction.atomic():
        event = evening.lock_night(event_id)
        if event.paired_rounds():
            raise PublishingError(_("A section's rules are fixed once its first round is paired."))
        if event.accelerated and system in ROUND_ROBINS:
            raise PublishingError(_("Only a Swiss can be accelerated."))
        checked = evening.checked_rounds(system, rounds, event.entries.count())
        Event.objects.filter(pk=event.pk).update(
            pairing_system=system, planned_rounds=checked, pairing_bye=pairing_bye
        )
        audit.record(
            event.club_id, user, "night_rules.changed", event_id=event.pk, system=system,
            rounds=checked, pairing_bye=pairing_bye,
        )  # fmt: skip
        club_changed(event.club_id, OnPages())


def move_entrant(event_id: int, entry_id: int, to_event_id: int, user: User | None) -> Entry:
    """The entrant leaves their section for another of the same evening, before their
    section's first round is paired; they join the other as a late arrival would (refused in
    a round robin already paired, or once every round is paired; the rounds it played
    without them scored as the club's setting for missed rounds says), and take the place their
    ladder standing gives them among its seeds while it is not paired yet. A bye they asked
    for in their old section is dropped with their entry there: the rounds are the other
    section's own."""
    with transaction.atomic():
        # Locked in id order, so two moves between the same sections cannot wait on each other.
        first, second = sorted({event_id, to_event_id})
        locked = {first: evening.lock_night(first), second: evening.lock_night(second)}
        source, target = locked[event_id], locked[to_event_id]
        if source.pk == target.pk or source.evening_id is None:
            raise PublishingError(_("Choose another section of this evening."))
        if target.evening_id != source.evening_id or target.club_id != source.club_id:
            raise PublishingError(_("Choose another section of this evening."))
        entry = source.entries.select_related("player").filter(pk=entry_id).first()
        if entry is None or entry.player is None:
            raise PublishingError(_("That player is not in this event."))
        if source.paired_rounds():
            raise PublishingError(
                _("The section “%(section)s” is paired already: its players stay in it.")
                % {"section": source.section}
            )
        target_paired = evening.refuse_joining(target)
        player = entry.player
        entry.delete()  # with any bye asked for: the other section's rounds are its own
        _renumber(source, list(source.entries.order_by("start_rank", "id")))
        moved = Entry.objects.create(event=target, typed_name=player.name, player=player)
        # The rounds the other section played without them score as a late arrival's do.
        evening.score_missed_rounds(moved, target_paired, target.club.missed_rounds)
        others = list(target.entries.exclude(pk=moved.pk).order_by("start_rank", "id"))
        if target_paired:
            others.append(moved)  # the next seed, as a late arrival: nobody's number moves
        else:
            others.insert(_seed_place(target, player, others), moved)
        _renumber(target, others)
        for event in (source, target):
            if event.pairing_system in ROUND_ROBINS:
                planned = evening.round_robin_rounds(event.entries.count(), event.pairing_system)
                Event.objects.filter(pk=event.pk).update(planned_rounds=planned)
        audit.record(
            source.club_id, user, "entrant.moved", event_id=source.pk, typed_name=player.name,
            to_event_id=target.pk, to_section=target.section,
        )  # fmt: skip
        club_changed(source.club_id, OnPages())
    return moved


def _seed_place(event: Event, player: Player, others: list[Entry]) -> int:
    """Where the player's ladder standing puts them among the section's seeds."""
    ladder = seeding_ladder(event.club_id, event.kind)
    ids = [player.pk] + [entry.player_id for entry in others if entry.player_id is not None]
    standing = {p.pk: p for p in Player.objects.filter(pk__in=ids).rated_on(ladder)}
    mine = evening.seed_key(standing[player.pk])
    for place, entry in enumerate(others):
        theirs = standing.get(entry.player_id) if entry.player_id is not None else None
        if theirs is not None and mine < evening.seed_key(theirs):
            return place
    return len(others)


def _renumber(event: Event, entries: list[Entry]) -> None:
    for seed, entry in enumerate(entries, start=1):
        entry.start_rank = seed
    Entry.objects.bulk_update(entries, ["start_rank"])


def plan_sections(
    club: Club,
    players: Sequence[Player],
    *,
    kind: str,
    how: str,
    thresholds: Sequence[int],
    names: Sequence[str],
) -> list[Section]:
    """The checked-in players split as the director asked (directors.night.split), with the
    ratings of the ladder the night's kind feeds; refused with a message to act on."""
    ladder = seeding_ladder(club.pk, kind)
    found = Player.objects.filter(pk__in=[p.pk for p in players]).rated_on(ladder)
    standing = {p.pk: p for p in found}
    checked_in = [
        split.CheckedIn(p.pk, standing[p.pk].rating if p.pk in standing else None, p.junior)
        for p in players
    ]
    count = len(thresholds) + 1 if how == split.BY_RATING else 2
    if how == split.BY_CHOICE:
        count = max(2, len([name for name in names if name.strip()]))
    try:
        ids = split.split(checked_in, how, thresholds=thresholds, sections=count)
        named = split.section_names(
            names, len(ids), split.default_names(how, len(ids), _("Adults"), _("Juniors"))
        )
    except split.SplitError as error:
        raise PublishingError(_split_message(error)) from None
    by_id = {player.pk: player for player in players}
    return [
        Section(name, [by_id[pk] for pk in section])
        for name, section in zip(named, ids, strict=True)
    ]


def _split_message(error: split.SplitError) -> str:
    facts = error.facts
    if error.reason == "sections":
        return _("An evening has from 2 to %(most)s sections.") % facts
    if error.reason == "thresholds":
        return _("Give from 1 to %(most)s ratings where a section starts.") % facts
    if error.reason == "order":
        return _("Give the ratings where a section starts from the lowest up, each once.")
    if error.reason == "names":
        return _("Give %(count)s section names, separated by commas, or none.") % facts
    if error.reason == "long":
        return _("A section's name has at most %(most)s characters.") % facts
    if error.reason == "twice":
        return _("Each section needs a name of its own.")
    return _("Choose how to split the players into sections.")
