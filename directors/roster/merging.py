"""Possible duplicates, merges and their undo, re-pointed entries and the cached roster.

Every change here runs in one transaction with its audit entry and with
`club_changed(club_id, LadderInput())`, so the ladder replays the new links.

Undo order: a merge can be undone while no later merge that is still in force
involves either of its players (undo the later one first). A merge is refused
for a player already merged, and for two players who played in the same event
(one person cannot have two places in one event; re-point the wrong entry).
An entry that a merge moved and a director re-pointed afterwards stays where
the director put it when the merge is undone.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs import audit
from clubs.models import (
    Club,
    DuplicateDismissal,
    Entry,
    Game,
    Ladder,
    Merge,
    Player,
    PlayerAlias,
    User,
)
from directors.edits import claim, max_length
from ladder.changes import LadderInput, club_changed
from matching import (
    KEY_VERSION,
    PreparedRoster,
    Reason,
    clean_name,
    name_key,
    possible_duplicates,
)
from matching import prepare_roster as build_roster

REASON_LABELS: dict[Reason, Promise] = {
    Reason.SAME_NAME: gettext_lazy("Same name"),
    Reason.ACCENTS: gettext_lazy("Accents or transliteration"),
    Reason.SWAPPED_ORDER: gettext_lazy("First and last name swapped"),
    Reason.PARTICLES: gettext_lazy("Name particles (van, de, von)"),
    Reason.INITIAL: gettext_lazy("Initial for a first name"),
    Reason.MIDDLE_NAME: gettext_lazy("Middle name present or absent"),
    Reason.NICKNAME: gettext_lazy("Nickname"),
    Reason.TYPO: gettext_lazy("A letter or two typed differently"),
    Reason.SUFFIX: gettext_lazy("Jr./Sr. differ: probably two people"),
    Reason.SIMILAR: gettext_lazy("Similar spelling"),
}

MAX_DUPLICATES = 200


class RosterChangeError(Exception):
    """A merge, undo or re-point that is refused; `message` is written for the director."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# Possible duplicates


@dataclass(frozen=True)
class DuplicateCandidate:
    first: Player  # first.pk < second.pk, as a dismissal stores the pair
    second: Player
    reason: Reason
    score: float

    @property
    def reason_label(self) -> Promise:
        return REASON_LABELS[self.reason]


def duplicate_candidates(club: Club, limit: int = MAX_DUPLICATES) -> list[DuplicateCandidate]:
    """Pairs of active players that may be one person, best first; dismissed pairs left out."""
    players = {p.pk: p for p in club.players.active().rated_on(club.first_ladder()).order_by("id")}
    dismissed = set(
        DuplicateDismissal.objects.filter(club=club).values_list("first_id", "second_id")
    )
    found = []
    for first_id, second_id, reason, score in _duplicate_pairs(club, limit + len(dismissed)):
        first, second = players.get(first_id), players.get(second_id)
        if first is not None and second is not None and (first_id, second_id) not in dismissed:
            found.append(DuplicateCandidate(first, second, Reason(reason), score))
    return found[:limit]


def _duplicate_pairs(club: Club, limit: int) -> list[tuple[int, int, str, float]]:
    """(first id, second id, reason, score) of `possible_duplicates` over the active players,
    kept in Django's cache under the roster's version: a 10,000-player roster takes about
    half a second to compare, and the screen is opened again after every merge or dismissal."""
    key = f"{_roster_key(club)}:duplicates:{limit}"
    found: list[tuple[int, int, str, float]] | None = cache.get(key)
    if found is None:
        rows = list(club.players.active().order_by("id").values_list("id", "name"))
        pairs = possible_duplicates([name for _pk, name in rows], limit=limit)
        found = []
        for pair in pairs:
            first, second = sorted((rows[pair.i][0], rows[pair.j][0]))
            found.append((first, second, str(pair.reason), pair.score))
        cache.set(key, found, _CACHE_SECONDS)
    return found


def dismiss_duplicate(
    club: Club, one: Player, other: Player, user: User | None
) -> DuplicateDismissal:
    """Remember that two players are different people; safe to repeat."""
    if one.pk == other.pk or one.club_id != club.pk or other.club_id != club.pk:
        raise RosterChangeError(_("Choose two different players of this club."))
    first, second = sorted((one, other), key=lambda p: p.pk)
    with transaction.atomic():
        dismissal, created = DuplicateDismissal.objects.get_or_create(
            club=club, first=first, second=second, defaults={"dismissed_by": _user(user)}
        )
        if created:
            audit.record(
                club,
                user,
                "duplicate.dismissed",
                first_id=first.pk,
                second_id=second.pk,
                first=first.name,
                second=second.name,
            )
    return dismissal


# Side by side


@dataclass(frozen=True)
class PlayerRecord:
    """What a director compares before merging: one player's events, games and rating."""

    player: Player
    entries: list[Entry]
    games: int
    aliases: list[str]


def player_record(player: Player) -> PlayerRecord:
    if not hasattr(player, "rating"):  # the record shows the club's first ladder's standing
        player = Player.objects.rated_on(Ladder.objects.first_of(player.club_id)).get(pk=player.pk)
    entries = list(
        player.entries.select_related("event").order_by("-event__date", "-event__order_in_day")
    )
    games = (
        Game.objects.filter(Q(white__player=player) | Q(black__player=player))
        .exclude(black__isnull=True)
        .count()
    )
    aliases = list(player.aliases.order_by("name").values_list("name", flat=True))
    return PlayerRecord(player, entries, games, aliases)


# Merge


def check_merge(club: Club, kept: Player, merged: Player) -> None:
    """Raise RosterChangeError if these two players cannot be merged as they stand."""
    if kept.club_id != club.pk or merged.club_id != club.pk:
        raise RosterChangeError(_("Choose two players of this club."))
    if kept.pk == merged.pk:
        raise RosterChangeError(_("Choose two different players."))
    for player in (kept, merged):
        if player.merged_into_id is not None:
            raise RosterChangeError(
                _("%(name)s is already merged into another player.") % {"name": player.name}
            )
    shared = (
        Entry.objects.filter(player=kept, event__in=merged.entries.values("event"))
        .select_related("event")
        .first()
    )
    if shared is not None:
        raise RosterChangeError(
            _(
                "Both players played in %(event)s, so they are two people. "
                "If one of those entries is wrong, re-point it first."
            )
            % {"event": shared.event}
        )


def merge_players(club: Club, kept: Player, merged: Player, user: User | None) -> Merge:
    """Fold `merged` into `kept`: its entries and aliases move, its names become aliases."""
    with transaction.atomic():
        kept, merged = _locked_pair(kept, merged)
        check_merge(club, kept, merged)
        # Locked: an entry re-pointed meanwhile is seen where the director put it.
        entry_ids = list(
            merged.entries.select_for_update().order_by("id").values_list("id", flat=True)
        )
        Entry.objects.filter(pk__in=entry_ids).update(player=kept)

        known = {_same(kept.name)} | {
            _same(name) for name in kept.aliases.values_list("name", flat=True)
        }
        moved_alias_ids = []
        for alias in merged.aliases.order_by("id"):
            # One that kept already has stays with `merged`, hidden while the merge holds.
            if _same(alias.name) not in known:
                known.add(_same(alias.name))
                moved_alias_ids.append(alias.pk)
        PlayerAlias.objects.filter(pk__in=moved_alias_ids).update(player=kept)

        typed = Entry.objects.filter(pk__in=entry_ids).order_by("id").values_list("typed_name")
        created_alias_ids = []
        for written in [merged.name, *(row[0] for row in typed)]:
            name = clean_name(written)
            if name and _same(name) not in known:
                known.add(_same(name))
                alias = PlayerAlias.objects.create(player=kept, name=name, name_key=name_key(name))
                created_alias_ids.append(alias.pk)

        Player.objects.filter(pk=merged.pk).update(merged_into=kept)
        # One person: shown if either record was (a held one is only met in a draft).
        released = kept.held and not merged.held
        if released:
            Player.objects.filter(pk=kept.pk).update(held=False)
        merge = Merge.objects.create(
            club=club,
            kept=kept,
            merged=merged,
            moved_entry_ids=entry_ids,
            moved_alias_ids=moved_alias_ids,
            created_alias_ids=created_alias_ids,
            released_kept=released,
            created_by=_user(user),
        )
        audit.record(
            club,
            user,
            "players.merged",
            merge_id=merge.pk,
            kept_id=kept.pk,
            merged_id=merged.pk,
            kept=kept.name,
            merged=merged.name,
            entries=len(entry_ids),
        )
        club_changed(club.pk, LadderInput())
    return merge


def _same(name: str) -> str:
    return clean_name(name).casefold()


# Undo


def undo_blocker(merge: Merge) -> Merge | None:
    """A later merge still in force that involves either player of `merge`."""
    players = [merge.kept_id, merge.merged_id]
    return (
        Merge.objects.filter(club_id=merge.club_id, pk__gt=merge.pk, undone_at__isnull=True)
        .filter(Q(kept_id__in=players) | Q(merged_id__in=players))
        .select_related("kept", "merged")
        .order_by("-pk")
        .first()
    )


def undo_blockers(merges: Iterable[Merge]) -> dict[int, Merge]:
    """`undo_blocker` for each merge of one club's full list, without a query per merge."""
    in_force = sorted((m for m in merges if m.undone_at is None), key=lambda m: m.pk)
    blockers: dict[int, Merge] = {}
    latest: dict[int, Merge] = {}  # player id -> the latest merge in force involving them
    for merge in reversed(in_force):
        later = [latest[p] for p in (merge.kept_id, merge.merged_id) if p in latest]
        if later:
            blockers[merge.pk] = max(later, key=lambda m: m.pk)
        latest.setdefault(merge.kept_id, merge)
        latest.setdefault(merge.merged_id, merge)
    return blockers


def undo_merge(merge: Merge, user: User | None) -> Merge:
    """Bring both players back, each with exactly their own entries and aliases."""
    with transaction.atomic():
        merge = Merge.objects.select_for_update().select_related("club").get(pk=merge.pk)
        kept, merged = _locked_pair(merge.kept, merge.merged)
        if merge.undone_at is not None:
            raise RosterChangeError(_("This merge has already been undone."))
        blocker = undo_blocker(merge)
        if blocker is not None:
            raise RosterChangeError(
                _(
                    "Undo the later merge of %(merged)s into %(kept)s first: "
                    "it involves the same players."
                )
                % {"merged": blocker.merged.name, "kept": blocker.kept.name}
            )
        if merged.merged_into_id != kept.pk:
            raise RosterChangeError(_("This merge is no longer in force and cannot be undone."))
        Entry.objects.filter(pk__in=merge.moved_entry_ids, player=kept).update(player=merged)
        PlayerAlias.objects.filter(pk__in=merge.created_alias_ids, player=kept).delete()
        PlayerAlias.objects.filter(pk__in=merge.moved_alias_ids, player=kept).update(player=merged)
        Player.objects.filter(pk=merged.pk).update(merged_into=None)
        if merge.released_kept:
            Player.objects.filter(pk=kept.pk).update(held=True)
        merge.undone_at = timezone.now()
        merge.undone_by = _user(user)
        merge.save(update_fields=["undone_at", "undone_by"])
        audit.record(
            merge.club,
            user,
            "merge.undone",
            merge_id=merge.pk,
            kept_id=kept.pk,
            merged_id=merged.pk,
            kept=kept.name,
            merged=merged.name,
        )
        club_changed(merge.club_id, LadderInput())
    return merge


# Re-point


def repoint_entry(
    entry: Entry,
    player: Player | None,
    new_name: str,
    user: User | None,
    *,
    version: int | None = None,
) -> Player:
    """Link one entry to another active player of its club, or to a new player named
    `new_name` (when `player` is None). Returns the player the entry now belongs to.

    With `version` (a confirmed re-point on a published event) the event's edit version is
    claimed first, so a re-point confirmed after any other change to the event is refused."""
    new_name = clean_name(new_name)
    with transaction.atomic():
        if version is not None:
            # The event first: the order the event's other changes take their locks in.
            claim(entry.event_id, version)
        if player is not None:
            # The player first, then the entry: the order a merge takes its locks in.
            player = Player.objects.select_for_update().get(pk=player.pk)
        entry = Entry.objects.select_for_update().select_related("event").get(pk=entry.pk)
        club_id = entry.event.club_id
        if player is None:
            if not new_name:
                raise RosterChangeError(_("Give the new player's name."))
            if len(new_name) > max_length(Player, "name"):
                raise RosterChangeError(_("The name is too long."))
            player = Player.objects.create(
                club_id=club_id,
                name=new_name,
                name_key=name_key(new_name),
                junior=bool(entry.junior_in_file),
                held=not entry.event.is_published,
            )
            created = True
        else:
            created = False
            if player.club_id != club_id or player.merged_into_id is not None:
                raise RosterChangeError(_("Choose a player of this club's roster."))
            if player.pk == entry.player_id:
                raise RosterChangeError(_("This entry is already linked to that player."))
            if Entry.objects.filter(event_id=entry.event_id, player=player).exists():
                raise RosterChangeError(
                    _("%(name)s already has a place in this event.") % {"name": player.name}
                )
        previous = entry.player_id
        Entry.objects.filter(pk=entry.pk).update(player=player)
        audit.record(
            club_id,
            user,
            "entry.repointed",
            entry_id=entry.pk,
            event_id=entry.event_id,
            typed_name=entry.typed_name,
            from_player_id=previous,
            to_player_id=player.pk,
            new_player=created,
        )
        club_changed(club_id, LadderInput())
    return player


def _locked_pair(one: Player, other: Player) -> tuple[Player, Player]:
    """Both players re-read under a row lock, taken in id order so two changes never wait
    on each other crosswise."""
    ids = sorted({one.pk, other.pk})
    rows = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return rows[one.pk], rows[other.pk]


def _user(user: User | None) -> User | None:
    return user if user is not None and user.is_authenticated else None


# The roster, read once for many name suggestions

_CACHE_FORMAT = 1
_CACHE_SECONDS = 6 * 3600
_LOCAL_SIZE = 4  # a 10,000-player roster takes about 11 MB of memory
_local: OrderedDict[str, tuple[PreparedRoster, tuple[int, ...]]] = OrderedDict()
_local_lock = threading.Lock()


def prepared_roster(club: Club) -> tuple[PreparedRoster, tuple[int, ...]]:
    """The club's active players and their aliases, ready for `suggest_prepared`.

    Returns the prepared roster and, per roster position, the player id (a player
    appears once per name and alias). Cached in this process and in Django's cache
    under the club's versions (`_roster_key`), so a stale roster is never used.
    """
    key = _roster_key(club)
    with _local_lock:
        found = _local.get(key)
        if found is not None:
            _local.move_to_end(key)
            return found
    found = cache.get(key)
    if found is None:
        found = _build_roster(club)
        cache.set(key, found, _CACHE_SECONDS)
    with _local_lock:
        _local[key] = found
        while len(_local) > _LOCAL_SIZE:
            _local.popitem(last=False)
    return found


def _roster_key(club: Club) -> str:
    """The roster's cache key: the versions the change door bumps. Every write that adds,
    renames, erases, merges or un-merges a player or alias passes `club_changed`, which
    moves a ladder's data_version (a ladder input) or pages_version (a shown name), so a stale
    roster is never asked for again. A held player made or removed with a draft moves
    neither version (no club page may change), so the players' count and newest id are in
    the key too."""
    players = Player.objects.filter(club_id=OuterRef("pk")).order_by().values("club_id")
    ladders = Ladder.objects.filter(club_id=OuterRef("pk")).order_by().values("club_id")
    versions = Club.objects.filter(pk=club.pk).annotate(
        player_count=Subquery(players.annotate(n=Count("id")).values("n")),
        newest=Subquery(players.annotate(n=Max("id")).values("n")),
        # Every ladder's data_version: each only grows, so their sum moves with any of them.
        data_version=Subquery(ladders.annotate(n=Sum("data_version")).values("n")),
    )
    data_version, pages_version, count, newest = versions.values_list(
        "data_version", "pages_version", "player_count", "newest"
    ).get()
    # created_at tells apart a club whose id was used before (a restored database, tests).
    born = _stamp(club.created_at)
    return (
        f"clubs:roster:{_CACHE_FORMAT}:{KEY_VERSION}:{club.pk}:{born}:"
        f"{data_version}:{pages_version}:{count}:{newest}"
    )


def _stamp(moment: dt.datetime | None) -> str:
    return f"{moment.timestamp():.6f}" if moment is not None else "-"


def _build_roster(club: Club) -> tuple[PreparedRoster, tuple[int, ...]]:
    players = Player.objects.filter(club_id=club.pk).active().order_by("id")
    aliases = PlayerAlias.objects.filter(
        player__club_id=club.pk, player__merged_into__isnull=True
    ).order_by("id")
    rows = [*_with_current_keys(players, "id"), *_with_current_keys(aliases, "player_id")]
    owners = tuple(row[0] for row in rows)
    roster = build_roster([row[1] for row in rows], keys=[row[2] for row in rows], owners=owners)
    return roster, owners


def _with_current_keys(rows: QuerySet[Any], owner: str) -> list[tuple[int, str, str]]:
    """(owner, name, name_key) per row. A key of an older `KEY_VERSION` is recomputed and
    written back once, so that later reads of the roster skip the work."""
    stored = list(rows.values_list("id", owner, "name", "name_key"))
    prefix = f"{KEY_VERSION}:"
    stale = [
        rows.model(pk=pk, name_key=name_key(name))
        for pk, _owner, name, key in stored
        if key and not key.startswith(prefix)  # "" is an erased name: left as erasure set it
    ]
    if stale:
        rows.model.objects.bulk_update(stale, ["name_key"], batch_size=1000)
    fresh = {row.pk: row.name_key for row in stale}
    return [(found, name, fresh.get(pk, key)) for pk, found, name, key in stored]
