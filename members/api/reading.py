"""The API's answers, read by the code that builds the pages: the ladder rows of the ladder
page and ladder.json (ladder.roster.rosters, members.web.dated), the roster page's players,
the player page's lifetime (members.pages.player_page), the list of events and an event's
final standings with their rating lines (members.pages.events). Only reads."""

from __future__ import annotations

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.access import NOT_FOUND
from clubs.models import Event, Ladder
from ladder.event_ratings import RatingLine
from ladder.event_rules import club_order
from ladder.roster import rosters
from ladder.seasons.dates import season_of
from ladder.store import standings as standings_store
from members.api import schemas
from members.api.visits import ApiVisit
from members.files.export import public_ladder
from members.pages.events import event_list, event_pages
from members.pages.player_page import Shown
from members.pages.player_page import player_page as player_page_data
from members.schedule import MOST_ON_SCHEDULE_PAGE, upcoming_dates
from members.web import dated
from members.web.ladder_parts import fed_ladder


def club(found: ApiVisit) -> schemas.Club:
    season = season_of(timezone.localdate(), found.club.season_start_month)
    return schemas.Club(
        slug=found.club.slug,
        name=found.club.name,
        visibility=found.club.visibility,
        language=found.club.language,
        season_start_month=found.club.season_start_month,
        season_start=season.first_day,
        season_end=season.last_day,
        page=found.page,
        ladders=[
            schemas.LadderSummary(
                slug=ladder.slug,
                name=ladder.name,
                position=ladder.position,
                rating_policy=ladder.rating_policy,
                current=ladder.is_current,
            )
            for ladder in found.ladders
        ],
    )


def ladder_of(found: ApiVisit, slug: str) -> Ladder:
    ladder = next((la for la in found.ladders if la.slug == slug), None)
    if ladder is None:
        raise Http404(NOT_FOUND)
    return ladder


def standings(
    found: ApiVisit, ladder: Ladder, on: str | None, limit: int, offset: int
) -> schemas.Standings:
    """The ladder as its page shows it, today or (`on`) at the end of that day: dated.BadDay
    for an `on` that is no date, as the page answers 400."""
    asked = dated.asked_day(found.club, {"on": on} if on is not None else {})
    roster = rosters.load_roster(found.club, found.is_director, ladder)
    if asked.day is None:
        rows = roster.ladder()
    else:
        rows = roster.ladder_on(found.club, asked.day, None, ladder)
    shown = rows[offset : offset + limit]
    return schemas.Standings(
        ladder=ladder.slug,
        name=ladder.name,
        current=ladder.is_current,
        on=asked.asked,
        shown_day=asked.day,
        provisional_below=rosters.provisional_below(found.club, ladder),
        count=len(rows),
        limit=limit,
        offset=offset,
        items=[
            schemas.LadderRow(player_id=row.player.id, **written)  # type: ignore[arg-type]
            for row, written in zip(shown, public_ladder(shown), strict=True)
        ],
    )


def players(found: ApiVisit, limit: int, offset: int) -> schemas.Players:
    """The roster page's players, by name, with their place on the club's first ladder."""
    roster = rosters.load_roster(found.club, found.is_director)
    everyone = roster.by_name()
    ranks = {row.player.id: row.rank for row in roster.ladder()}
    return schemas.Players(
        count=len(everyone),
        limit=limit,
        offset=offset,
        items=[
            schemas.RosterPlayer(
                id=p.id,
                name=p.name,
                rank=ranks.get(p.id),
                rating=p.rating_whole,
                rated_games=p.rated_games,
                provisional=p.provisional,
                last_played=p.last_played,
            )
            for p in everyone[offset : offset + limit]
        ],
    )


def player(found: ApiVisit, player_id: int) -> schemas.Player | int:
    """The player page's lifetime numbers on the club's first ladder; for a player merged
    into another, that player's id (the page sends the visitor there); Http404 otherwise."""
    roster = rosters.load_roster(found.club, found.is_director, found.ladders[0])
    # The lifetime sums count every game whatever `Shown` writes out: one event is enough.
    page = player_page_data(found.club, roster, player_id, Shown(limit=1))
    if page is None:
        kept = (
            found.club.players.filter(pk=player_id, merged_into__isnull=False)
            .public()
            .values_list("merged_into_id", flat=True)
            .first()
        )
        if kept is None:
            raise Http404(NOT_FOUND)
        return int(kept)
    record = page.record
    return schemas.Player(
        id=page.player.id,
        name=page.player.name,
        rank=page.rank,
        rating=page.player.rating_whole,
        rated_games=page.player.rated_games,
        provisional=page.player.provisional,
        last_played=page.player.last_played,
        events=page.timeline.events,
        record=schemas.Record(
            played=record.played,
            won=record.won,
            drawn=record.drawn,
            lost=record.lost,
            score=record.score,
            byes=record.byes,
            forfeits_won=record.forfeits_won,
            forfeits_lost=record.forfeits_lost,
        ),
    )


def events(found: ApiVisit, kind: str | None, limit: int, offset: int) -> schemas.Events:
    """The list of events' page: published events, newest first, each with its winners."""
    listed = event_list.event_summaries(found.club, kind)
    shown = listed[offset : offset + limit]
    roster = rosters.load_roster(found.club, found.is_director)
    winners = event_list.winners_of(
        found.club.events.published().filter(pk__in=[e.id for e in shown]),
        roster,
        _("unconfirmed player"),
        club_order(found.club),
    )
    codes = {str(label): code for code, label in Event.Kind.choices}
    return schemas.Events(
        count=len(listed),
        limit=limit,
        offset=offset,
        items=[
            schemas.EventSummary(
                id=e.id,
                name=e.name,
                date=e.date,
                kind=codes.get(e.kind, e.kind),
                rated=e.rated,
                players=e.players,
                winners=[
                    schemas.Winner(player_id=w.player_id, name=w.name)
                    for w in winners.get(e.id, ())
                ],
            )
            for e in shown
        ],
    )


def event(found: ApiVisit, event_id: int) -> schemas.Event:
    """The event page's final standings, with each entrant's rating line."""
    published = standings_store.published_event(found.club, event_id)
    if published is None:
        raise Http404(NOT_FOUND)
    roster = rosters.load_roster(found.club, found.is_director)
    page = event_pages.event_page(published, roster, _("unconfirmed player"))
    fed = fed_ladder(published, found.ladders)
    current = fed is None or fed.is_current
    order = [str(code) for code in page.order]
    return schemas.Event(
        id=published.pk,
        name=published.name,
        date=published.date,
        kind=published.kind,
        rated=page.rated,
        rounds=page.last_round,
        ranks_from_file=page.ranks_from_file,
        tiebreak_order=order,
        current=current,
        standings=[
            schemas.Standing(
                rank=s.rank,
                player_id=s.player_id,
                name=s.name,
                start_rank=s.start_rank,
                points=s.points,
                played=s.played,
                byes=s.byes,
                forfeits=s.forfeits,
                tiebreaks=dict(zip(order, s.tiebreak_values, strict=False)),
                performance=s.performance,
                rating=None if s.rating is None else _rating_line(s.rating),
            )
            for s in page.standings
        ],
    )


def _rating_line(line: RatingLine) -> schemas.RatingLine:
    """A rating line with before, change and after as every page prints them (so that they
    add up: ladder.event_ratings.RatingLine.printed), the rest as computed."""
    printed = line.printed
    return schemas.RatingLine(
        before=float(printed.before),
        expected=line.expected,
        score=line.actual,
        change=float(printed.change),
        after=float(printed.after),
        games_counted=line.games_counted,
        k=line.k,
    )


def schedule(found: ApiVisit, limit: int, offset: int) -> schemas.Schedule:
    """The upcoming events page: every date from today on, a cancelled one too."""
    dates = upcoming_dates(found.club, timezone.localdate(), MOST_ON_SCHEDULE_PAGE)
    return schemas.Schedule(
        count=len(dates),
        limit=limit,
        offset=offset,
        items=[
            schemas.ScheduledDate(
                uid=date.uid_stem,
                name=date.entry.name,
                date=date.date,
                starts_at=date.starts_at,
                time_zone=found.club.time_zone,
                place=date.entry.place,
                kind=date.entry.kind,
                notes=date.entry.notes,
                cancelled=date.cancelled,
                reason=date.reason,
                event_id=date.published_event.pk if date.published_event else None,
            )
            for date in dates[offset : offset + limit]
        ],
    )
