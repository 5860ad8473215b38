"""A club's ladders: the first one every club gets, and the one writer of a ladder's kinds.

"A kind belongs to at most one ladder" holds because nothing but set_kinds writes
Ladder.kinds (the migration aside, which gives a club's one ladder every kind).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from clubs.models import Club, Event, Ladder, Player
from clubs.models.club import DEFAULT_NAME, MAIN_SLUG, RATABLE_KINDS, says_ladder
from ladder import changes
from ladder.models import LadderRating


def ensure_first_ladder(club: Club) -> Ladder:
    """The club's first ladder, made (`main`, every ratable kind) if it has none yet: every
    club has at least one, so every club created by any code rates as before."""
    ladder = Ladder.objects.first_of(club)
    if ladder is None:
        ladder, _created = Ladder.objects.get_or_create(
            club=club,
            slug=MAIN_SLUG,
            defaults={"name": DEFAULT_NAME, "position": 0, "kinds": list(RATABLE_KINDS)},
        )
    return ladder


def club_saved(sender: type[Club], instance: Club, created: bool, raw: bool, **_: Any) -> None:
    """post_save of Club (connected in ladder.apps): a new club gets its first ladder."""
    if created and not raw:
        ensure_first_ladder(instance)


def set_kinds(ladder: Ladder, kinds: Iterable[str], *, take: bool = False) -> dict[str, list[str]]:
    """Make `kinds` exactly the event kinds `ladder` rates; returns {other ladder's slug:
    [the kinds it gave up]}.

    A kind another ladder of the club rates is refused (ValidationError) unless `take`,
    which moves it here. Every ladder whose kinds moved is marked out of date (and its
    replay queued) by the one door, ladder.changes.club_changed.
    """
    wanted = list(dict.fromkeys(kinds))
    unknown = [kind for kind in wanted if kind not in RATABLE_KINDS]
    if unknown:
        raise ValidationError(
            _("Unknown event kind: %(kinds)s. A ladder rates %(allowed)s.")
            % {"kinds": ", ".join(unknown), "allowed": ", ".join(RATABLE_KINDS)}
        )
    wanted = [kind for kind in RATABLE_KINDS if kind in wanted]
    with transaction.atomic():
        # Locked in one order, so two directors moving kinds at once cannot both claim one.
        ladders = list(Ladder.objects.for_club(ladder.club_id).select_for_update())
        this = next(lad for lad in ladders if lad.pk == ladder.pk)
        taken: dict[str, list[str]] = {}
        for other in ladders:
            if other.pk == this.pk:
                continue
            clash = [kind for kind in other.kinds if kind in wanted]
            if clash and not take:
                said = (
                    _("The %(ladder)s already rates %(kinds)s.")
                    if says_ladder(other.name)
                    else _("The %(ladder)s ladder already rates %(kinds)s.")
                )
                raise ValidationError(said % {"ladder": other.name, "kinds": ", ".join(clash)})
            if clash:
                taken[other.slug] = clash
                other.kinds = [kind for kind in other.kinds if kind not in clash]
                other.save(update_fields=["kinds"])
        moved = set(this.kinds) ^ set(wanted)
        this.kinds = wanted
        this.save(update_fields=["kinds"])
        ladder.kinds = wanted
        touched = {this.pk} if moved else set()
        touched |= {other.pk for other in ladders if other.slug in taken}
        if touched:
            # Which events a ladder rates moved: from its first event on.
            changes.club_changed(
                ladder.club_id,
                changes.Both(changes.LadderInput.of_ladders(touched), changes.OnPages()),
            )
    return taken


def starts_of(ladder_id: int, player_ids: Iterable[int]) -> dict[int, tuple[float | None, int]]:
    """(start rating, start games) of each player on the ladder; (None, 0) without a row."""
    ids = list(player_ids)
    found = {
        pid: (rating, games)
        for pid, rating, games in LadderRating.objects.filter(
            ladder_id=ladder_id, player_id__in=ids
        ).values_list("player_id", "start_rating", "start_games")
    }
    return {pid: found.get(pid, (None, 0)) for pid in ids}


def set_start(
    ladder_id: int, player_id: int, rating: float | None, games: int | None = None
) -> None:
    """A director's (or import_roster's) starting estimate of a player on one ladder; with
    `games`, the games it counts as. The caller says what changed (ladder.changes)."""
    fields: dict[str, Any] = {"start_rating": rating}
    if games is not None:
        fields["start_games"] = games
    LadderRating.objects.update_or_create(ladder_id=ladder_id, player_id=player_id, defaults=fields)


def has_start(player_id: int) -> bool:
    """Whether a starting state puts the player on any ladder without a game."""
    return (
        LadderRating.objects.filter(player_id=player_id)
        .filter(Q(start_rating__isnull=False) | Q(start_games__gt=0))
        .exists()
    )


def seeding_ladder(club_id: int, kind: str) -> Ladder:
    """The ladder whose numbers seed and start an event of `kind`: the one the kind feeds,
    else (a kind no ladder rates) the club's first."""
    ladder = Ladder.objects.showing(club_id, kind) or Ladder.objects.first_of(club_id)
    assert ladder is not None  # every club has a first ladder
    return ladder


def event_ratings(event: Event) -> dict[int, float | None]:
    """Each of the event's players' rating on the event's ladder (seeding_ladder)."""
    ladder = seeding_ladder(event.club_id, event.kind)
    return dict(
        Player.objects.filter(entries__event=event)
        .rated_on(ladder)
        .values_list("id", "rating")
        .distinct()
    )
