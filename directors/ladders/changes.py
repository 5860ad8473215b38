"""Adding, renaming and re-kinding a club's ladders: the one place these writes are made.

The ladders screen (directors/ladders/views.py, also inside the preview's rolled-back savepoint)
and the add_ladder command both call these, so each checks everything itself and refuses with
a LadderRefused whose message a director or support staff can act on, storing nothing.
Each write marks the ladders it changes out of date through the one door and is recorded in
the audit log in the same transaction.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs import audit
from clubs.audit import Actor
from clubs.models import Club, Event, Ladder
from clubs.models.club import DEFAULT_LABEL, DEFAULT_NAME, RATABLE_KINDS
from ladder.changes import OnPages, club_changed
from ladder.policies import POLICIES, get_policy
from ladder.roster.ladders import set_kinds

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
SLUG_LENGTH = 30
NAME_LENGTH = 80

# The event form's own words for the kinds.
KIND_LABELS = {kind: Event.Kind(kind).label for kind in RATABLE_KINDS}


def shown_name(name: str) -> str:
    """A ladder's name as the screens show it: the default every club was given, in the
    reader's language (as the club pages show it); any other as typed."""
    return str(DEFAULT_LABEL) if name == DEFAULT_NAME else name


class LadderRefused(ValueError):
    """A ladder change that cannot be made; the message says why (translated)."""


@dataclass(frozen=True)
class KindsMoved:
    ladder: Ladder
    kinds: tuple[str, ...]
    taken: dict[str, list[str]]  # each other ladder's slug -> the kinds it gave up


def check_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise LadderRefused(_("Give the ladder a name."))
    if len(name) > NAME_LENGTH:
        raise LadderRefused(_("The name is longer than 80 characters."))
    return name


def check_slug(club: Club, slug: str) -> str:
    slug = slug.strip().lower()
    if len(slug) > SLUG_LENGTH or not SLUG.match(slug):
        raise LadderRefused(
            _("The short name takes up to 30 lower-case letters, digits and hyphens.")
        )
    if Ladder.objects.filter(club=club, slug=slug).exists():
        raise LadderRefused(_("The club has a ladder with this short name already."))
    return slug


def check_policy(name: str) -> str:
    if name not in POLICIES:
        raise LadderRefused(_("There is no such rating policy: nothing was saved."))
    return name


def check_kinds(kinds: Sequence[str]) -> tuple[str, ...]:
    for kind in kinds:
        if kind not in RATABLE_KINDS:
            raise LadderRefused(_("There is no such event kind to rate: nothing was saved."))
    if len(set(kinds)) != len(kinds):
        raise LadderRefused(_("Each kind can be chosen only once."))
    return tuple(kind for kind in RATABLE_KINDS if kind in kinds)


def assignment(club: Club) -> str:
    """Which ladder rates which kinds, as one string: what a form was shown, so a save over
    a newer change is refused."""
    return ";".join(
        f"{ladder.slug}={','.join(ladder.kinds)}" for ladder in Ladder.objects.for_club(club.pk)
    )


def add_ladder(
    club: Club, *, slug: str, name: str, policy: str, kinds: Sequence[str], user: Actor
) -> KindsMoved:
    """A new last ladder with `policy`'s default settings, taking `kinds` from whichever
    ladders rated them; both sides replay."""
    name, policy, wanted = check_name(name), check_policy(policy), check_kinds(kinds)
    with transaction.atomic():
        # The club row locked: two directors adding at once get two positions, and the
        # slug check below sees the other's ladder.
        Club.objects.select_for_update().filter(pk=club.pk).get()
        slug = check_slug(club, slug)
        last = Ladder.objects.filter(club=club).aggregate(last=Max("position"))["last"]
        chosen = get_policy(policy)
        ladder = Ladder.objects.create(
            club=club,
            slug=slug,
            name=name,
            position=0 if last is None else last + 1,
            rating_policy=policy,
            rating_settings=chosen.settings_to_dict(chosen.default_settings()),
            kinds=[],
        )
        taken = _move(ladder, wanted)
        # The pages list the new ladder even when it rates nothing yet.
        club_changed(club.pk, OnPages())
        audit.record(
            club, user, "ladder.added", ladder=slug, name=name, policy=policy,
            kinds=list(wanted), taken=taken, names=_names(club, taken),
        )  # fmt: skip
    return KindsMoved(ladder, wanted, taken)


def move_kinds(club: Club, ladder: Ladder, kinds: Sequence[str], *, user: Actor) -> KindsMoved:
    """`kinds` rated on `ladder` from now on, taken from the ladders that rated them."""
    wanted = check_kinds(kinds)
    if ladder.club_id != club.pk:
        raise LadderRefused(_("There is no such ladder."))
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=ladder.pk)
        if all(kind in ladder.kinds for kind in wanted):
            raise LadderRefused(_("This ladder rates these kinds already: nothing changed."))
        taken = _move(ladder, wanted)
        audit.record(
            club, user, "ladder_kind.moved", ladder=ladder.slug, name=ladder.name,
            kinds=list(wanted), taken=taken, names=_names(club, taken),
        )  # fmt: skip
    return KindsMoved(ladder, wanted, taken)


def rename_ladder(ladder: Ladder, name: str, *, user: Actor) -> bool:
    """False when the name is the one it has (nothing written)."""
    name = check_name(name)
    if name == ladder.name:
        return False
    with transaction.atomic():
        Ladder.objects.filter(pk=ladder.pk).update(name=name)
        club_changed(ladder.club_id, OnPages())
        audit.record(
            ladder.club_id, user, "ladder.renamed", ladder=ladder.slug, old=ladder.name, new=name
        )
    ladder.name = name
    return True


def _move(ladder: Ladder, kinds: tuple[str, ...]) -> dict[str, list[str]]:
    """Give `kinds` to `ladder` on top of its own; the one writer of kinds marks out of date
    both the ladders that gave them up and `ladder`."""
    if not kinds:
        return {}
    return set_kinds(ladder, [*ladder.kinds, *kinds], take=True)


def _names(club: Club, taken: dict[str, list[str]]) -> dict[str, str]:
    """The names of the ladders that gave kinds up, as the log quotes them."""
    return dict(Ladder.objects.filter(club=club, slug__in=list(taken)).values_list("slug", "name"))
