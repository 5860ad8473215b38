"""Plain builders for test data: explicit, small, no magic."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from django.core.management import call_command
from django.db.models import OuterRef, Subquery, Value
from django.db.models.functions import Coalesce

from clubs.models import Club, ClubRole, Entry, Event, Game, Ladder, Player, User
from clubs.results import Result
from ladder.models import LadderRating

PASSWORD = "a-long-test-password-7"


def make_user(email: str, *, staff: bool = False) -> User:
    return User.objects.create_user(email, PASSWORD, is_staff=staff, is_superuser=staff)


def make_club(
    *, slug: str = "rooks", owner: User | None = None, directors: Iterable[User] = (), **fields
) -> Club:
    # The policy and settings are the first ladder's (which every new club gets).
    ladder_fields = {
        name: fields.pop(name) for name in ("rating_policy", "rating_settings") if name in fields
    }
    club = Club.objects.create(slug=slug, name=fields.pop("name", slug.title()), **fields)
    if ladder_fields:
        club.ladders.update(**ladder_fields)
    if owner is not None:
        ClubRole.objects.create(club=club, user=owner, role=ClubRole.Role.OWNER)
    for user in directors:
        ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
    return club


def make_players(club: Club, names: Sequence[str]) -> list[Player]:
    return [Player.objects.create(club=club, name=name) for name in names]


def new_player(*, ladder=None, **fields) -> Player:
    """Player.objects.create(**fields), where the fields of a standing (rating, rated_games,
    provisional, last_played, last_change, start_rating, start_games) go to the player's
    LadderRating on `ladder` (the club's first by default)."""
    standing_fields = {name: fields.pop(name) for name in STANDING if name in fields}
    player = Player.objects.create(**fields)
    if standing_fields:
        set_standing(player, ladder=ladder, **standing_fields)
    return player


STANDING = (
    "rating", "rated_games", "provisional", "last_played", "last_change", "start_rating",
    "start_games",
)  # fmt: skip


def set_standing(player: Player | int, *, ladder=None, **fields) -> None:
    """Write a player's standing on `ladder` (the club's first by default), as
    Player.objects.filter(pk=...).update(rating=...) did when it was the player's own."""
    pk = player if isinstance(player, int) else player.pk
    club_id = Player.objects.values_list("club_id", flat=True).get(pk=pk)
    LadderRating.objects.update_or_create(
        ladder=ladder or first_ladder(club_id), player_id=pk, defaults=fields
    )


def rated_players():
    """Player.objects with each player's standing on their club's first ladder annotated
    (rating, rated_games, ...), as Player.objects read when those were the player's own."""
    first = Ladder.objects.filter(club_id=OuterRef(OuterRef("club_id"))).order_by("position", "id")
    row = LadderRating.objects.filter(
        player=OuterRef("pk"), ladder=Subquery(first.values("pk")[:1])
    )
    defaults = {"rated_games": 0, "provisional": True, "start_games": 0}
    return Player.objects.annotate(
        **{
            name: Coalesce(Subquery(row.values(name)[:1]), Value(defaults[name]))
            if name in defaults
            else Subquery(row.values(name)[:1])
            for name in STANDING
        }
    )


def standing(player: Player, ladder=None) -> Player:
    """The player as stored now, with their standing on `ladder` (the club's first by
    default): what player.refresh_from_db() gave when ratings were the player's own."""
    club = Club.objects.get(pk=player.club_id)
    return Player.objects.rated_on(ladder or club.first_ladder()).get(pk=player.pk)


def first_ladder(club: Club | int):
    """The club's first ladder as stored now (its versions, policy and settings)."""
    return Ladder.objects.first_of(club if isinstance(club, int) else club.pk)


def make_event(
    club: Club,
    games: Sequence[tuple[int, Player, Player | None, Result]] = (),
    *,
    date: dt.date = dt.date(2026, 1, 10),
    published: bool = True,
    **fields,
) -> Event:
    """An event whose games are (round, white, black or None, result), entries linked."""
    event = Event.objects.create(
        club=club,
        name=fields.pop("name", f"Event {date}"),
        date=date,
        status=Event.Status.PUBLISHED if published else Event.Status.DRAFT,
        **fields,
    )
    entries: dict[int, Entry] = {}

    def entry(player: Player) -> Entry:
        if player.pk not in entries:
            entries[player.pk] = Entry.objects.create(
                event=event, typed_name=player.name, player=player, start_rank=len(entries) + 1
            )
        return entries[player.pk]

    for round_no, white, black, result in games:
        Game.objects.create(
            event=event,
            round=round_no,
            white=entry(white),
            black=entry(black) if black is not None else None,
            result=result,
        )
    return event


def make_history(
    club: Club,
    *,
    events: int,
    players: int,
    per_event: int,
    rounds: int,
    seed: int = 1,
    roster: Sequence[Player] | None = None,
    start: dt.date = dt.date(2020, 1, 1),
    days_apart: int = 1,
    always: Sequence[Player] = (),
) -> list[Event]:
    """A synthetic published history built with bulk inserts, for heavier tests and benches.

    With `roster`, its players take part instead of `players` new ones. Events fall on `start`
    and every `days_apart` days after; the `always` players (of the roster) play in every one.
    """
    import random

    rng = random.Random(seed)
    if roster is None:
        roster = Player.objects.bulk_create(
            Player(club=club, name=f"Player {n:04d}") for n in range(players)
        )
    made = Event.objects.bulk_create(
        Event(
            club=club,
            name=f"Round robin {n}",
            date=start + dt.timedelta(days=n * days_apart),
            status=Event.Status.PUBLISHED,
        )
        for n in range(events)
    )
    others = [p for p in roster if p not in always] if always else roster
    entries = Entry.objects.bulk_create(
        (
            Entry(event=event, typed_name=p.name, player=p, start_rank=rank)
            for event in made
            for rank, p in enumerate(
                [*always, *rng.sample(others, per_event - len(always))], start=1
            )
        ),
        batch_size=5000,
    )
    by_event: dict[int, list[Entry]] = {}
    for entry in entries:
        by_event.setdefault(entry.event_id, []).append(entry)
    results = [Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN]
    games = []
    for event in made:
        field = by_event[event.pk]
        for round_no in range(1, rounds + 1):
            rng.shuffle(field)
            games.extend(
                Game(event=event, round=round_no, white=w, black=b, result=rng.choice(results))
                for w, b in zip(field[::2], field[1::2], strict=True)
            )
    Game.objects.bulk_create(games, batch_size=5000)
    return made


def update_standings(players, *, ladder=None, **fields) -> None:
    """set_standing for every player of the queryset `players`."""
    for pk in players.values_list("pk", flat=True):
        set_standing(pk, ladder=ladder, **fields)


def imported_event(club: Club, path: Path) -> Event:
    """A tournament file imported and published as a director's `import_event --publish`
    does it (the command replays the club's ladder)."""
    out = io.StringIO()
    call_command(
        "import_event", club.slug, str(path), "--publish", stdout=out, stderr=io.StringIO()
    )
    return Event.objects.get(pk=int(out.getvalue()))
