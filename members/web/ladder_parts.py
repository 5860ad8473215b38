"""The club pages of a club with several ladders: a ladder's name as the pages show it, why an
event fed no ladder, and a player's page cut into one part per ladder they played on.

Nothing here reads the database: the views hand in the ladders, rosters and the player's
page they read (members.web.ladder_views, members.web.views).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clubs.models import Event, Ladder
from clubs.models.club import DEFAULT_NAME, says_ladder
from clubs.results import BUGHOUSE
from ladder.lifetime import Timeline
from ladder.roster.rosters import Roster
from members.pages.player_page import ClubRules, PlayerPage
from members.pages.player_tables import player_chart

KIND_LABELS = dict(Event.Kind.choices)


def shown_name(ladder: Ladder) -> str:
    """The ladder's name; the one every club got ("Ladder", untouched) in the page's
    language, as a club with one ladder has always seen it."""
    return _("Ladder") if ladder.name == DEFAULT_NAME else ladder.name


def not_rated_reason(event: Event) -> str:
    """Why `event` moved no rating, for an event no ladder took (ladder.models.for_event)."""
    if not event.rated:
        return _("Not rated: the club entered this event as unrated.")
    if event.kind == BUGHOUSE:
        return _("Not rated: bughouse is never rated.")
    kind = KIND_LABELS.get(event.kind, event.kind)
    return _("Not rated: no ladder of the club rates this kind of event (%(kind)s).") % {
        "kind": kind
    }


def fed_ladder(event: Event, ladders: Sequence[Ladder]) -> Ladder | None:
    """The ladder of `ladders` (the club's) that `event` fed, as Ladder.objects.for_event
    decides it, without asking the database again."""
    if not event.rated or event.kind == BUGHOUSE:
        return None
    return next((ladder for ladder in ladders if ladder.rates(event.kind)), None)


def fed_context(event: Event, ladders: Sequence[Ladder], base: str) -> dict[str, Any]:
    """What templates/members/pages/fed_ladder.html needs: the ladder the event fed, its name
    and its page (`base` the club page's path), or why it fed none."""
    fed = fed_ladder(event, ladders)
    if fed is None:
        return {"fed": None, "not_rated_reason": not_rated_reason(event)}
    first = fed == ladders[0]
    name = shown_name(fed)
    return {
        "fed": fed,
        "fed_name": name,
        # "Rated on the Blitz ladder", not "... Blitz ladder ladder".
        "fed_says_ladder": says_ladder(name),
        "fed_url": base if first else f"{base}ladders/{fed.slug}/",
        "several_ladders": len(ladders) > 1,
    }


def ladder_names_by_kind(ladders: Sequence[Ladder]) -> dict[str, str]:
    """{kind label as the events list shows it: the name of the ladder that rates it}."""
    return {
        str(KIND_LABELS[kind]): shown_name(ladder)
        for ladder in ladders
        for kind in ladder.kinds
        if kind in KIND_LABELS
    }


@dataclass(frozen=True)
class LadderPart:
    """One ladder's part of a player's page: the player's numbers on it, its events (each
    with its worked sum, which chains on that ladder only) and its chart."""

    ladder: Ladder
    name: str  # as the page shows it
    page: PlayerPage
    chart: SafeString

    @property
    def suffix(self) -> str:
        """What keeps this part's ids apart from the other parts' on one page."""
        return f"-{self.ladder.slug}"


def ladder_parts(
    page: PlayerPage,
    ladders: Sequence[Ladder],
    rosters: Mapping[int, Roster],
    rules: Mapping[int, ClubRules],
    timelines: Mapping[int, Timeline] | None = None,
) -> list[LadderPart]:
    """A part per ladder the player has played on, the club's first ladder first; the first
    ladder alone for a player on none (the page says "not rated yet", as it always has).

    `page` is the whole page (members.pages.player_page): its lifetime record and summaries
    count every game, so they stay with the whole page; each part keeps only its ladder's
    events, its outline (`timelines`, members.pages.player_page.ladder_timelines: for the
    chart, the counts and the year links) and the player as that ladder's roster has them
    (rating, games, rank). Without `timelines` (a club of one ladder) the page's own
    outline is its one ladder's."""
    parts = []
    for ladder in ladders:
        roster = rosters[ladder.pk]
        player = roster.get(page.player.id)
        if timelines is None:
            timeline = page.timeline if ladder == ladders[0] else Timeline()
        else:
            timeline = timelines.get(ladder.pk, Timeline())
        if player is None or not (timeline.events or player.on_ladder):
            continue
        year = page.shown.year
        if year is not None and not any(y.year == year for y in timeline.years):
            continue  # a year page: only the ladders the player played on that year
        part = replace(
            page,
            player=player,
            rank=roster.rank_of(player.id),
            events=[e for e in page.events if e.ladder_id == ladder.pk],
            timeline=timeline,
            rules=rules[ladder.pk],
        )
        parts.append(LadderPart(ladder, shown_name(ladder), part, SafeString("")))
    if not parts and ladders:
        first = ladders[0]
        player = rosters[first.pk].get(page.player.id) or page.player
        part = replace(page, player=player, rules=rules[first.pk])
        parts.append(LadderPart(first, shown_name(first), part, SafeString("")))
    several = len(parts) > 1
    return [
        replace(p, chart=player_chart(p.page, "chart-title" + (p.suffix if several else "")))
        for p in parts
    ]
