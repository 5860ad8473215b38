"""An event's results: storing imported files, pasted CSV and the results grid.

Entrants are matched by their typed name, so confirmed links survive a corrected file;
nothing here links a typed name to a player (directors/events/names.py does, on a decision).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Board, Club, Entry, Event, Game, NewcomerStart, User
from clubs.results import Result
from directors.date_notes import stored_date
from directors.edits import PublishingError, claim, max_length
from directors.events.drafts import EventDetails, create_event, listed, refuse_deleted, reload_event
from directors.events.result_changes import MAX_LISTED, StoredGame, result_changes
from directors.importers import ImportedEvent, ImportedGame, ImportedPlayer, ImportFileError
from directors.importers.base import name_key as typed_key
from ladder.changes import LadderInput, club_changed
from matching import clean_name

# A TRF of the largest allowed event (settings.EVENT_MAX_*) is under 1 MiB, its CSV about
# 2.4 MiB with the longest names; config/settings.py keeps the upload handler in line.
MAX_UPLOAD_BYTES = 4 * 1024 * 1024
MAX_NAME_LENGTH = max_length(Entry, "typed_name")
MAX_ROUND = 999
MAX_VARIANT_LENGTH = max_length(Game, "variant")


def create_draft_from_import(
    club: Club,
    imported: ImportedEvent,
    details: EventDetails,
    user: User | None,
    *,
    source: str = "file",
    newcomer_start: str = NewcomerStart.CLUB,
) -> Event:
    """A draft event holding an imported file's players and games, in one transaction;
    `newcomer_start` says where the names step starts the new players it makes."""
    check_imported(imported)
    with transaction.atomic():
        event = create_event(club, details, user, newcomer_start=newcomer_start)
        _store_results(event, imported, replace_entries=True, user=user, source=source)
    return reload_event(event.pk)


def set_results(
    event_id: int,
    version: int,
    imported: ImportedEvent,
    user: User | None,
    *,
    source: str,
    replace_entries: bool,
    newcomer_start: str | None = None,
) -> Event:
    """Replace the event's games with `imported`'s (and, given `newcomer_start`, where the
    names step starts the new players it makes from them).

    Entrants are matched by their typed name, so confirmed links survive a corrected
    file. With `replace_entries` (a whole file or pasted CSV) entrants missing from
    `imported` are removed; without it (the grid) they stay, game or no game. A
    published event takes no name that is not a confirmed entrant yet: its ladder
    must never depend on an unconfirmed name.
    """
    check_imported(imported)
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        if newcomer_start is not None and newcomer_start != event.newcomer_start:
            # Not a ladder input: only the players the names step makes later read it.
            Event.objects.filter(pk=event.pk).update(newcomer_start=newcomer_start)
            event.newcomer_start = newcomer_start
        _store_results(event, imported, replace_entries=replace_entries, user=user, source=source)
    return reload_event(event_id)


def set_round_results(
    event_id: int, version: int, round_no: int, imported: ImportedEvent, user: User | None
) -> Event:
    """Replace the games of one round with `imported`'s (the grid of a large event, one round
    at a time); other rounds and every entrant stay, as with the whole grid."""
    if any(game.round != round_no for game in imported.games):
        raise ImportFileError(
            _("Every row of this page belongs to round %(round)d.") % {"round": round_no}
        )
    check_imported(imported)
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        _store_results(
            event, imported, replace_entries=False, user=user, source="grid", only_round=round_no
        )
    return reload_event(event_id)


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
    user: User | None,
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
        _check_grid_size(event, imported, new_players, only_round)
    before = [
        StoredGame(*values)
        for values in stored.order_by("round", "id").values_list(
            "round", "white_id", "black_id", "result"
        )
    ]
    stored.delete()
    if replace_entries:
        Entry.objects.filter(pk__in=[entry.pk for entry in leftover]).delete()
        _update_entries_from_file(imported, matched)
    else:
        # A file's final ranks were decided by its own results: once the grid changes them,
        # they describe other results.
        event.entries.filter(rank_in_file__isnull=False).update(rank_in_file=None)
    created = _create_entries(event, new_players, replace_entries)
    matched.update({player.key: entry for player, entry in zip(new_players, created, strict=True)})
    _create_games(event, imported, matched)
    marks = _event_marks(event, imported, only_round)
    if marks:
        Event.objects.filter(pk=event.pk).update(**marks)
    if event.pairing_system:
        # A club night's boards point at its games: they follow the games just stored, or
        # its pages and exports would show every board as still waiting beside them.
        Board.objects.follow_games(event.pk, published=event.is_published)
    audit.record(
        event.club_id,
        user,
        "results.saved",
        event_id=event.pk,
        source=source,
        games=len(imported.games),
        new_names=len(created),
        **({"round": only_round} if only_round is not None else {}),
        **(_corrections(before, imported, matched) if before else {}),
    )
    if event.is_published:
        club_changed(event.club_id, LadderInput.of_event(event))


def _corrections(
    before: list[StoredGame], imported: ImportedEvent, matched: dict[int, Entry]
) -> dict[str, Any]:
    """A correction's audit details: each board whose result changed, old → new, with its pair
    as the grid names it, and how many boards came or went."""
    after = [
        StoredGame(
            game.round,
            matched[game.white].pk,
            matched[game.black].pk if game.black is not None else None,
            game.result.value,
        )
        for game in imported.games
    ]
    found = result_changes(before, after)
    names = {entry.pk: entry.typed_name for entry in matched.values()}
    listed = [
        [
            change.round,
            change.board,
            " – ".join(names.get(pk, "") for pk in (change.white, change.black) if pk),
            change.old,
            change.new,
        ]
        for change in found.changed[:MAX_LISTED]
    ]
    return {
        "changed": listed,
        "changed_count": len(found.changed),
        "added": found.added,
        "removed": found.removed,
    }


def _check_grid_size(
    event: Event,
    imported: ImportedEvent,
    new_players: list[ImportedPlayer],
    only_round: int | None,
) -> None:
    """The event limits over what the grid leaves: it keeps every entrant and (one round at
    a time) the other rounds' games, so `imported` alone does not say the event's size."""
    kept = Game.objects.none()
    if only_round is not None:
        kept = Game.objects.filter(event=event).exclude(round=only_round)
    check_size(
        event.entries.count() + len(new_players),
        [*kept.values_list("round", flat=True), *(game.round for game in imported.games)],
    )


def _update_entries_from_file(imported: ImportedEvent, matched: dict[int, Entry]) -> None:
    """Give the entrants a new file matched what that file says of them: starting rank,
    rating, final rank, junior and rating-list columns."""
    for player in imported.players:
        entry = matched.get(player.key)
        if entry is not None:
            entry.start_rank = player.key
            entry.rating_in_file = _file_rating(player.rating)
            entry.rank_in_file = player.rank
            entry.junior_in_file = player.junior
            entry.fide_id, entry.federation = player.fide_id or "", player.federation or ""
    Entry.objects.bulk_update(
        matched.values(),
        [
            "start_rank",
            "rating_in_file",
            "rank_in_file",
            "junior_in_file",
            "fide_id",
            "federation",
        ],
        batch_size=1000,
    )


def _create_entries(
    event: Event, new_players: list[ImportedPlayer], replace_entries: bool
) -> list[Entry]:
    """Entrants for the imported players no entrant matched. A whole file numbers them as it
    does; the grid adds them after the event's last starting rank."""
    ranks = [] if replace_entries else event.entries.values_list("start_rank", flat=True)
    next_rank = max((rank or 0 for rank in ranks), default=0)
    return Entry.objects.bulk_create(
        (
            Entry(
                event=event,
                typed_name=player.name,
                start_rank=player.key if replace_entries else next_rank + at,
                rating_in_file=_file_rating(player.rating),
                rank_in_file=player.rank,
                junior_in_file=player.junior,
                fide_id=player.fide_id or "",
                federation=player.federation or "",
            )
            for at, player in enumerate(new_players, start=1)
        ),
        batch_size=1000,
    )


def _create_games(event: Event, imported: ImportedEvent, matched: dict[int, Entry]) -> None:
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


def _event_marks(event: Event, imported: ImportedEvent, only_round: int | None) -> dict[str, Any]:
    """The event's fields that go with the results just stored, where they changed."""
    # Rounds numbered by the importer stay marked until results come in another way (the grid).
    marks: dict[str, Any] = {}
    if event.rounds_from_order != imported.rounds_from_order:
        marks["rounds_from_order"] = imported.rounds_from_order
    # The file's date reading goes with the results it came with; one round saved in the grid
    # leaves the rest of the file's results, and its date, in place.
    file_date = stored_date(imported.date, imported.date_source)
    if only_round is None and event.file_date != file_date:
        marks["file_date"] = file_date
    # What the file says the event was (a round robin or not) goes with its results; a file
    # that says nothing (a CSV, the grid) leaves it as it was.
    said = imported.round_robin
    if only_round is None and said is not None and event.round_robin != said:
        marks["round_robin"] = said
    return marks


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
            % {"names": listed(unconfirmed)}
        )


def _file_rating(rating: int | None) -> int | None:
    """A rating printed in a file, if it fits the column (PGN allows five digits)."""
    return rating if rating is not None and 0 < rating <= 9999 else None


# What an entrant without a player may keep: a forfeit, double forfeit or unfinished pairing
# against another entrant. The file said so, nothing rates it, and turning it into a bye
# would store a pairing-allocated bye the file never gave.
KEPT_WITHOUT_PLAYER = [result.value for result in Result if result.is_forfeit]


def kept_without_player(black: int | None, result: Result | str) -> bool:
    """Whether a game (``black`` None for a bye) may keep a side that has no player."""
    return black is not None and Result(result).is_forfeit


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
