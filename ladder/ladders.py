"""A club's ladders: the first one every club gets, and the one writer of a ladder's kinds.

"A kind belongs to at most one ladder" holds because nothing but set_kinds writes
Ladder.kinds (the migration aside, which gives a club's one ladder every kind).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.models import Club
from ladder import changes
from ladder.models import DEFAULT_NAME, MAIN_SLUG, RATABLE_KINDS, Ladder


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
                raise ValidationError(
                    _("The %(ladder)s ladder already rates %(kinds)s.")
                    % {"ladder": other.name, "kinds": ", ".join(clash)}
                )
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
                ladder.club_id, inputs=True, shown=True, from_date=dt.date.min, ladder_ids=touched
            )
    return taken
