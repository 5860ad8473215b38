"""Events from draft to published ladder input: results in, names confirmed, preview, publish.

Each function that changes an event is one transaction. It first claims the event's
`edit_version` with a conditional UPDATE (a save based on an older version is refused,
never applied over somebody else's), then changes the rows, writes the audit entry and,
when the event is a published ladder input, calls `ladder_inputs_changed`. Views and the
`import_event` command are thin callers. Nothing here links a typed name to a player
unless a `NameDecision` says so.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clubs import audit
from clubs.date_notes import event_date_note, from_stored, stored_date
from clubs.importers import ImportedEvent, ImportedGame, ImportedPlayer, ImportFileError
from clubs.importers.base import name_key as typed_key
from clubs.merging import REASON_LABELS, prepared_roster
from clubs.models import Club, Entry, Event, Game, Player
from ladder.changes import club_pages_changed, ladder_inputs_changed
from ladder.explain import ChangeSum, change_sum
from ladder.history import rate_history
from ladder.models import PlayerEventResult
from ladder.policies import get_policy
from ladder.policies.base import EventInput, GameInput, PlayerState
from ladder.replay import load_inputs
from ladder.results import Result
from matching import Reason, Suggestion, clean_name, suggest_prepared
from matching import name_key as player_key

# A TRF of the largest allowed event (settings.EVENT_MAX_*) is under 1 MiB, its CSV about
# 2.4 MiB with the longest names; config/settings.py keeps the upload handler in line.
MAX_UPLOAD_BYTES = 4 * 1024 * 1024
MAX_NAME_LENGTH = Entry._meta.get_field("typed_name").max_length
MAX_EVENT_NAME_LENGTH = Event._meta.get_field("name").max_length
MAX_ROUND = 999
MAX_VARIANT_LENGTH = Game._meta.get_field("variant").max_length
SUGGESTIONS = 5
# Fields of an event that the ladder depends on; the name is not one of them.
_LADDER_FIELDS = ("date", "order_in_day", "kind", "rated")


class PublishingError(Exception):
    """A change that is refused; `message` is written for the director."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleEditError(PublishingError):
    """The event changed since the form was shown: nothing was saved."""


@dataclass(frozen=True)
class EventDetails:
    name: str
    date: dt.date
    order_in_day: int = 0
    kind: str = Event.Kind.STANDARD
    rated: bool = True

    def checked(self) -> EventDetails:
        name = " ".join(self.name.split())
        if not name:
            raise PublishingError(_("Give the event a name."))
        if len(name) > MAX_EVENT_NAME_LENGTH:
            raise PublishingError(
                _("The event name is longer than %(max)d characters.")
                % {"max": MAX_EVENT_NAME_LENGTH}
            )
        if self.kind not in Event.Kind.values:
            raise PublishingError(_("Choose the kind of event from the list."))
        if not 0 <= self.order_in_day <= 32767:
            raise PublishingError(_("The order in the day must be between 0 and 32767."))
        return EventDetails(name, self.date, self.order_in_day, self.kind, self.rated)


# --- Creating events and storing results ---------------------------------------------------


def create_event(club: Club, details: EventDetails, user: Any) -> Event:
    """A new draft event without results."""
    details = details.checked()
    with transaction.atomic():
        event = Event.objects.create(club=club, **_fields(details))
        audit.record(club, user, "event.create", event_id=event.pk, name=event.name)
    return event


def update_event(event_id: int, version: int, details: EventDetails, user: Any) -> Event:
    """Change the name, date, order in the day, kind or rated flag."""
    details = details.checked()
    with transaction.atomic():
        event = _claim(event_id, version)
        new = _fields(details)
        changed = sorted(name for name, value in new.items() if getattr(event, name) != value)
        Event.objects.filter(pk=event.pk).update(**new)
        audit.record(event.club_id, user, "event.update", event_id=event.pk, changed=changed)
        if event.is_published and set(changed) & set(_LADDER_FIELDS):
            earliest = min(event.date, new.get("date", event.date))
            ladder_inputs_changed(event.club_id, from_date=earliest)
        if "name" in changed:
            club_pages_changed(event.club_id)
    return _reload(event_id)


def create_draft_from_import(
    club: Club, imported: ImportedEvent, details: EventDetails, user: Any, *, source: str = "file"
) -> Event:
    """A draft event holding an imported file's players and games, in one transaction."""
    details = details.checked()
    check_imported(imported)
    with transaction.atomic():
        event = Event.objects.create(club=club, **_fields(details))
        audit.record(club, user, "event.create", event_id=event.pk, name=event.name)
        _store_results(event, imported, replace_entries=True, user=user, source=source)
    return _reload(event.pk)


def set_results(
    event_id: int,
    version: int,
    imported: ImportedEvent,
    user: Any,
    *,
    source: str,
    replace_entries: bool,
) -> Event:
    """Replace the event's games with `imported`'s.

    Entrants are matched by their typed name, so confirmed links survive a corrected
    file. With `replace_entries` (a whole file or pasted CSV) entrants missing from
    `imported` are removed; without it (the grid) they stay, game or no game. A
    published event takes no name that is not a confirmed entrant yet: its ladder
    must never depend on an unconfirmed name.
    """
    check_imported(imported)
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        _store_results(event, imported, replace_entries=replace_entries, user=user, source=source)
    return _reload(event_id)


def set_round_results(
    event_id: int, version: int, round_no: int, imported: ImportedEvent, user: Any
) -> Event:
    """Replace the games of one round with `imported`'s (the grid of a large event, one round
    at a time); other rounds and every entrant stay, as with the whole grid."""
    if any(game.round != round_no for game in imported.games):
        raise ImportFileError(
            _("Every row of this page belongs to round %(round)d.") % {"round": round_no}
        )
    check_imported(imported)
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        _store_results(
            event, imported, replace_entries=False, user=user, source="grid", only_round=round_no
        )
    return _reload(event_id)


def check_imported(imported: ImportedEvent) -> None:
    """What the database or the event limits would refuse, as a message naming the line or
    the limit. Every way results come in (files, pasted CSV, the grid, `import_event`) passes
    here before anything is stored."""
    check_size(len(imported.players), (game.round for game in imported.games))
    for player in imported.players:
        if len(player.name) > MAX_NAME_LENGTH:
            raise ImportFileError.at(
                player.line,
                _("the name “%(name)s…” is longer than %(max)d characters.")
                % {"name": player.name[:40], "max": MAX_NAME_LENGTH},
            )
    for game in imported.games:
        if game.round > MAX_ROUND:
            raise ImportFileError.at(
                game.line,
                _("round %(round)d is above %(max)d.") % {"round": game.round, "max": MAX_ROUND},
            )


def check_size(entrants: int, rounds_of_games: Iterable[int]) -> None:
    """Refuse an event above the limits of settings.EVENT_MAX_* (one round of each game or bye
    in `rounds_of_games`): they bound the work of every page and replay of one event."""
    per_round = Counter(rounds_of_games)
    games = sum(per_round.values())
    busiest = max(per_round.values(), default=0)
    entrants_text = _("These results have %(count)s entrants; an event can have at most %(max)s.")
    rounds_text = _("These results have %(count)s rounds; an event can have at most %(max)s.")
    games_text = _(
        "These results have %(count)s games and byes; an event can have at most %(max)s."
    )
    round_text = _(
        "One round of these results has %(count)s games and byes; a round can have at most %(max)s."
    )
    refused = [
        (entrants, settings.EVENT_MAX_ENTRANTS, entrants_text),
        (len(per_round), settings.EVENT_MAX_ROUNDS, rounds_text),
        (games, settings.EVENT_MAX_GAMES, games_text),
        # One row an entrant a round: this also bounds one round's page of the grid.
        (busiest, settings.EVENT_MAX_ENTRANTS, round_text),
    ]
    for count, limit, message in refused:
        if count > limit:
            raise ImportFileError(
                message
                % {
                    "count": number_format(count, force_grouping=True),
                    "max": number_format(limit, force_grouping=True),
                }
            )


def _store_results(
    event: Event,
    imported: ImportedEvent,
    *,
    replace_entries: bool,
    user: Any,
    source: str,
    only_round: int | None = None,
) -> None:
    matched, new_players, leftover = _match_entries(event, imported, replace_entries)
    if event.status == Event.Status.PUBLISHED:
        _refuse_unconfirmed(imported, matched, new_players)
    stored = Game.objects.filter(event=event)
    if only_round is not None:
        stored = stored.filter(round=only_round)
    if not replace_entries:
        # The grid keeps every entrant and (one round at a time) the other rounds' games.
        kept = Game.objects.none()
        if only_round is not None:
            kept = Game.objects.filter(event=event).exclude(round=only_round)
        check_size(
            event.entries.count() + len(new_players),
            [*kept.values_list("round", flat=True), *(game.round for game in imported.games)],
        )
    stored.delete()
    if replace_entries:
        Entry.objects.filter(pk__in=[entry.pk for entry in leftover]).delete()
        for player in imported.players:
            entry = matched.get(player.key)
            if entry is not None:
                entry.start_rank = player.key
                entry.rating_in_file = _file_rating(player.rating)
                entry.junior_in_file = player.junior
        Entry.objects.bulk_update(
            matched.values(), ["start_rank", "rating_in_file", "junior_in_file"], batch_size=1000
        )
    ranks = [] if replace_entries else event.entries.values_list("start_rank", flat=True)
    next_rank = max((rank or 0 for rank in ranks), default=0)
    created = Entry.objects.bulk_create(
        (
            Entry(
                event=event,
                typed_name=player.name,
                start_rank=player.key if replace_entries else next_rank + at,
                rating_in_file=_file_rating(player.rating),
                junior_in_file=player.junior,
            )
            for at, player in enumerate(new_players, start=1)
        ),
        batch_size=1000,
    )
    matched.update({player.key: entry for player, entry in zip(new_players, created, strict=True)})
    Game.objects.bulk_create(
        (
            Game(
                event=event,
                round=game.round,
                white=matched[game.white],
                black=matched[game.black] if game.black is not None else None,
                result=game.result.value,
                variant=game.variant,
            )
            for game in imported.games
        ),
        batch_size=2000,
    )
    # Rounds numbered by the importer stay marked until results come in another way (the grid).
    marks: dict[str, Any] = {}
    if event.rounds_from_order != imported.rounds_from_order:
        marks["rounds_from_order"] = imported.rounds_from_order
    # The file's date reading goes with the results it came with; one round saved in the grid
    # leaves the rest of the file's results, and its date, in place.
    file_date = stored_date(imported.date, imported.date_source)
    if only_round is None and event.file_date != file_date:
        marks["file_date"] = file_date
    if marks:
        Event.objects.filter(pk=event.pk).update(**marks)
    audit.record(
        event.club_id,
        user,
        "event.results",
        event_id=event.pk,
        source=source,
        games=len(imported.games),
        new_names=len(created),
        **({"round": only_round} if only_round is not None else {}),
    )
    if event.is_published:
        ladder_inputs_changed(event.club_id, from_date=event.date)


def _match_entries(
    event: Event, imported: ImportedEvent, replace_entries: bool
) -> tuple[dict[int, Entry], list[ImportedPlayer], list[Entry]]:
    """The event's entrants by imported player key, the imported players without one, and
    the entrants no imported player matched. Typed names match after trimming and case."""
    existing: dict[str, list[Entry]] = {}
    for entry in event.entries.order_by("start_rank", "id"):
        existing.setdefault(typed_key(entry.typed_name), []).append(entry)
    matched: dict[int, Entry] = {}
    new_players: list[ImportedPlayer] = []
    for player in imported.players:
        same = existing.get(typed_key(player.name))
        if same and len(same) > 1 and not replace_entries:
            raise ImportFileError(
                _(
                    "Row %(row)d: %(count)d entrants of this event are called %(name)s, so the "
                    "grid cannot tell them apart; correct their games by uploading the file again."
                )
                % {"row": player.line, "count": len(same), "name": player.name},
                line=player.line,
            )
        if same:
            matched[player.key] = same.pop(0)
        else:
            new_players.append(player)
    leftover = [entry for entries in existing.values() for entry in entries]
    return matched, new_players, leftover


def _refuse_unconfirmed(
    imported: ImportedEvent, matched: dict[int, Entry], new_players: list[ImportedPlayer]
) -> None:
    """A published event's ladder must never depend on a name nobody confirmed."""
    needed = [g for g in imported.games if not kept_without_player(g.black, g.result)]
    with_games = {game.white for game in needed} | {
        game.black for game in needed if game.black is not None
    }
    new_keys = {player.key for player in new_players}
    unconfirmed = [
        player.name
        for player in imported.players
        if player.key in with_games
        and (player.key in new_keys or matched[player.key].player_id is None)
    ]
    if unconfirmed:
        raise PublishingError(
            _(
                "These names are not confirmed players of this published event: %(names)s. "
                "Add them under Names and confirm them first, or unpublish the event."
            )
            % {"names": _listed(unconfirmed)}
        )


def _file_rating(rating: int | None) -> int | None:
    """A rating printed in a file, if it fits the column (PGN allows five digits)."""
    return rating if rating is not None and 0 < rating <= 9999 else None


# --- The results grid -----------------------------------------------------------------------


@dataclass(frozen=True)
class GridRow:
    """One row of the results grid as typed; `number` counts from 1 as the page shows it."""

    number: int
    round: str
    white: str
    black: str
    result: str
    # The game's variant as stored (the grid shows it and sends it back unchanged), so
    # editing a Chess960 game's round or result keeps it out of the ladder.
    variant: str = ""


def grid_to_imported(rows: Sequence[GridRow]) -> ImportedEvent:
    """The grid's rows as an imported event. A blank round carries the previous row's round;
    rows without names and result are skipped. Errors name the row."""
    players: dict[str, ImportedPlayer] = {}
    games: list[ImportedGame] = []
    seen: dict[tuple[int, int], int] = {}
    current_round = 1
    for row in rows:
        white, black = clean_name(row.white), clean_name(row.black)
        if not (white or black or row.result.strip()):
            continue
        current_round = _grid_round(row, current_round)
        result = _grid_result(row, white, black)
        keys = []
        for name in (white, black):
            if not name:
                continue
            if len(name) > MAX_NAME_LENGTH:
                raise _row_error(
                    row, _("a name is longer than %(max)d characters.") % {"max": MAX_NAME_LENGTH}
                )
            player = players.get(typed_key(name))
            if player is None:
                player = ImportedPlayer(len(players) + 1, name, None, None, None, row.number)
                players[typed_key(name)] = player
            earlier = seen.get((current_round, player.key))
            if earlier is not None:
                raise _row_error(
                    row,
                    _("%(name)s already plays in round %(round)d on row %(other)d.")
                    % {"name": name, "round": current_round, "other": earlier},
                )
            seen[(current_round, player.key)] = row.number
            keys.append(player.key)
        games.append(
            ImportedGame(
                current_round,
                keys[0],
                keys[1] if len(keys) > 1 else None,
                result,
                row.number,
                "" if result.is_bye else " ".join(row.variant.split())[:MAX_VARIANT_LENGTH],
            )
        )
    return ImportedEvent(
        name=None,
        date=None,
        time_control=None,
        rounds=len({game.round for game in games}),
        players=tuple(players.values()),
        games=tuple(games),
        warnings=(),
    )


def _grid_round(row: GridRow, previous: int) -> int:
    text = row.round.strip()
    if not text:
        return previous
    if not text.isdigit() or not 1 <= int(text) <= MAX_ROUND:
        raise _row_error(
            row, _("the round '%(round)s' is not a number from 1 to 999.") % {"round": text}
        )
    return int(text)


def _grid_result(row: GridRow, white: str, black: str) -> Result:
    if not white:
        raise _row_error(row, _("the white player is empty."))
    try:
        result = Result(row.result.strip())
    except ValueError:
        raise _row_error(row, _("choose a result from the list.")) from None
    if black and typed_key(white) == typed_key(black):
        raise _row_error(row, _("%(name)s is paired with themselves.") % {"name": white})
    if result.is_bye and black:
        raise _row_error(row, _("a bye has no opponent: leave black empty or choose a result."))
    if not result.is_bye and not black:
        raise _row_error(row, _("black is empty: fill in the opponent or choose a bye."))
    return result


def _row_error(row: GridRow, problem: str) -> ImportFileError:
    return ImportFileError(
        _("Row %(row)d: %(problem)s") % {"row": row.number, "problem": problem}, line=row.number
    )


def grid_rows(event: Event, round_no: int | None = None) -> list[GridRow]:
    """The event's games (or one round's) as grid rows, in round order."""
    games = event.games.select_related("white", "black").order_by("round", "id")
    if round_no is not None:
        games = games.filter(round=round_no)
    return [
        GridRow(
            number=number,
            round=str(game.round),
            white=game.white.typed_name,
            black=game.black.typed_name if game.black is not None else "",
            result=game.result,
            variant=game.variant,
        )
        for number, game in enumerate(games, start=1)
    ]


# --- Reviewing names -------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    player_id: int
    name: str
    matched: str  # the roster name or alias that matched
    score: float
    reason: Reason
    preselect: bool

    @property
    def reason_label(self) -> Promise:
        return REASON_LABELS[self.reason]


@dataclass(frozen=True)
class NameReview:
    entry_id: int
    typed_name: str
    start_rank: int | None
    rating_in_file: int | None
    junior_in_file: bool | None
    games: int  # rows in the event, byes included
    played: int  # games played over the board
    player_id: int | None  # the confirmed link, if any
    player_name: str | None
    candidates: tuple[Candidate, ...] = field(default=())

    @property
    def played_no_game(self) -> bool:
        return self.played == 0

    @property
    def preselected(self) -> Candidate | None:
        return next((c for c in self.candidates if c.preselect), None)


def played(result: Result) -> bool:
    """Whether a game's result means both people were at the board."""
    return result.is_played or result.is_unrated_result


def review_names(
    event: Event, *, include_confirmed: bool = False, suggest: bool = True
) -> list[NameReview]:
    """Every unconfirmed entrant (or every entrant) with ranked suggestions from the roster.

    Without `suggest` the reviews have no candidates: reading a submitted names form needs
    the entrants and their games, and the suggestions are most of the work (a names form of
    2,000 entrants would otherwise compute them again only to check the choices)."""
    entries = list(event.entries.select_related("player").order_by("start_rank", "id"))
    games: dict[int, int] = {}
    played_games: dict[int, int] = {}
    over_the_board = {result.value for result in Result if played(result)}  # 30,000 games
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        at_board = result in over_the_board
        for side in (white, black):
            if side is not None:
                games[side] = games.get(side, 0) + 1
                if at_board:
                    played_games[side] = played_games.get(side, 0) + 1
    shown = [e for e in entries if include_confirmed or e.player_id is None]
    if not shown:
        return []
    taken = {e.player_id: e.pk for e in entries if e.player_id is not None}
    found: dict[int, list[tuple[int, Suggestion]]] = {e.pk: [] for e in shown}
    roster, owners = prepared_roster(event.club) if suggest else (None, None)
    for entry in shown if suggest else ():
        suggestions = suggest_prepared(entry.typed_name, roster, SUGGESTIONS)
        # A player who already has a place in this event is no candidate for another name.
        found[entry.pk] = [
            (owners[s.index], s)
            for s in suggestions
            if taken.get(owners[s.index], entry.pk) == entry.pk
        ]
    names = dict(
        Player.objects.filter(
            pk__in={pid for rows in found.values() for pid, _s in rows}
        ).values_list("id", "name")
    )
    reviews = []
    for entry in shown:
        candidates = tuple(
            Candidate(pid, names[pid], roster.names[s.index], s.score, s.reason, s.preselect)
            for pid, s in found[entry.pk]
        )
        reviews.append(
            NameReview(
                entry_id=entry.pk,
                typed_name=entry.typed_name,
                start_rank=entry.start_rank,
                rating_in_file=entry.rating_in_file,
                junior_in_file=entry.junior_in_file,
                games=games.get(entry.pk, 0),
                played=played_games.get(entry.pk, 0),
                player_id=entry.player_id,
                player_name=entry.player.name if entry.player is not None else None,
                candidates=candidates,
            )
        )
    return reviews


class Action(enum.StrEnum):
    LINK = "link"  # an existing player
    NEW = "new"  # a new player named as typed
    NONE = "none"  # no player: a placeholder or a no-show (only without a played game)


@dataclass(frozen=True)
class NameDecision:
    entry_id: int
    action: Action
    player_id: int | None = None  # for LINK
    start_rating: float | None = None  # for NEW: the director's estimate


@dataclass(frozen=True)
class DecisionsApplied:
    linked: int
    created: int
    dropped: int  # entrants whose player or byes the decisions took away
    left_out: int = 0  # entrants the decisions leave without a player, changed or not


def apply_name_decisions(
    event_id: int, version: int, decisions: Sequence[NameDecision], user: Any
) -> DecisionsApplied:
    """Confirm typed names: link each to an existing player, a new player, or none.

    "None" is for entrants who played no game (a "spielfrei" placeholder, a no-show):
    no player is made and their own byes go; a forfeit or double forfeit against them stays
    as the file wrote it (never rated), so the opponent's points and the file's story hold.
    """
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        applied = _apply_decisions(event, decisions)
        audit.record(
            event.club_id,
            user,
            "event.names",
            event_id=event.pk,
            linked=applied.linked,
            created=applied.created,
            dropped=applied.dropped,
        )
        if event.is_published and (applied.linked or applied.created or applied.dropped):
            ladder_inputs_changed(event.club_id, from_date=event.date)
        if applied.created:
            club_pages_changed(event.club_id)  # new players join the roster page at once
    return applied


def _apply_decisions(event: Event, decisions: Sequence[NameDecision]) -> DecisionsApplied:
    entries = {e.pk: e for e in event.entries.select_for_update().order_by("id")}
    links = {pk: e.player_id for pk, e in entries.items()}
    played_by: set[int] = set()
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        if black is not None and played(Result(result)):
            played_by.update((white, black))
    wanted = {d.player_id for d in decisions if d.action == Action.LINK}
    players = {
        p.pk: p for p in Player.objects.filter(pk__in=wanted, club_id=event.club_id).active()
    }
    for decision in decisions:
        entry = entries.get(decision.entry_id)
        if entry is None:
            raise PublishingError(_("A name in the form is no longer part of this event."))
        if decision.action == Action.LINK:
            if decision.player_id not in players:
                raise PublishingError(
                    _("%(name)s: choose a player of this club's roster.")
                    % {"name": entry.typed_name}
                )
            links[entry.pk] = decision.player_id
        elif decision.action == Action.NONE:
            if entry.pk in played_by:
                raise PublishingError(
                    _("%(name)s played a game: choose an existing or a new player.")
                    % {"name": entry.typed_name}
                )
            links[entry.pk] = None
        elif decision.start_rating is not None and not 0 <= decision.start_rating <= 4000:
            raise PublishingError(
                _("%(name)s: a starting rating must be between 0 and 4000.")
                % {"name": entry.typed_name}
            )
    seen: dict[int, int] = {}
    new_entries = {d.entry_id for d in decisions if d.action == Action.NEW}
    for entry_pk, player_id in links.items():
        if player_id is None or entry_pk in new_entries:
            continue
        if player_id in seen:
            name = Player.objects.get(pk=player_id).name
            raise PublishingError(
                _("%(first)s and %(second)s cannot both be %(player)s: one person, one place.")
                % {
                    "first": entries[seen[player_id]].typed_name,
                    "second": entries[entry_pk].typed_name,
                    "player": name,
                }
            )
        seen[player_id] = entry_pk

    linked = created = dropped = left_out = 0
    # New players and links are written in bulk: a names form of 2,000 entrants would
    # otherwise cost two queries a name.
    made: list[tuple[Entry, Player]] = []
    relinked: list[Entry] = []
    for decision in decisions:
        entry = entries[decision.entry_id]
        if decision.action == Action.NEW:
            name = clean_name(entry.typed_name)
            player = Player(
                club_id=event.club_id,
                name=name,
                name_key=player_key(name),
                junior=bool(entry.junior_in_file),
                start_rating=decision.start_rating,
            )
            made.append((entry, player))
            created += 1
        elif decision.action == Action.LINK:
            if entry.player_id != decision.player_id:
                entry.player_id = decision.player_id
                relinked.append(entry)
                linked += 1
        else:
            # Counted whether or not anything changes: an entrant with no game at all (a team
            # reserve, a "spielfrei" that was only absent) is left without a player too.
            left_out += 1
            own_byes = Game.objects.filter(white=entry, black__isnull=True)
            if entry.player_id is not None or own_byes.exists():
                Entry.objects.filter(pk=entry.pk).update(player=None)
                own_byes.delete()
                dropped += 1
    Player.objects.bulk_create([player for _entry, player in made], batch_size=1000)
    for entry, player in made:
        entry.player_id = player.pk
    Entry.objects.bulk_update(
        [*relinked, *(entry for entry, _player in made)], ["player"], batch_size=500
    )
    return DecisionsApplied(linked, created, dropped, left_out)


def _has_games(entry: Entry) -> bool:
    return Game.objects.filter(Q(white=entry) | Q(black=entry)).exists()


# What an entrant without a player may keep: a forfeit, double forfeit or unfinished pairing
# against another entrant. The file said so, nothing rates it, and turning it into a bye
# would store a pairing-allocated bye the file never gave.
_KEPT_WITHOUT_PLAYER = [result.value for result in Result if result.is_forfeit]


def kept_without_player(black: int | None, result: Result | str) -> bool:
    """Whether a game (``black`` None for a bye) may keep a side that has no player."""
    return black is not None and Result(result).is_forfeit


@dataclass(frozen=True)
class AutomaticDecisions:
    decisions: list[NameDecision]
    pending: list[str]  # typed names that need a director's decision


def automatic_decisions(reviews: Iterable[NameReview], *, link_exact: bool) -> AutomaticDecisions:
    """What a bulk import may decide alone: an entrant without a played game gets no player,
    a name without any candidate a new player, and (with `link_exact`) a name that is the same
    after normalisation as exactly one player that player. Everything else waits."""
    decisions: list[NameDecision] = []
    pending: list[str] = []
    for review in reviews:
        if review.player_id is not None:
            continue
        if review.played_no_game:
            decisions.append(NameDecision(review.entry_id, Action.NONE))
        elif not review.candidates:
            decisions.append(NameDecision(review.entry_id, Action.NEW))
        elif link_exact and review.preselected is not None:
            decisions.append(
                NameDecision(review.entry_id, Action.LINK, review.preselected.player_id)
            )
        else:
            pending.append(review.typed_name)
    return AutomaticDecisions(decisions, pending)


def add_entry(event_id: int, version: int, typed_name: str, user: Any) -> Entry:
    """A new entrant without games, to be confirmed under Names (and then given games)."""
    name = clean_name(typed_name)
    if not name:
        raise PublishingError(_("Type the name to add."))
    if len(name) > MAX_NAME_LENGTH:
        raise PublishingError(
            _("The name is longer than %(max)d characters.") % {"max": MAX_NAME_LENGTH}
        )
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        taken = {typed_key(n) for n in event.entries.values_list("typed_name", flat=True)}
        if typed_key(name) in taken:
            raise PublishingError(_("%(name)s is already in this event.") % {"name": name})
        if len(taken) >= settings.EVENT_MAX_ENTRANTS:
            raise PublishingError(
                _("This event has %(max)s entrants, the most an event can have.")
                % {"max": number_format(settings.EVENT_MAX_ENTRANTS, force_grouping=True)}
            )
        rank = max((r or 0 for r in event.entries.values_list("start_rank", flat=True)), default=0)
        entry = Entry.objects.create(event=event, typed_name=name, start_rank=rank + 1)
        audit.record(event.club_id, user, "event.entry_add", event_id=event.pk, typed_name=name)
    return entry


def remove_entry(event_id: int, version: int, entry_id: int, user: Any) -> None:
    """Remove an entrant who has no game in the event (take their games out first)."""
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        entry = event.entries.filter(pk=entry_id).first()
        if entry is None:
            raise PublishingError(_("This name is no longer part of the event."))
        if _has_games(entry):
            raise PublishingError(
                _("%(name)s still has games in this event: remove them in the results first.")
                % {"name": entry.typed_name}
            )
        entry.delete()
        audit.record(
            event.club_id,
            user,
            "event.entry_remove",
            event_id=event.pk,
            typed_name=entry.typed_name,
        )


# --- Preview and publish ---------------------------------------------------------------------


@dataclass(frozen=True)
class PreviewRow:
    player_id: int
    name: str
    typed_name: str
    pre_rating: float
    k: float | None
    provisional: bool
    games_counted: int
    expected: float
    actual: float
    change: float
    post_rating: float
    rated_games_after: int

    @cached_property
    def printed(self) -> ChangeSum:
        """Before, change and after as the public pages will print them: they add up."""
        return change_sum(
            pre=self.pre_rating,
            post=self.post_rating,
            change=self.change,
            k=self.k,
            actual=self.actual,
            expected=self.expected,
        )


@dataclass(frozen=True)
class EventPreview:
    rows: list[PreviewRow]
    unconfirmed: list[str]  # entrants with games but no confirmed player: no preview yet
    ladder_current: bool  # False: computed by replaying the earlier events in memory
    events_before: int
    # (variant, games) of the games that were not standard chess: never rated.
    variants: tuple[tuple[str, int], ...] = ()
    # Which date the imported file gave, from which record, and what to check; "" if none.
    date_note: str = ""


def preview_event(event: Event) -> EventPreview:
    """The rating change each player gets from this event, against the ladder as it stands
    at the event's place in the order (date, order in the day, creation). Writes nothing.

    The states before the event come from the stored results of the events before it when
    the ladder is up to date, else from an in-memory replay of those events.
    """
    club = Club.objects.get(pk=event.club_id)
    entries = {e.pk: e for e in event.entries.select_related("player")}
    game_rows = list(
        event.games.values_list("id", "round", "white_id", "black_id", "result", "variant")
    )
    # An entrant left without a player keeps its forfeits as the file wrote them (never
    # rated); every other game needs a player on both sides.
    needed = [row for row in game_rows if not kept_without_player(row[3], row[4])]
    with_games = {row[2] for row in needed} | {row[3] for row in needed if row[3] is not None}
    variants = tuple(Counter(row[5] for row in game_rows if row[5]).items())
    unconfirmed = [entries[pk].typed_name for pk in sorted(with_games) if not entries[pk].player_id]
    before_count = _events_before(event)
    read = from_stored(event.file_date)
    note = event_date_note(*read, event.date) if read is not None else ""
    if unconfirmed:
        return EventPreview(
            [],
            unconfirmed,
            club.ladder_is_current,
            before_count,
            variants=variants,
            date_note=note,
        )
    player_of = {pk: e.player_id for pk, e in entries.items()}
    game_rows = [
        row for row in game_rows if player_of[row[2]] and (row[3] is None or player_of[row[3]])
    ]
    event_input = EventInput(
        id=event.pk,
        rated=event.rated,
        bughouse=event.kind == Event.Kind.BUGHOUSE,
        games=tuple(
            GameInput(
                id=gid,
                round=round_no,
                white=player_of[white],
                black=player_of[black] if black is not None else None,
                result=Result(result),
                variant=bool(variant),
            )
            for gid, round_no, white, black, result, variant in game_rows
        ),
    )
    participants = {player_of[pk] for row in game_rows for pk in row[2:4] if pk is not None}
    policy = get_policy(club.rating_policy)
    settings = policy.parse_settings(club.rating_settings)
    if club.ladder_is_current:
        before = _stored_states(club, participants, before_count, policy.start_rating(settings))
    else:
        inputs = load_inputs(club)
        earlier = [e for e in inputs.events if e.id != event.pk][:before_count]
        _steps, final = rate_history(policy, settings, earlier, inputs.initial)
        before = {pid: final[pid] for pid in participants}
    rating = policy.rate_event(event_input, before, settings)
    by_player = {e.player_id: e for e in entries.values() if e.player_id is not None}
    rows = [
        PreviewRow(
            player_id=pid,
            name=by_player[pid].player.name,
            typed_name=by_player[pid].typed_name,
            **o._asdict(),
        )
        for pid, o in rating.players.items()
    ]
    rows.sort(key=lambda row: (-row.change, row.name))
    return EventPreview(
        rows, [], club.ladder_is_current, before_count, variants=variants, date_note=note
    )


def _events_before(event: Event) -> int:
    """How many published events come before `event` in the ladder's order."""
    return (
        Event.objects.filter(club_id=event.club_id)
        .published()
        .exclude(pk=event.pk)
        .filter(
            Q(date__lt=event.date)
            | Q(date=event.date, order_in_day__lt=event.order_in_day)
            | Q(date=event.date, order_in_day=event.order_in_day, created_at__lt=event.created_at)
            | Q(
                date=event.date,
                order_in_day=event.order_in_day,
                created_at=event.created_at,
                pk__lt=event.pk,
            )
        )
        .count()
    )


def _stored_states(
    club: Club, players: set[int], position: int, start: float
) -> dict[int, PlayerState]:
    states = {
        pid: PlayerState(start if rating is None else rating, games, junior)
        for pid, rating, games, junior in Player.objects.filter(pk__in=players).values_list(
            "id", "start_rating", "start_games", "junior"
        )
    }
    rows = (
        PlayerEventResult.objects.filter(club=club, player_id__in=players, position__lt=position)
        .order_by("position")
        .values_list("player_id", "post_rating", "rated_games_after")
    )
    for pid, rating, games in rows.iterator(chunk_size=5000):
        states[pid] = PlayerState(rating, games, states[pid].junior)
    return states


def unconfirmed_names(event: Event) -> list[str]:
    """Typed names with a game in the event and no confirmed player: publishing waits for them.
    A forfeit against another entrant needs no player (a no-show keeps it, never rated)."""
    has_game = Game.objects.filter(Q(white=OuterRef("pk")) | Q(black=OuterRef("pk"))).exclude(
        black__isnull=False, result__in=_KEPT_WITHOUT_PLAYER
    )
    return list(
        event.entries.filter(Exists(has_game), player__isnull=True)
        .order_by("start_rank", "id")
        .values_list("typed_name", flat=True)
    )


EventAction = Callable[[int, int, Any], Event]


def publish_event(event_id: int, version: int, user: Any) -> Event:
    """Make a draft a ladder input. Every entrant with a game must have a confirmed player."""
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        if event.status == Event.Status.PUBLISHED:
            raise PublishingError(_("This event is already published."))
        if not event.games.exists():
            raise PublishingError(_("Enter the results before publishing."))
        unconfirmed = unconfirmed_names(event)
        if unconfirmed:
            raise PublishingError(
                ngettext(
                    "Confirm this name before publishing: %(names)s.",
                    "Confirm these %(count)d names before publishing: %(names)s.",
                    len(unconfirmed),
                )
                % {"names": _listed(unconfirmed), "count": len(unconfirmed)}
            )
        Event.objects.filter(pk=event.pk).update(status=Event.Status.PUBLISHED)
        audit.record(event.club_id, user, "event.publish", event_id=event.pk, name=event.name)
        ladder_inputs_changed(event.club_id, from_date=event.date)
    return _reload(event_id)


def unpublish_event(event_id: int, version: int, user: Any) -> Event:
    """Take a published event back to draft; the ladder replays without it."""
    with transaction.atomic():
        event = _claim(event_id, version)
        _refuse_deleted(event)
        if event.status != Event.Status.PUBLISHED:
            raise PublishingError(_("This event is not published."))
        Event.objects.filter(pk=event.pk).update(status=Event.Status.DRAFT)
        audit.record(event.club_id, user, "event.unpublish", event_id=event.pk, name=event.name)
        ladder_inputs_changed(event.club_id, from_date=event.date)
        # Kept pages must not show it until the replay (or while the worker is down).
        club_pages_changed(event.club_id)
    return _reload(event_id)


def delete_event(event_id: int, version: int, user: Any) -> Event:
    """Hide the event and take it out of the ladder; restore_event brings it back."""
    with transaction.atomic():
        event = _claim(event_id, version)
        if event.deleted_at is not None:
            raise PublishingError(_("This event is already deleted."))
        Event.objects.filter(pk=event.pk).update(deleted_at=timezone.now())
        audit.record(event.club_id, user, "event.delete", event_id=event.pk, name=event.name)
        if event.status == Event.Status.PUBLISHED:
            ladder_inputs_changed(event.club_id, from_date=event.date)
            # Kept pages must not show it until the replay (or while the worker is down).
            club_pages_changed(event.club_id)
    return _reload(event_id)


def restore_event(event_id: int, version: int, user: Any) -> Event:
    with transaction.atomic():
        event = _claim(event_id, version)
        if event.deleted_at is None:
            raise PublishingError(_("This event is not deleted."))
        Event.objects.filter(pk=event.pk).update(deleted_at=None)
        audit.record(event.club_id, user, "event.restore", event_id=event.pk, name=event.name)
        if event.status == Event.Status.PUBLISHED:
            ladder_inputs_changed(event.club_id, from_date=event.date)
    return _reload(event_id)


# --- A whole file at once (the import_event command) -----------------------------------------


@dataclass(frozen=True)
class ImportOptions:
    link_exact: bool = False
    publish: bool = False


@dataclass(frozen=True)
class ImportOutcome:
    event: Event
    created: int
    linked: int
    dropped: int  # entrants without a played game left without a player
    pending: list[str]  # names that need a director's decision; the event stays a draft
    published: bool


def import_event(
    club: Club,
    imported: ImportedEvent,
    details: EventDetails,
    options: ImportOptions,
    user: Any = None,
) -> ImportOutcome:
    """Store a file as an event and take every decision `automatic_decisions` allows, in one
    transaction; publish too when asked and no name is left for a director."""
    with transaction.atomic():
        event = create_draft_from_import(club, imported, details, user, source="command")
        auto = automatic_decisions(review_names(event), link_exact=options.link_exact)
        applied = DecisionsApplied(0, 0, 0)
        if auto.decisions:
            applied = apply_name_decisions(event.pk, event.edit_version, auto.decisions, user)
            event = _reload(event.pk)
        published = False
        if options.publish and not auto.pending:
            event = publish_event(event.pk, event.edit_version, user)
            published = True
    return ImportOutcome(
        event, applied.created, applied.linked, applied.left_out, auto.pending, published
    )


# --- Helpers -----------------------------------------------------------------------------------


def _claim(event_id: int, version: int) -> Event:
    """Take the event's edit version (inside the caller's transaction), or refuse."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("_claim() must run inside transaction.atomic()")
    claimed = Event.objects.filter(pk=event_id, edit_version=version).update(
        edit_version=F("edit_version") + 1
    )
    if not claimed:
        raise StaleEditError(
            _(
                "This event was changed by someone else since you opened the page, so nothing "
                "was saved. The page now shows the current state: please make your change again."
            )
        )
    return Event.objects.select_related("club").get(pk=event_id)


def _refuse_deleted(event: Event) -> None:
    if event.deleted_at is not None:
        raise PublishingError(_("This event is deleted: restore it before changing it."))


def _reload(event_id: int) -> Event:
    return Event.objects.select_related("club").get(pk=event_id)


def _fields(details: EventDetails) -> dict[str, Any]:
    return {
        "name": details.name,
        "date": details.date,
        "order_in_day": details.order_in_day,
        "kind": details.kind,
        "rated": details.rated,
    }


def _listed(names: Sequence[str], limit: int = 10) -> str:
    shown = ", ".join(names[:limit])
    if len(names) > limit:
        shown += " " + _("and %(count)d more") % {"count": len(names) - limit}
    return shown
