"""Who each typed name of an event is: suggestions from the roster, and a director's decisions.

Nothing links a typed name to a player unless a `NameDecision` says so.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from clubs import audit
from clubs.models import Club, Entry, Event, Game, Ladder, NewcomerStart, Player, User
from clubs.results import Result
from directors.edits import PublishingError, claim
from directors.events.drafts import refuse_deleted
from directors.events.results import MAX_NAME_LENGTH
from directors.importers.base import name_key as typed_key
from directors.roster.merging import REASON_LABELS, prepared_roster
from ladder.changes import LadderInput, OnPages, club_changed, combined
from ladder.models import LadderRating
from ladder.policies import get_policy
from ladder.roster.ladders import seeding_ladder
from matching import Reason, Suggestion, clean_name, is_weak, suggest_prepared
from matching import name_key as player_key

SUGGESTIONS = 5
# LadderRating.start_rating's range (its check constraint): a file's rating outside it is no start.
MAX_START_RATING = 4000


def start_from_file(newcomer_start: str, rating_in_file: int | None) -> int | None:
    """The starting rating a new player made from this entrant takes from the file, or None
    for the club's start rating. Only the rating changes: start games stay 0, so the player
    is provisional and rated with the newcomers' K like any other newcomer."""
    if newcomer_start != NewcomerStart.FILE or rating_in_file is None:
        return None
    return rating_in_file if 0 < rating_in_file <= MAX_START_RATING else None


def event_ladder(event: Event) -> Ladder:
    """The ladder an event's newcomers start on: the one its kind feeds, else the club's first."""
    return seeding_ladder(event.club_id, event.kind)


def club_start_rating(club: Club, ladder: Ladder | None = None) -> float:
    """The start rating of `ladder` (the club's first by default), as the replay reads it
    from the rating policy's settings."""
    ladder = ladder or club.first_ladder()
    policy = get_policy(ladder.rating_policy)
    return policy.start_rating(policy.parse_settings(ladder.rating_settings))


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

    @property
    def weak(self) -> bool:
        """Only alike as text (a shared first name): shown as weak, never as likely."""
        return is_weak(self.reason)


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
    # Points without a game at the board (a bye worth something, a forfeit win): a person who
    # came or was owed, never a placeholder; leaving them out would change the standings.
    scored: bool = False
    # Where a new player made from this entrant starts without a director's estimate, and
    # whether that is the file's rating (the event's newcomer_start) or the club's.
    new_start: float | None = None
    new_start_from_file: bool = False
    fide_id: str = ""  # the file's rating-list columns, to tell two people apart
    federation: str = ""

    @property
    def played_no_game(self) -> bool:
        return self.played == 0

    @property
    def preselected(self) -> Candidate | None:
        return next((c for c in self.candidates if c.preselect), None)


def played(result: Result) -> bool:
    """Whether a game's result means both people were at the board."""
    return result.is_played or result.is_unrated_result


@dataclass(frozen=True)
class NameRoster:
    """The club's active players as the names step lists them and reads a choice back:
    id -> name, in roster order (name, id). The page's "another player" list, the form's
    checks of a `p<player>` choice and of a typed name all read this one object; the
    suggestions match against `prepared_roster` (the same players with their aliases)."""

    names: dict[int, str]

    def __contains__(self, player_id: object) -> bool:
        return player_id in self.names

    def player_named(self, text: str) -> int | None:
        """The one player called `text` (ignoring case); None for no such player or several."""
        same = [pid for pid, name in self.names.items() if name.casefold() == text.casefold()]
        return same[0] if len(same) == 1 else None


def name_roster(club: Club) -> NameRoster:
    players = club.players.active().order_by("name", "id")
    return NameRoster(dict(players.values_list("id", "name")))


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
    scored: set[int] = set()
    over_the_board = {result.value for result in Result if played(result)}  # 30,000 games
    scores = {result.value: result.scores for result in Result}
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        at_board = result in over_the_board
        for side, points in zip((white, black), scores[result], strict=True):
            if side is not None:
                games[side] = games.get(side, 0) + 1
                if at_board:
                    played_games[side] = played_games.get(side, 0) + 1
                elif points:
                    scored.add(side)
    shown = [e for e in entries if include_confirmed or e.player_id is None]
    if not shown:
        return []
    taken = {e.player_id: e.pk for e in entries if e.player_id is not None}
    # Per entry: (player id, the roster name that matched, the suggestion).
    found: dict[int, list[tuple[int, str, Suggestion]]] = {e.pk: [] for e in shown}
    if suggest:
        roster, owners = prepared_roster(event.club)
        for entry in shown:
            suggestions = suggest_prepared(entry.typed_name, roster, SUGGESTIONS)
            # A player who already has a place in this event is no candidate for another name.
            found[entry.pk] = [
                (owners[s.index], roster.names[s.index], s)
                for s in suggestions
                if taken.get(owners[s.index], entry.pk) == entry.pk
            ]
    names = dict(
        Player.objects.filter(
            pk__in={pid for rows in found.values() for pid, _m, _s in rows}
        ).values_list("id", "name")
    )
    reviews = []
    club_start = club_start_rating(event.club, event_ladder(event))
    for entry in shown:
        file_start = start_from_file(event.newcomer_start, entry.rating_in_file)
        candidates = tuple(
            Candidate(pid, names[pid], matched, s.score, s.reason, s.preselect)
            for pid, matched, s in found[entry.pk]
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
                scored=entry.pk in scored,
                player_id=entry.player_id,
                player_name=entry.player.name if entry.player is not None else None,
                candidates=candidates,
                new_start=club_start if file_start is None else float(file_start),
                new_start_from_file=file_start is not None,
                fide_id=entry.fide_id,
                federation=entry.federation,
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
    event_id: int, version: int, decisions: Sequence[NameDecision], user: User | None
) -> DecisionsApplied:
    """Confirm typed names: link each to an existing player, a new player, or none.

    "None" is for entrants who played no game (a "spielfrei" placeholder, a no-show):
    no player is made and their own byes go; a forfeit or double forfeit against them stays
    as the file wrote it (never rated), so the opponent's points and the file's story hold.
    """
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
        applied = _apply_decisions(event, decisions)
        audit.record(
            event.club_id,
            user,
            "names.decided",
            event_id=event.pk,
            linked=applied.linked,
            created=applied.created,
            dropped=applied.dropped,
        )
        inputs = event.is_published and bool(applied.linked or applied.created or applied.dropped)
        # shown: new players of a published event join the roster page at once. A draft's are
        # held, so no page (and no page's key) changes.
        shown = event.is_published and bool(applied.created)
        change = combined(
            LadderInput.of_event(event) if inputs else None, OnPages() if shown else None
        )
        if change is not None:
            club_changed(event.club_id, change)
    return applied


def _apply_decisions(event: Event, decisions: Sequence[NameDecision]) -> DecisionsApplied:
    entries = {e.pk: e for e in event.entries.select_for_update().order_by("id")}
    links = _links_decided(event, entries, decisions)
    new_entries = {d.entry_id for d in decisions if d.action == Action.NEW}
    _refuse_one_player_in_two_places(entries, links, new_entries)
    return _write_decisions(event, entries, decisions)


def _links_decided(
    event: Event, entries: dict[int, Entry], decisions: Sequence[NameDecision]
) -> dict[int, int | None]:
    """Each entrant's player (by entry id) once the decisions hold, refusing a decision the
    event or the roster does not allow. A new player has no id yet: those entries keep their
    old link here, and the check of places passes them over."""
    links = {pk: e.player_id for pk, e in entries.items()}
    played_by = _entrants_who_played(event)
    wanted = {d.player_id for d in decisions if d.action == Action.LINK}
    players = {
        p.pk: p for p in Player.objects.filter(pk__in=wanted, club_id=event.club_id).active()
    }
    for decision in decisions:
        entry = entries.get(decision.entry_id)
        if entry is None:
            raise PublishingError(_("A name in the form is no longer part of this event."))
        _refuse_impossible_decision(decision, entry, players.keys(), played_by)
        if decision.action == Action.LINK:
            links[entry.pk] = decision.player_id
        elif decision.action == Action.NONE:
            links[entry.pk] = None
    return links


def _entrants_who_played(event: Event) -> set[int]:
    """The entries with a game played at the board (a bye is no game): they need a player."""
    played_by: set[int] = set()
    for white, black, result in event.games.values_list("white_id", "black_id", "result"):
        if black is not None and played(Result(result)):
            played_by.update((white, black))
    return played_by


def _refuse_impossible_decision(
    decision: NameDecision,
    entry: Entry,
    club_players: Collection[int],
    played_by: set[int],
) -> None:
    """Raise for a link to someone off the club's active roster, "no player" for an entrant
    who played, or a director's starting rating outside the ladder's range."""
    if decision.action == Action.LINK:
        if decision.player_id not in club_players:
            raise PublishingError(
                _("%(name)s: choose a player of this club's roster.") % {"name": entry.typed_name}
            )
    elif decision.action == Action.NONE:
        if entry.pk in played_by:
            raise PublishingError(
                _("%(name)s played a game: choose an existing or a new player.")
                % {"name": entry.typed_name}
            )
    elif decision.start_rating is not None and not 0 <= decision.start_rating <= 4000:
        raise PublishingError(
            _("%(name)s: a starting rating must be between 0 and 4000.")
            % {"name": entry.typed_name}
        )


def _refuse_one_player_in_two_places(
    entries: dict[int, Entry], links: dict[int, int | None], new_entries: set[int]
) -> None:
    """One person, one place: raise when two entrants would be the same player."""
    seen: dict[int, int] = {}
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


def _write_decisions(
    event: Event, entries: dict[int, Entry], decisions: Sequence[NameDecision]
) -> DecisionsApplied:
    """Write checked decisions. New players and links are written in bulk: a names form of
    2,000 entrants would otherwise cost two queries a name."""
    dropped = left_out = 0
    made: list[tuple[Entry, Player]] = []
    starts: dict[int, float] = {}  # by id() of the new Player: its start on the event's ladder
    relinked: list[Entry] = []
    for decision in decisions:
        entry = entries[decision.entry_id]
        if decision.action == Action.NEW:
            player, start = _new_player(event, entry, decision.start_rating)
            if start is not None:
                starts[id(player)] = start
            made.append((entry, player))
        elif decision.action == Action.LINK:
            if entry.player_id != decision.player_id:
                entry.player_id = decision.player_id
                relinked.append(entry)
        else:
            # Counted whether or not anything changes: an entrant with no game at all (a team
            # reserve, a "spielfrei" that was only absent) is left without a player too.
            left_out += 1
            if _leave_without_player(entry):
                dropped += 1
    _save_new_players(event, made, starts)
    Entry.objects.bulk_update(
        [*relinked, *(entry for entry, _player in made)], ["player"], batch_size=500
    )
    return DecisionsApplied(len(relinked), len(made), dropped, left_out)


def _new_player(event: Event, entry: Entry, estimate: float | None) -> tuple[Player, float | None]:
    """An unsaved player named as the entrant was typed, and where it starts on the event's
    ladder: the director's estimate, else the file's rating when the event takes it, else
    None for the ladder's own start."""
    name = clean_name(entry.typed_name)
    start = estimate
    if start is None:
        file_start = start_from_file(event.newcomer_start, entry.rating_in_file)
        start = None if file_start is None else float(file_start)
    player = Player(
        club_id=event.club_id,
        name=name,
        name_key=player_key(name),
        junior=bool(entry.junior_in_file),
        # Met in a draft: on no club page until the event is published.
        held=not event.is_published,
    )
    return player, start


def _leave_without_player(entry: Entry) -> bool:
    """Unlink an entrant and delete their own byes; whether there was anything to take away."""
    own_byes = Game.objects.filter(white=entry, black__isnull=True)
    if entry.player_id is None and not own_byes.exists():
        return False
    Entry.objects.filter(pk=entry.pk).update(player=None)
    own_byes.delete()
    return True


def _save_new_players(
    event: Event, made: list[tuple[Entry, Player]], starts: dict[int, float]
) -> None:
    """Create the new players, their starts on the event's ladder, and point their entries
    at them (the entries are saved by the caller)."""
    Player.objects.bulk_create([player for _entry, player in made], batch_size=1000)
    if starts:
        ladder = event_ladder(event)
        LadderRating.objects.bulk_create(
            [
                LadderRating(ladder=ladder, player=player, start_rating=starts[id(player)])
                for _entry, player in made
                if id(player) in starts
            ],
            batch_size=1000,
        )
    for entry, player in made:
        entry.player_id = player.pk


@dataclass(frozen=True)
class AutomaticDecisions:
    decisions: list[NameDecision]
    pending: list[str]  # typed names that need a director's decision


def automatic_decisions(reviews: Iterable[NameReview], *, link_exact: bool) -> AutomaticDecisions:
    """What a bulk import may decide alone: an entrant without a played game and without
    points gets no player, a name without any candidate a new player, and (with
    `link_exact`) a name that is the same after normalisation as exactly one player that
    player. Everything else waits. An entrant whose only points are a bye or a forfeit win
    is named like any other: leaving them out would take their points off the standings."""
    decisions: list[NameDecision] = []
    pending: list[str] = []
    for review in reviews:
        if review.player_id is not None:
            continue
        if review.played_no_game and not review.scored:
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


def add_entry(event_id: int, version: int, typed_name: str, user: User | None) -> Entry:
    """A new entrant without games, to be confirmed under Names (and then given games)."""
    name = clean_name(typed_name)
    if not name:
        raise PublishingError(_("Type the name to add."))
    if len(name) > MAX_NAME_LENGTH:
        raise PublishingError(
            _("The name is longer than %(max)d characters.") % {"max": MAX_NAME_LENGTH}
        )
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
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
        audit.record(event.club_id, user, "entry.added", event_id=event.pk, typed_name=name)
    return entry


def remove_entry(event_id: int, version: int, entry_id: int, user: User | None) -> None:
    """Remove an entrant who has no game in the event (take their games out first)."""
    with transaction.atomic():
        event = claim(event_id, version)
        refuse_deleted(event)
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
            "entry.removed",
            event_id=event.pk,
            typed_name=entry.typed_name,
        )


def _has_games(entry: Entry) -> bool:
    return Game.objects.filter(Q(white=entry) | Q(black=entry)).exists()
